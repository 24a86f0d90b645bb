// Loading the HIP runtime: the library (never dlclose'd), hipInit, the version check, and every
// entry point.
#pragma once

#include <dlfcn.h>

#include <cstring>
#include <string>

#include "loaders/hip/hip_api.h"
#include "loaders/symbol_resolver.h"

namespace anygpu::hip {

// The API version a function is asked for (see hip_api.h): hipGetDeviceProperties alone at 5.0,
// so that the runtime does not answer the R0600 form for it.
inline int hip_api_version(const char* name) {
  if (std::strcmp(name, "hipGetDeviceProperties") == 0) return kLegacyPropertiesApiVersion;
  return kRequestedApiVersion;
}

// How anygpu finds the runtime's entry points in `library`: each by its name at the pinned API
// version, with the legacy default stream, through hipGetProcAddress (HIP 6.2+); older runtimes
// by dlsym. The benchmarks' direct side uses it too.
inline SymbolLookup hip_symbol_lookup(void* library) {
  PFN_hipGetProcAddress get_proc_address = nullptr;
  set_function(get_proc_address, dlsym(library, "hipGetProcAddress"));
  return get_proc_address ? proc_address_lookup(get_proc_address, hip_api_version,
                                                HIP_GET_PROC_ADDRESS_LEGACY_STREAM)
                          : dlsym_lookup(library);
}

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
