// What the registration file (kernel_registration.h) needs to name a CUDA-syntax kernel in C++: its
// qualified name (with template arguments) and its parameter types, from its mangled name.
#pragma once

#include <string>

namespace anygpu {

struct KernelDeclaration {
  std::string name;    // "reduce<256u>", "ns::scale<float>", "saxpy"
  std::string params;  // "float const*, float*, unsigned int" (empty for none)
};

// False with `error` when `mangled` is no C++ function name the demangler reads. Anonymous
// namespaces are dropped: the registration file includes the source, so their names are found.
bool kernel_declaration(const std::string& mangled, KernelDeclaration* declaration,
                        std::string* error);

}  // namespace anygpu
