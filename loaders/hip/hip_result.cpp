#include "hip_result.h"

#include "../../shim/error.h"
#include "../../shim/string_format.h"

namespace anygpu::hip {

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
