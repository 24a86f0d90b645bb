// Loading the HIP runtime: the library (never dlclose'd), hipInit, the version check, and every
// entry point.
#pragma once

#include <string>

#include "loaders/hip/hip_api.h"

namespace anygpu::hip {

struct HipRuntime {
  std::string path;         // the library opened, or the last name tried
  int runtime_version = 0;  // hipRuntimeGetVersion: 50221153 is HIP 5.2 (build 21153)
  int driver_version = 0;   // hipDriverGetVersion
  bool through_get_proc_address = false;
  HipFunctions fn;
};

// "5.2" for 50221153.
std::string hip_version_text(int version);

// Opens and initialises the runtime and resolves its functions. False with `reason` (naming the
// runtime's own error, or the missing functions) when it cannot be used.
bool load_hip_runtime(HipRuntime* runtime, std::string* reason);

}  // namespace anygpu::hip
