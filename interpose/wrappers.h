// The exported wrappers, declared from the function lists (defined in cuda_wrappers.cpp and
// hip_wrappers.cpp), and each one's address by function number.
#pragma once

#include "interpose/function_names.h"

#define ANYGPU_INTERCEPT_EXPORT __attribute__((visibility("default")))

namespace anygpu::intercept {

#define ANYGPU_DECLARE_CUDA_WRAPPER(symbol, parameters, ...) \
  ANYGPU_INTERCEPT_EXPORT CUresult symbol parameters;
#define ANYGPU_DECLARE_HIP_WRAPPER(symbol, parameters, ...) \
  ANYGPU_INTERCEPT_EXPORT hipError_t symbol parameters;
extern "C" {
ANYGPU_CUDA_FUNCTIONS(ANYGPU_DECLARE_CUDA_WRAPPER)
ANYGPU_HIP_FUNCTIONS(ANYGPU_DECLARE_HIP_WRAPPER)
}
#undef ANYGPU_DECLARE_CUDA_WRAPPER
#undef ANYGPU_DECLARE_HIP_WRAPPER

void* wrapper_address(int id);

}  // namespace anygpu::intercept
