// Every hipError_t of HIP 5.2 to 7.x, in the header's order, once: X(name, value, ag_result).
// Where the header gives a value two names (hipErrorMemoryAllocation,
// hipErrorInitializationError, hipErrorMapBufferObjectFailed, hipErrorInvalidResourceHandle are
// deprecated aliases), the current one, as hipGetErrorName answers. The names both ways
// (hip_result_names.h), the enumerators (hip_api.h) and the ag_result a failure maps to
// (hip_result.h) all come from this list. No include: the ag_result column is only spelled out
// where <anygpu/anygpu.h> is included, so the interposer can use the names without anygpu.
// AG_ERROR_BACKEND_FAILURE: anygpu has no closer code for it.
#pragma once

// clang-format off
#define ANYGPU_HIP_RESULTS(X)                                                \
  X(hipSuccess, 0, AG_SUCCESS)                                               \
  X(hipErrorInvalidValue, 1, AG_ERROR_INVALID_VALUE)                         \
  X(hipErrorOutOfMemory, 2, AG_ERROR_OUT_OF_MEMORY)                          \
  X(hipErrorNotInitialized, 3, AG_ERROR_NOT_INITIALIZED)                     \
  X(hipErrorDeinitialized, 4, AG_ERROR_NOT_INITIALIZED)                      \
  X(hipErrorProfilerDisabled, 5, AG_ERROR_BACKEND_FAILURE)                   \
  X(hipErrorProfilerNotInitialized, 6, AG_ERROR_BACKEND_FAILURE)             \
  X(hipErrorProfilerAlreadyStarted, 7, AG_ERROR_BACKEND_FAILURE)             \
  X(hipErrorProfilerAlreadyStopped, 8, AG_ERROR_BACKEND_FAILURE)             \
  X(hipErrorInvalidConfiguration, 9, AG_ERROR_INVALID_CONFIGURATION)         \
  X(hipErrorInvalidPitchValue, 12, AG_ERROR_INVALID_VALUE)                   \
  X(hipErrorInvalidSymbol, 13, AG_ERROR_NOT_FOUND)                           \
  X(hipErrorInvalidDevicePointer, 17, AG_ERROR_INVALID_ADDRESS)              \
  X(hipErrorInvalidMemcpyDirection, 21, AG_ERROR_INVALID_VALUE)              \
  X(hipErrorInsufficientDriver, 35, AG_ERROR_NOT_INITIALIZED)                \
  X(hipErrorMissingConfiguration, 52, AG_ERROR_INVALID_CONFIGURATION)        \
  X(hipErrorPriorLaunchFailure, 53, AG_ERROR_LAUNCH_FAILED)                  \
  X(hipErrorInvalidDeviceFunction, 98, AG_ERROR_NOT_FOUND)                   \
  X(hipErrorNoDevice, 100, AG_ERROR_NO_DEVICE)                               \
  X(hipErrorInvalidDevice, 101, AG_ERROR_INVALID_DEVICE)                     \
  X(hipErrorInvalidImage, 200, AG_ERROR_INVALID_IMAGE)                       \
  X(hipErrorInvalidContext, 201, AG_ERROR_INVALID_HANDLE)                    \
  X(hipErrorContextAlreadyCurrent, 202, AG_ERROR_BACKEND_FAILURE)            \
  X(hipErrorMapFailed, 205, AG_ERROR_BACKEND_FAILURE)                        \
  X(hipErrorUnmapFailed, 206, AG_ERROR_BACKEND_FAILURE)                      \
  X(hipErrorArrayIsMapped, 207, AG_ERROR_BACKEND_FAILURE)                    \
  X(hipErrorAlreadyMapped, 208, AG_ERROR_BACKEND_FAILURE)                    \
  X(hipErrorNoBinaryForGpu, 209, AG_ERROR_NO_BINARY_FOR_DEVICE)              \
  X(hipErrorAlreadyAcquired, 210, AG_ERROR_BACKEND_FAILURE)                  \
  X(hipErrorNotMapped, 211, AG_ERROR_BACKEND_FAILURE)                        \
  X(hipErrorNotMappedAsArray, 212, AG_ERROR_BACKEND_FAILURE)                 \
  X(hipErrorNotMappedAsPointer, 213, AG_ERROR_BACKEND_FAILURE)               \
  X(hipErrorECCNotCorrectable, 214, AG_ERROR_BACKEND_FAILURE)                \
  X(hipErrorUnsupportedLimit, 215, AG_ERROR_BACKEND_FAILURE)                 \
  X(hipErrorContextAlreadyInUse, 216, AG_ERROR_BACKEND_FAILURE)              \
  X(hipErrorPeerAccessUnsupported, 217, AG_ERROR_BACKEND_FAILURE)            \
  X(hipErrorInvalidKernelFile, 218, AG_ERROR_INVALID_IMAGE)                  \
  X(hipErrorInvalidGraphicsContext, 219, AG_ERROR_BACKEND_FAILURE)           \
  X(hipErrorInvalidSource, 300, AG_ERROR_INVALID_IMAGE)                      \
  X(hipErrorFileNotFound, 301, AG_ERROR_FILE_NOT_FOUND)                      \
  X(hipErrorSharedObjectSymbolNotFound, 302, AG_ERROR_NOT_FOUND)             \
  X(hipErrorSharedObjectInitFailed, 303, AG_ERROR_BACKEND_FAILURE)           \
  X(hipErrorOperatingSystem, 304, AG_ERROR_BACKEND_FAILURE)                  \
  X(hipErrorInvalidHandle, 400, AG_ERROR_INVALID_HANDLE)                     \
  X(hipErrorIllegalState, 401, AG_ERROR_BACKEND_FAILURE)                     \
  X(hipErrorNotFound, 500, AG_ERROR_NOT_FOUND)                               \
  X(hipErrorNotReady, 600, AG_ERROR_NOT_READY)                               \
  X(hipErrorIllegalAddress, 700, AG_ERROR_LAUNCH_FAILED)                     \
  X(hipErrorLaunchOutOfResources, 701, AG_ERROR_INVALID_CONFIGURATION)       \
  X(hipErrorLaunchTimeOut, 702, AG_ERROR_LAUNCH_FAILED)                      \
  X(hipErrorPeerAccessAlreadyEnabled, 704, AG_ERROR_BACKEND_FAILURE)         \
  X(hipErrorPeerAccessNotEnabled, 705, AG_ERROR_BACKEND_FAILURE)             \
  X(hipErrorSetOnActiveProcess, 708, AG_ERROR_BACKEND_FAILURE)               \
  X(hipErrorContextIsDestroyed, 709, AG_ERROR_INVALID_HANDLE)                \
  X(hipErrorAssert, 710, AG_ERROR_LAUNCH_FAILED)                             \
  X(hipErrorHostMemoryAlreadyRegistered, 712, AG_ERROR_BACKEND_FAILURE)      \
  X(hipErrorHostMemoryNotRegistered, 713, AG_ERROR_BACKEND_FAILURE)          \
  X(hipErrorLaunchFailure, 719, AG_ERROR_LAUNCH_FAILED)                      \
  X(hipErrorCooperativeLaunchTooLarge, 720, AG_ERROR_INVALID_CONFIGURATION)  \
  X(hipErrorNotSupported, 801, AG_ERROR_NOT_SUPPORTED)                       \
  X(hipErrorStreamCaptureUnsupported, 900, AG_ERROR_BACKEND_FAILURE)         \
  X(hipErrorStreamCaptureInvalidated, 901, AG_ERROR_BACKEND_FAILURE)         \
  X(hipErrorStreamCaptureMerge, 902, AG_ERROR_BACKEND_FAILURE)               \
  X(hipErrorStreamCaptureUnmatched, 903, AG_ERROR_BACKEND_FAILURE)           \
  X(hipErrorStreamCaptureUnjoined, 904, AG_ERROR_BACKEND_FAILURE)            \
  X(hipErrorStreamCaptureIsolation, 905, AG_ERROR_BACKEND_FAILURE)           \
  X(hipErrorStreamCaptureImplicit, 906, AG_ERROR_BACKEND_FAILURE)            \
  X(hipErrorCapturedEvent, 907, AG_ERROR_BACKEND_FAILURE)                    \
  X(hipErrorStreamCaptureWrongThread, 908, AG_ERROR_BACKEND_FAILURE)         \
  X(hipErrorGraphExecUpdateFailure, 910, AG_ERROR_BACKEND_FAILURE)           \
  X(hipErrorInvalidChannelDescriptor, 911, AG_ERROR_BACKEND_FAILURE)         \
  X(hipErrorInvalidTexture, 912, AG_ERROR_BACKEND_FAILURE)                   \
  X(hipErrorUnknown, 999, AG_ERROR_BACKEND_FAILURE)                          \
  X(hipErrorRuntimeMemory, 1052, AG_ERROR_OUT_OF_MEMORY)                     \
  X(hipErrorRuntimeOther, 1053, AG_ERROR_BACKEND_FAILURE)
// clang-format on
