// The exported wrappers, declared from the function lists (defined in cuda_wrappers.cpp and
// hip_wrappers.cpp), and each one's address by function number.
#pragma once

#include <type_traits>

#include "interpose/function_names.h"

#define ANYGPU_INTERCEPT_EXPORT __attribute__((visibility("default")))

namespace anygpu::intercept {

// Each with the type of the vendor API's declaration (PFN_<symbol>).
#define ANYGPU_DECLARE_CUDA_WRAPPER(symbol, ...) \
  ANYGPU_INTERCEPT_EXPORT std::remove_pointer_t<cuda::PFN_##symbol> symbol;
#define ANYGPU_DECLARE_HIP_WRAPPER(symbol, ...) \
  ANYGPU_INTERCEPT_EXPORT std::remove_pointer_t<hip::PFN_##symbol> symbol;
extern "C" {
ANYGPU_CUDA_FUNCTIONS(ANYGPU_DECLARE_CUDA_WRAPPER)
ANYGPU_HIP_FUNCTIONS(ANYGPU_DECLARE_HIP_WRAPPER)
}
#undef ANYGPU_DECLARE_CUDA_WRAPPER
#undef ANYGPU_DECLARE_HIP_WRAPPER

void* wrapper_address(int id);

}  // namespace anygpu::intercept
