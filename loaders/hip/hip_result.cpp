#include "hip_result.h"

#include "../../shim/error.h"
#include "../../shim/string_format.h"

namespace anygpu::hip {
namespace {

struct NamedResult {
  hipError_t value;
  const char* name;
};

// Every hipError_t of HIP 5.2 to 7.x, in the header's order; where the header gives a value two
// names (hipErrorMemoryAllocation, hipErrorInitializationError, hipErrorMapBufferObjectFailed,
// hipErrorInvalidResourceHandle are deprecated aliases), the current one, as hipGetErrorName
// answers.
constexpr NamedResult kNames[] = {
    {0, "hipSuccess"},
    {1, "hipErrorInvalidValue"},
    {2, "hipErrorOutOfMemory"},
    {3, "hipErrorNotInitialized"},
    {4, "hipErrorDeinitialized"},
    {5, "hipErrorProfilerDisabled"},
    {6, "hipErrorProfilerNotInitialized"},
    {7, "hipErrorProfilerAlreadyStarted"},
    {8, "hipErrorProfilerAlreadyStopped"},
    {9, "hipErrorInvalidConfiguration"},
    {12, "hipErrorInvalidPitchValue"},
    {13, "hipErrorInvalidSymbol"},
    {17, "hipErrorInvalidDevicePointer"},
    {21, "hipErrorInvalidMemcpyDirection"},
    {35, "hipErrorInsufficientDriver"},
    {52, "hipErrorMissingConfiguration"},
    {53, "hipErrorPriorLaunchFailure"},
    {98, "hipErrorInvalidDeviceFunction"},
    {100, "hipErrorNoDevice"},
    {101, "hipErrorInvalidDevice"},
    {200, "hipErrorInvalidImage"},
    {201, "hipErrorInvalidContext"},
    {202, "hipErrorContextAlreadyCurrent"},
    {205, "hipErrorMapFailed"},
    {206, "hipErrorUnmapFailed"},
    {207, "hipErrorArrayIsMapped"},
    {208, "hipErrorAlreadyMapped"},
    {209, "hipErrorNoBinaryForGpu"},
    {210, "hipErrorAlreadyAcquired"},
    {211, "hipErrorNotMapped"},
    {212, "hipErrorNotMappedAsArray"},
    {213, "hipErrorNotMappedAsPointer"},
    {214, "hipErrorECCNotCorrectable"},
    {215, "hipErrorUnsupportedLimit"},
    {216, "hipErrorContextAlreadyInUse"},
    {217, "hipErrorPeerAccessUnsupported"},
    {218, "hipErrorInvalidKernelFile"},
    {219, "hipErrorInvalidGraphicsContext"},
    {300, "hipErrorInvalidSource"},
    {301, "hipErrorFileNotFound"},
    {302, "hipErrorSharedObjectSymbolNotFound"},
    {303, "hipErrorSharedObjectInitFailed"},
    {304, "hipErrorOperatingSystem"},
    {400, "hipErrorInvalidHandle"},
    {401, "hipErrorIllegalState"},
    {500, "hipErrorNotFound"},
    {600, "hipErrorNotReady"},
    {700, "hipErrorIllegalAddress"},
    {701, "hipErrorLaunchOutOfResources"},
    {702, "hipErrorLaunchTimeOut"},
    {704, "hipErrorPeerAccessAlreadyEnabled"},
    {705, "hipErrorPeerAccessNotEnabled"},
    {708, "hipErrorSetOnActiveProcess"},
    {709, "hipErrorContextIsDestroyed"},
    {710, "hipErrorAssert"},
    {712, "hipErrorHostMemoryAlreadyRegistered"},
    {713, "hipErrorHostMemoryNotRegistered"},
    {719, "hipErrorLaunchFailure"},
    {720, "hipErrorCooperativeLaunchTooLarge"},
    {801, "hipErrorNotSupported"},
    {900, "hipErrorStreamCaptureUnsupported"},
    {901, "hipErrorStreamCaptureInvalidated"},
    {902, "hipErrorStreamCaptureMerge"},
    {903, "hipErrorStreamCaptureUnmatched"},
    {904, "hipErrorStreamCaptureUnjoined"},
    {905, "hipErrorStreamCaptureIsolation"},
    {906, "hipErrorStreamCaptureImplicit"},
    {907, "hipErrorCapturedEvent"},
    {908, "hipErrorStreamCaptureWrongThread"},
    {910, "hipErrorGraphExecUpdateFailure"},
    {911, "hipErrorInvalidChannelDescriptor"},
    {912, "hipErrorInvalidTexture"},
    {999, "hipErrorUnknown"},
    {1052, "hipErrorRuntimeMemory"},
    {1053, "hipErrorRuntimeOther"},
};

}  // namespace

const char* hip_result_name(hipError_t result) {
  for (const NamedResult& named : kNames)
    if (named.value == result) return named.name;
  return nullptr;
}

ag_result map_hip_result(hipError_t result) {
  switch (result) {
    case 0:
      return AG_SUCCESS;
    case 1:   // InvalidValue
    case 12:  // InvalidPitchValue
    case 21:  // InvalidMemcpyDirection
      return AG_ERROR_INVALID_VALUE;
    case 2:     // OutOfMemory
    case 1052:  // RuntimeMemory
      return AG_ERROR_OUT_OF_MEMORY;
    case 3:   // NotInitialized
    case 4:   // Deinitialized
    case 35:  // InsufficientDriver
      return AG_ERROR_NOT_INITIALIZED;
    case 100:  // NoDevice
      return AG_ERROR_NO_DEVICE;
    case 101:  // InvalidDevice
      return AG_ERROR_INVALID_DEVICE;
    case 200:  // InvalidImage
    case 218:  // InvalidKernelFile
    case 300:  // InvalidSource
      return AG_ERROR_INVALID_IMAGE;
    case 209:  // NoBinaryForGpu
      return AG_ERROR_NO_BINARY_FOR_DEVICE;
    case 201:  // InvalidContext
    case 400:  // InvalidHandle
    case 709:  // ContextIsDestroyed
      return AG_ERROR_INVALID_HANDLE;
    case 17:  // InvalidDevicePointer
      return AG_ERROR_INVALID_ADDRESS;
    case 301:  // FileNotFound
      return AG_ERROR_FILE_NOT_FOUND;
    case 13:   // InvalidSymbol
    case 98:   // InvalidDeviceFunction
    case 302:  // SharedObjectSymbolNotFound
    case 500:  // NotFound
      return AG_ERROR_NOT_FOUND;
    case 600:  // NotReady
      return AG_ERROR_NOT_READY;
    case 9:    // InvalidConfiguration
    case 52:   // MissingConfiguration
    case 701:  // LaunchOutOfResources
    case 720:  // CooperativeLaunchTooLarge
      return AG_ERROR_INVALID_CONFIGURATION;
    case 53:   // PriorLaunchFailure
    case 700:  // IllegalAddress
    case 702:  // LaunchTimeOut
    case 710:  // Assert
    case 719:  // LaunchFailure
      return AG_ERROR_LAUNCH_FAILED;
    case 801:  // NotSupported
      return AG_ERROR_NOT_SUPPORTED;
    default:
      return AG_ERROR_BACKEND_FAILURE;
  }
}

std::string describe_hip_result(hipError_t result) {
  if (const char* name = hip_result_name(result)) return strprintf("%s (%d)", name, result);
  return strprintf("hipError_t %d", result);
}

ag_result hip_fail(hipError_t result, const char* call, const char* extra) {
  if (result == hipSuccess) return AG_SUCCESS;
  const std::string described = describe_hip_result(result);
  return fail(map_hip_result(result), "%s failed: %s%s%s", call, described.c_str(),
              extra ? ": " : "", extra ? extra : "");
}

}  // namespace anygpu::hip
