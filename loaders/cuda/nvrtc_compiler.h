// The CUDA backend's run-time compiler: NVRTC, loaded at run time as the driver is
// (docs/cuda-backend.md, "Run-time compilation").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "shim/core/runtime_compiler.h"

namespace anygpu::cuda {

// The libraries tried, newest first, unless ANYGPU_NVRTC_LIBRARY names one.
const std::vector<std::string>& nvrtc_library_names();

// cuda_backend_descriptor's compiler factory: NVRTC, or nullptr with `reason` naming what to
// install.
std::unique_ptr<RuntimeCompiler> make_nvrtc_compiler(std::string& reason);

// The SM number of an architecture ("sm_86", "sm_90a", "compute_75": 86, 90, 75); 0 when the
// text is none.
int nvrtc_sm_number(const std::string& architecture);

}  // namespace anygpu::cuda
