// Which kernel of a module a requested name means. Kernels of CUDA-syntax sources are C++
// functions, so code objects name them by Itanium-mangled names (`_Z6reduceILi256EEvPfS0_j`);
// a caller may ask for one by that name, by its plain name (`reduce`, when only one kernel has
// it), by its qualified name with template arguments (`reduce<256>`, `ns::scale<float>`), or by
// its demangled signature (`reduce<256>(float*, float*, unsigned int)`). Names that are not
// mangled (AG_KERNEL, extern "C") match only themselves. docs/runtime-core.md has the rules.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace anygpu {

// One kernel of a module, with the spellings that name it (computed once, at load time).
struct KernelName {
  std::string name;                  // as the code object has it: what the backend is asked for
  std::string readable;              // the demangled signature, or `name` when not mangled
  std::vector<std::string> aliases;  // normalised spellings other than `name` itself
};

struct KernelNameTable {
  std::vector<KernelName> kernels;
};

KernelNameTable make_kernel_name_table(const std::vector<std::string>& names);

struct KernelNameMatch {
  enum class Kind { resolved, ambiguous, not_found };
  Kind kind = Kind::not_found;
  std::string resolved;                 // Kind::resolved: the code object's exact name
  std::vector<std::string> candidates;  // Kind::ambiguous: their readable signatures, sorted
};

// An exact name wins; otherwise the kernels one of whose aliases is the request, spaces inside it
// aside (a request that starts or ends with a space names nothing but an exact name).
KernelNameMatch match_kernel_name(const KernelNameTable& table, std::string_view requested);

// `name` demangled by abi::__cxa_demangle, or "" when it is not a mangled C++ name.
std::string demangle_kernel_name(const std::string& name);

// A spelling with whitespace removed except one space between two identifier characters:
// "float *" and "float*" compare equal, "unsigned int" keeps its space.
std::string normalize_kernel_spelling(std::string_view spelling);

// "a, b, c" of up to `max_names` readable names, within about `max_chars`, then "and N more".
std::string describe_kernel_names(const std::vector<std::string>& readable, size_t max_names = 20,
                                  size_t max_chars = 600);

}  // namespace anygpu
