// The Level Zero backend's run-time compiler: a program to SPIR-V as anygpu_add_kernels builds it
// (cmake/AnygpuKernels.cmake, _anygpu_add_spirv), with clang-15, llvm-link-15, llvm-as-15 and
// llvm-spirv-15 run as processes. AG_KERNEL sources compile as C++ for OpenCL; CUDA sources (".cu")
// are first compiled for the host with AGK_DISCOVER to find their kernels, then their registration
// file compiles in HIP mode for spirv64. The linked module is rewritten as the build rewrites it
// (loop metadata, freeze, llvm.compiler.used, the OpenCL version, the extern __shared__ arrays'
// size, the blocks' order) before llvm-spirv translates it.
#pragma once

#include <memory>
#include <string>

#include "shim/core/runtime_compiler.h"

namespace anygpu {
namespace level_zero {

// The tools: ANYGPU_SPIRV_CLANG, ANYGPU_SPIRV_LINK, ANYGPU_SPIRV_AS, ANYGPU_LLVM_SPIRV from the
// environment, else the ones this build found, else clang-15, llvm-link-15, llvm-as-15 and
// llvm-spirv-15 on the PATH. nullptr with `reason` naming what to install when one is missing.
std::unique_ptr<RuntimeCompiler> make_runtime_compiler(std::string& reason);

}  // namespace level_zero
}  // namespace anygpu
