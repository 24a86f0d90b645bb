// The test driver's view of the CUDA Driver API. Types, constants and the function lists come from
// anygpu's own cuda_api.h, and every exported entry point is declared from those same lists, so a
// definition whose signature differs from what the CUDA backend calls does not compile.
#pragma once

#include <cstdint>
#include <type_traits>

#include "loaders/cuda/cuda_api.h"

#define ANYGPU_CUDA_TEST_EXPORT __attribute__((visibility("default")))
// What an exported definition starts with (visibility is not carried over from the declaration in
// another namespace).
#define ANYGPU_CUDA_TEST_API extern "C" ANYGPU_CUDA_TEST_EXPORT

namespace anygpu::cuda {

// Declared in anygpu::cuda with C linkage: a definition in another namespace with extern "C"
// is the same function (and must have the same type).
#define ANYGPU_CUDA_TEST_DECLARE(symbol, name, result, parameters) \
  ANYGPU_CUDA_TEST_EXPORT result symbol parameters;
extern "C" {
ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_CUDA_TEST_DECLARE)
ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_CUDA_TEST_DECLARE)
ANYGPU_CUDA_RUNTIME_FUNCTIONS(ANYGPU_CUDA_TEST_DECLARE)
ANYGPU_CUDA_TEST_EXPORT std::remove_pointer_t<PFN_cuGetProcAddress_v2> cuGetProcAddress_v2;
}
#undef ANYGPU_CUDA_TEST_DECLARE

}  // namespace anygpu::cuda

namespace anygpu::cuda_test_driver {

using namespace anygpu::cuda;

// The "old driver" build (ANYGPU_CUDA_TEST_OLD_DRIVER) is a CUDA 11.4 driver: it has neither
// cuGetProcAddress_v2 (12.0) nor cuFuncGetParamInfo (12.4), so a loader must use dlsym.
#ifdef ANYGPU_CUDA_TEST_OLD_DRIVER
constexpr int kDefaultDriverVersion = 11040;
constexpr bool kHasProcAddress = false;
constexpr bool kHasParamInfo = false;
constexpr bool kHasRuntimeFunctions = false;
#else
constexpr int kDefaultDriverVersion = 12040;
constexpr bool kHasProcAddress = true;
constexpr bool kHasParamInfo = true;
constexpr bool kHasRuntimeFunctions = true;  // ANYGPU_CUDA_RUNTIME_FUNCTIONS
#endif

// The special stream handles: the legacy default stream and the per-thread one.
inline bool is_default_stream(CUstream stream) {
  const auto value = reinterpret_cast<uintptr_t>(stream);
  return value == 0 || value == 1 || value == 2;
}

}  // namespace anygpu::cuda_test_driver
