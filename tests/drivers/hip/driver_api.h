// The test driver's view of the HIP runtime API. Types and the function list come from anygpu's
// own hip_api.h, and every exported entry point is declared from that same list, so a definition
// whose signature differs from what the HIP backend calls does not compile. Constants a runtime
// needs beyond what anygpu uses (values from hip_runtime_api.h) are here.
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
ANYGPU_HIP_TEST_EXPORT hipError_t hipGetProcAddress(const char* symbol, void** pfn, int hip_version,
                                                    uint64_t flags,
                                                    hipDriverProcAddressQueryResult* status);
}
#undef ANYGPU_HIP_TEST_DECLARE

// hipGetProcAddress must have the type anygpu calls it through.
static_assert(std::is_same_v<decltype(&hipGetProcAddress), PFN_hipGetProcAddress>);

}  // namespace anygpu::hip

namespace anygpu::hip_test_driver {

using namespace anygpu::hip;

// hipError_t values beyond hip_api.h's (hip_runtime_api.h's numbers).
constexpr hipError_t hipErrorInvalidConfiguration = 9;
constexpr hipError_t hipErrorInvalidDevicePointer = 17;
constexpr hipError_t hipErrorInvalidKernelFile = 218;
constexpr hipError_t hipErrorIllegalAddress = 700;
constexpr hipError_t hipErrorLaunchOutOfResources = 701;
constexpr hipError_t hipErrorLaunchFailure = 719;

constexpr unsigned hipStreamDefault = 0x0;
constexpr unsigned hipEventBlockingSync = 0x1;
constexpr unsigned hipEventInterprocess = 0x4;
constexpr unsigned hipEventReleaseToDevice = 0x40000000;
constexpr unsigned hipEventReleaseToSystem = 0x80000000;
constexpr unsigned hipHostMallocPortable = 0x1;
constexpr unsigned hipHostMallocMapped = 0x2;
constexpr unsigned hipHostMallocWriteCombined = 0x4;
constexpr unsigned hipHostMallocNumaUser = 0x20000000;
constexpr unsigned hipHostMallocCoherent = 0x40000000;
constexpr unsigned hipHostMallocNonCoherent = 0x80000000;

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
