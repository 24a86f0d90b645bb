// Loading the CUDA driver: the library (never dlclose'd), cuInit, the version check, and every
// entry point by its versioned name.
#pragma once

#include <dlfcn.h>

#include <cstring>
#include <string>

#include "loaders/cuda/cuda_api.h"
#include "loaders/symbol_resolver.h"

namespace anygpu::cuda {

struct CudaDriver {
  std::string path;  // the library opened, or the last name tried
  int version = 0;   // cuDriverGetVersion: 12040 is CUDA 12.4
  bool through_get_proc_address = false;
  CudaFunctions fn;
};

// The API version a function is asked for: the common one, or the release that introduced a
// newer optional function (the driver answers "version not sufficient" below it).
inline int cuda_api_version(const char* name) {
  for (const char* newer : {"cuFuncGetParamInfo", "cuModuleGetFunctionCount",
                            "cuModuleEnumerateFunctions", "cuFuncLoad"})
    if (std::strcmp(name, newer) == 0) return 12040;
  return kRequestedApiVersion;
}

// How anygpu finds the driver's entry points in `library`: each by its base name at the pinned
// API version through cuGetProcAddress_v2 (so "cuMemAlloc" is cuMemAlloc_v2, as declared), or,
// in drivers without it, dlsym of the versioned symbol. The benchmarks' direct side uses it too.
inline SymbolLookup cuda_symbol_lookup(void* library) {
  PFN_cuGetProcAddress_v2 get_proc_address = nullptr;
  set_function(get_proc_address, dlsym(library, "cuGetProcAddress_v2"));
  return get_proc_address ? proc_address_lookup(get_proc_address, cuda_api_version,
                                                CU_GET_PROC_ADDRESS_LEGACY_STREAM)
                          : dlsym_lookup(library);
}

// "12.4" for 12040.
std::string cuda_version_text(int version);

// Opens and initialises the driver and resolves its functions. False with `reason` (naming the
// driver's own error, or the missing functions) when it cannot be used.
bool load_cuda_driver(CudaDriver* driver, std::string* reason);

}  // namespace anygpu::cuda
