// The HIP backend's run-time compiler: hiprtc, loaded at run time as the runtime is
// (docs/hip-backend.md, "Run-time compilation").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "shim/core/runtime_compiler.h"

namespace anygpu::hip {

// The libraries tried, newest first, unless ANYGPU_HIPRTC_LIBRARY names one: ROCm 7's and 6's
// libhiprtc, then HIP 5's libamdhip64, which exports hiprtc itself.
const std::vector<std::string>& hiprtc_library_names();

// hip_backend_descriptor's compiler factory: hiprtc, or nullptr with `reason` naming what to
// install.
std::unique_ptr<RuntimeCompiler> make_hiprtc_compiler(std::string& reason);

}  // namespace anygpu::hip
