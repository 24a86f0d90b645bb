// The test driver's view of the HIP runtime API. Types, constants and the function lists come from
// anygpu's own hip_api.h, and every exported entry point is declared from those same lists, so a
// definition whose signature differs from what the HIP backend calls does not compile. What a
// runtime takes beyond that (hipModuleLaunchKernel's `extra` markers, hip_runtime_api.h's) is
// here.
#pragma once

#include <cstdint>
#include <type_traits>

#include "loaders/hip/hip_api.h"

#define ANYGPU_HIP_TEST_EXPORT __attribute__((visibility("default")))
// What an exported definition starts with (visibility is not carried over from the declaration in
// another namespace).
#define ANYGPU_HIP_TEST_API extern "C" ANYGPU_HIP_TEST_EXPORT

namespace anygpu::hip {

// Declared in anygpu::hip with C linkage: a definition in another namespace with extern "C" is the
// same function (and must have the same type).
#define ANYGPU_HIP_TEST_DECLARE(symbol, name, result, parameters) \
  ANYGPU_HIP_TEST_EXPORT result symbol parameters;
extern "C" {
ANYGPU_HIP_REQUIRED_FUNCTIONS(ANYGPU_HIP_TEST_DECLARE)
ANYGPU_HIP_OPTIONAL_FUNCTIONS(ANYGPU_HIP_TEST_DECLARE)
ANYGPU_HIP_TEST_EXPORT std::remove_pointer_t<PFN_hipGetProcAddress> hipGetProcAddress;
}
#undef ANYGPU_HIP_TEST_DECLARE

}  // namespace anygpu::hip

namespace anygpu::hip_test_driver {

using namespace anygpu::hip;

// hipModuleLaunchKernel's `extra`: a buffer of packed arguments instead of `params`.
#define ANYGPU_HIP_LAUNCH_PARAM(value) reinterpret_cast<void*>(uintptr_t{value})
inline void* const HIP_LAUNCH_PARAM_BUFFER_POINTER = ANYGPU_HIP_LAUNCH_PARAM(0x01);
inline void* const HIP_LAUNCH_PARAM_BUFFER_SIZE = ANYGPU_HIP_LAUNCH_PARAM(0x02);
inline void* const HIP_LAUNCH_PARAM_END = ANYGPU_HIP_LAUNCH_PARAM(0x03);
#undef ANYGPU_HIP_LAUNCH_PARAM

// The special stream handles: the null stream and hipStreamPerThread.
inline bool is_null_stream(hipStream_t stream) {
  const auto value = reinterpret_cast<uintptr_t>(stream);
  return value == 0 || value == 2;
}

}  // namespace anygpu::hip_test_driver
