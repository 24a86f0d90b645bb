// The HIP backend's second run-time compiler: a program to an AMD code object as anygpu_add_kernels
// builds one (cmake/AnygpuKernels.cmake, _anygpu_add_amdgpu), with clang-19 run as processes. Each
// source compiles in HIP mode for the device's target id to bitcode with ROCm's ocml linked in,
// then clang's ld.lld links it (LTO) into the code object. As in the build, every source is first
// compiled for the host with AGK_DISCOVER to find its kernels, and its registration file is what
// compiles for the GPU. It compiles for targets Debian's hiprtc (HIP 5.2, comgr 2.4) does not know
// (gfx1101, gfx942, gfx1200), so the backend tries it after hiprtc (hip_compilers.h).
#pragma once

#include <memory>
#include <string>

#include "shim/core/runtime_compiler.h"

namespace anygpu::hip {

// clang: ANYGPU_HIP_CLANG from the environment, else the build's clang-19, else clang-19 on the
// PATH; its ld.lld (clang -print-prog-name=ld.lld); ocml.bc: ANYGPU_OCML from the environment,
// else the build's, else Debian's rocm-device-libs', else $ROCM_PATH's. nullptr with `reason`
// naming what to install when one is missing.
std::unique_ptr<RuntimeCompiler> make_clang_compiler(std::string& reason);

}  // namespace anygpu::hip
