// The HIP runtime types the wrappers' signatures need, declared here: the interposer is built
// without HIP headers and never links libamdhip64. Layouts are HIP's ABI (hip_runtime_api.h, 6.x).
#pragma once

#include <cstddef>
#include <cstdint>

namespace anygpu::intercept {

typedef int hipError_t;  // an int-sized enum in HIP
typedef int hipMemcpyKind;
typedef int hipDriverProcAddressQueryResult;
typedef void* hipDeviceptr_t;
typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef struct ihipModule_t* hipModule_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;

// Passed by value to hipLaunchKernel.
struct dim3 {
  uint32_t x, y, z;
};

}  // namespace anygpu::intercept
