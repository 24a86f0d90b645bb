// hipGetErrorName and hipGetErrorString: the names and texts of HIP's runtime for the results this
// driver returns and the common ones; any other number is "hipErrorUnknown" / "unknown error", as
// HIP answers one it does not know.
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

struct ResultText {
  hipError_t result;
  const char* name;
  const char* text;
};

constexpr ResultText kResults[] = {
    {0, "hipSuccess", "no error"},
    {1, "hipErrorInvalidValue", "invalid argument"},
    {2, "hipErrorOutOfMemory", "out of memory"},
    {3, "hipErrorNotInitialized", "initialization error"},
    {4, "hipErrorDeinitialized", "driver shutting down"},
    {9, "hipErrorInvalidConfiguration", "invalid configuration argument"},
    {17, "hipErrorInvalidDevicePointer", "invalid device pointer"},
    {35, "hipErrorInsufficientDriver", "driver version is insufficient for runtime version"},
    {98, "hipErrorInvalidDeviceFunction", "invalid device function"},
    {100, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {101, "hipErrorInvalidDevice", "invalid device ordinal"},
    {200, "hipErrorInvalidImage", "device kernel image is invalid"},
    {201, "hipErrorInvalidContext", "invalid device context"},
    {209, "hipErrorNoBinaryForGpu", "no kernel image is available for execution on the device"},
    {218, "hipErrorInvalidKernelFile", "invalid kernel file"},
    {301, "hipErrorFileNotFound", "file not found"},
    {400, "hipErrorInvalidHandle", "invalid resource handle"},
    {500, "hipErrorNotFound", "named symbol not found"},
    {600, "hipErrorNotReady", "device not ready"},
    {700, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "hipErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "hipErrorLaunchTimeOut", "the launch timed out and was terminated"},
    {704, "hipErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {705, "hipErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {719, "hipErrorLaunchFailure", "unspecified launch failure"},
    {801, "hipErrorNotSupported", "operation not supported"},
    {999, "hipErrorUnknown", "unknown error"},
};

const ResultText& find(hipError_t result) {
  for (const ResultText& entry : kResults)
    if (entry.result == result) return entry;
  return kResults[sizeof kResults / sizeof kResults[0] - 1];  // hipErrorUnknown
}

}  // namespace

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

ANYGPU_HIP_TEST_API const char* hipGetErrorName(hipError_t result) {
  DRIVER_ENTRY_TEXT(hipGetErrorName);
  return find(result).name;
}

ANYGPU_HIP_TEST_API const char* hipGetErrorString(hipError_t result) {
  DRIVER_ENTRY_TEXT(hipGetErrorString);
  return find(result).text;
}

}  // namespace anygpu::hip
