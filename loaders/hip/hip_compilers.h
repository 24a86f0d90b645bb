// The HIP backend's run-time compiler (docs/hip-backend.md, "Run-time compilation"): hiprtc
// (hiprtc_compiler.h) first; clang-19 (hip_clang_compiler.h) when hiprtc is not installed, or
// when it cannot compile for the device (AG_ERROR_NOT_SUPPORTED: a target its code-object manager
// does not know, as gfx1101 for Debian's HIP 5.2). A source hiprtc finds wrong
// (AG_ERROR_COMPILE_FAILED) is reported as hiprtc says, not compiled again.
#pragma once

#include <memory>
#include <string>

#include "shim/core/runtime_compiler.h"

namespace anygpu::hip {

// hip_backend_descriptor's compiler factory: hiprtc, else clang, or both in that order where both
// are installed; nullptr with `reason` naming what to install for each when neither is. Reads the
// environment (ANYGPU_HIPRTC_LIBRARY, ANYGPU_HIP_CLANG, ANYGPU_OCML) when called.
std::unique_ptr<RuntimeCompiler> make_runtime_compiler(std::string& reason);

}  // namespace anygpu::hip
