// SPIR-V has no unsized workgroup arrays, so the extern __shared__ arrays of a HIP-mode SPIR-V
// module (LLVM 15 IR, typed pointers: `@sdata = external addrspace(3) global [0 x float]`) are
// given a size before llvm-spirv reads the module: every `[0 x T]` of such an array's element
// type T becomes `[N x T]`, N elements filling `bytes`, and the declaration a definition.
#pragma once

#include <string>

namespace anygpu {

// `ir` rewritten; false with `error` when an array's element type has no size this reader
// knows (it reads integers, half/float/double, pointers, vectors, arrays and named or literal
// structs).
bool size_extern_shared_arrays(const std::string& ir, unsigned long bytes, std::string* sized,
                               std::string* error);

}  // namespace anygpu
