// The CPU backend's run-time compiler (shim/core/runtime_compiler.h): the steps anygpu_add_kernels
// runs for the host target, at run time: the discovery compile, the registration file, the
// storage of extern __shared__ arrays, and clang++ with the barrier pass plugin, linked into a
// shared object whose bytes are the image (agModuleLoadData takes it from memory).
#pragma once

#include <memory>
#include <string>

#include "shim/core/runtime_compiler.h"

namespace anygpu {
namespace cpu {

// The descriptor's `compiler`: nullptr with `reason` when no host compiler runs.
std::unique_ptr<RuntimeCompiler> make_runtime_compiler(std::string& reason);

}  // namespace cpu
}  // namespace anygpu
