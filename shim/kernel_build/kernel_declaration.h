// What the registration file (kernel_registration.h) needs to name a CUDA-syntax kernel in C++: its
// qualified name (with template arguments) and its parameter types, from its mangled name; for an
// extern "C" kernel, whose symbol is its plain name, the name alone.
#pragma once

#include <string>

namespace anygpu {

struct KernelDeclaration {
  std::string name;    // "reduce<256u>", "ns::scale<float>", "saxpy"
  std::string params;  // "float const*, float*, unsigned int" (empty for none)
  // extern "C": the symbol names no parameters; the registration takes the type from the
  // function itself (decltype), `params` is empty.
  bool c_linkage = false;
};

// Whether `name` is a C identifier (letters, digits, '_', not starting with a digit).
bool is_identifier(const std::string& name);

// False with `error` when `mangled` is neither a C++ function name the demangler reads nor a
// plain identifier (an extern "C" function). Anonymous namespaces are dropped: the registration
// file includes the source, so their names are found.
bool kernel_declaration(const std::string& mangled, KernelDeclaration* declaration,
                        std::string* error);

}  // namespace anygpu
