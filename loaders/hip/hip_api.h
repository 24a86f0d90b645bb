// anygpu's own declarations of the HIP runtime API it uses: types, constants and the function
// list. No hip_runtime_api.h: anygpu builds with no ROCm SDK. Values are the libamdhip64 ABI's,
// checked against HIP 5.2 (Debian's libamdhip64-dev 5.2.3) and HIP 6.x/7.x
// (ROCm/HIP and ROCm/clr include/hip/hip_runtime_api.h); each constant used below has the same
// value in both.
#pragma once

#include <cstddef>
#include <cstdint>

namespace anygpu::hip {

typedef int hipError_t;  // an enum in HIP, int-sized
typedef int hipDevice_t;
typedef void* hipDeviceptr_t;
typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef struct ihipModule_t* hipModule_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef int hipDeviceAttribute_t;
typedef int hipDriverProcAddressQueryResult;

// hipError_t values anygpu treats specially; hip_result.cpp names all of them.
enum : hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInsufficientDriver = 35,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNoBinaryForGpu = 209,
  hipErrorInvalidHandle = 400,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorNotSupported = 801,
  hipErrorUnknown = 999,
};

// hipDeviceAttribute_t: the enum was reordered (alphabetised, CUDA-compatible block first) in
// ROCm 4.x/5.0. From HIP 5.0 to 7.x the values below are unchanged: HIP 6 renamed the dropped
// entries hipDeviceAttributeName / Uuid / Arch / GcnArch / GcnArchName to Unused1..5 and kept
// their slots, so nothing after them moved. Checked by compiling both headers' enums.
enum : hipDeviceAttribute_t {
  hipDeviceAttributeComputeCapabilityMajor = 23,
  hipDeviceAttributeMaxBlockDimX = 26,
  hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30,
  hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeComputeCapabilityMinor = 61,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeWarpSize = 87,
};

enum : unsigned {
  hipStreamNonBlocking = 0x1,
  hipEventDefault = 0x0,
  hipEventDisableTiming = 0x2,
  hipHostMallocDefault = 0x0,
};

// hipGetProcAddress (HIP 6.2): flags and symbol status.
enum : uint64_t {
  HIP_GET_PROC_ADDRESS_DEFAULT = 0,
  HIP_GET_PROC_ADDRESS_LEGACY_STREAM = 1,
  HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2,
};
enum : hipDriverProcAddressQueryResult {
  HIP_GET_PROC_ADDRESS_SUCCESS = 0,
  HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
};

// Looked up with dlsym, never required: HIP 5.x and 6.0/6.1 do not export it, and then every
// function is looked up with dlsym. `hip_version` is major * 100 + minor (604 is HIP 6.4). The
// runtime maps a few names by it: "hipGetDeviceProperties" asked at 600 or newer answers
// hipGetDevicePropertiesR0600.
typedef hipError_t (*PFN_hipGetProcAddress)(const char* symbol, void** pfn, int hip_version,
                                            uint64_t flags,
                                            hipDriverProcAddressQueryResult* status);

// hipRuntimeGetVersion's encoding (HIP_VERSION): major * 10000000 + minor * 100000 + patch,
// e.g. 50221153 for Debian's 5.2.3 (patch = build number), 60342134 for 6.3.
constexpr int kMinimumRuntimeVersion = 50000000;  // HIP 5.0: the attribute numbering above
// The version hipGetProcAddress is asked for, so each name resolves to the ABI declared here;
// hipGetDeviceProperties alone is asked at 500, to get the R0000 layout its declaration reads.
constexpr int kRequestedApiVersion = 600;
constexpr int kLegacyPropertiesApiVersion = 500;

// hipDeviceProp_t: anygpu reads only gcnArchName (char[256], the target id with features, e.g.
// "gfx90a:sramecc+:xnack-") from it, at a fixed offset, into a zeroed buffer much larger than
// either layout. Offsets and sizes are for x86-64/aarch64 LP64, computed by compiling the structs:
//   R0000: HIP 5.x hipDeviceProp_t, filled by the plain hipGetDeviceProperties symbol
//          (hipGetDeviceProperties@@hip_4.2, still the old layout in HIP 6/7 libraries):
//          gcnArchName at 396, struct 792 bytes in HIP 5.2 (fields were only ever appended).
//   R0600: HIP 6.0+ hipDeviceProp_tR0600, filled by hipGetDevicePropertiesR0600
//          (name, uuid, luid, ..., int reserved[63], int hipReserved[32], then gcnArchName):
//          gcnArchName at 1160, struct 1472 bytes.
constexpr size_t kPropertiesBufferBytes = 8192;
constexpr size_t kGcnArchNameBytes = 256;
constexpr size_t kR0000GcnArchNameOffset = 396;
constexpr size_t kR0600GcnArchNameOffset = 1160;

// X(symbol, name for hipGetProcAddress, return, parameters): every function anygpu needs.
// HIP's device is per thread: the calls without a device argument act on the calling thread's
// current device (hipSetDevice), which anygpu sets for the call and restores after.
#define ANYGPU_HIP_REQUIRED_FUNCTIONS(X)                                                           \
  X(hipInit, hipInit, hipError_t, (unsigned flags))                                                \
  X(hipDriverGetVersion, hipDriverGetVersion, hipError_t, (int* version))                          \
  X(hipRuntimeGetVersion, hipRuntimeGetVersion, hipError_t, (int* version))                        \
  X(hipGetDeviceCount, hipGetDeviceCount, hipError_t, (int* count))                                \
  X(hipGetDevice, hipGetDevice, hipError_t, (int* device))                                         \
  X(hipSetDevice, hipSetDevice, hipError_t, (int device))                                          \
  X(hipDeviceGetName, hipDeviceGetName, hipError_t, (char* name, int length, hipDevice_t device))  \
  X(hipDeviceTotalMem, hipDeviceTotalMem, hipError_t, (size_t* bytes, hipDevice_t device))         \
  X(hipDeviceGetAttribute, hipDeviceGetAttribute, hipError_t,                                      \
    (int* value, hipDeviceAttribute_t attribute, int device))                                      \
  /* R0000 layout; see kR0000GcnArchNameOffset. Asked at kLegacyPropertiesApiVersion. */           \
  X(hipGetDeviceProperties, hipGetDeviceProperties, hipError_t, (void* properties, int device))    \
  X(hipDeviceSynchronize, hipDeviceSynchronize, hipError_t, ())                                    \
  X(hipMalloc, hipMalloc, hipError_t, (void** pointer, size_t bytes))                              \
  X(hipFree, hipFree, hipError_t, (void* pointer))                                                 \
  X(hipHostMalloc, hipHostMalloc, hipError_t, (void** pointer, size_t bytes, unsigned flags))      \
  X(hipHostFree, hipHostFree, hipError_t, (void* pointer))                                         \
  X(hipMemGetInfo, hipMemGetInfo, hipError_t, (size_t* free_bytes, size_t* total_bytes))           \
  X(hipMemcpyHtoD, hipMemcpyHtoD, hipError_t, (hipDeviceptr_t dst, const void* src, size_t bytes)) \
  X(hipMemcpyDtoH, hipMemcpyDtoH, hipError_t, (void* dst, hipDeviceptr_t src, size_t bytes))       \
  X(hipMemcpyDtoD, hipMemcpyDtoD, hipError_t,                                                      \
    (hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes))                                        \
  X(hipMemcpyHtoDAsync, hipMemcpyHtoDAsync, hipError_t,                                            \
    (hipDeviceptr_t dst, const void* src, size_t bytes, hipStream_t stream))                       \
  X(hipMemcpyDtoHAsync, hipMemcpyDtoHAsync, hipError_t,                                            \
    (void* dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream))                             \
  X(hipMemcpyDtoDAsync, hipMemcpyDtoDAsync, hipError_t,                                            \
    (hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream))                    \
  X(hipMemsetD8, hipMemsetD8, hipError_t, (hipDeviceptr_t dst, unsigned char value, size_t count)) \
  X(hipMemsetD8Async, hipMemsetD8Async, hipError_t,                                                \
    (hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream))                   \
  X(hipStreamCreateWithFlags, hipStreamCreateWithFlags, hipError_t,                                \
    (hipStream_t * stream, unsigned flags))                                                        \
  X(hipStreamDestroy, hipStreamDestroy, hipError_t, (hipStream_t stream))                          \
  X(hipStreamSynchronize, hipStreamSynchronize, hipError_t, (hipStream_t stream))                  \
  X(hipStreamQuery, hipStreamQuery, hipError_t, (hipStream_t stream))                              \
  X(hipStreamWaitEvent, hipStreamWaitEvent, hipError_t,                                            \
    (hipStream_t stream, hipEvent_t event, unsigned flags))                                        \
  X(hipEventCreateWithFlags, hipEventCreateWithFlags, hipError_t,                                  \
    (hipEvent_t * event, unsigned flags))                                                          \
  X(hipEventDestroy, hipEventDestroy, hipError_t, (hipEvent_t event))                              \
  X(hipEventRecord, hipEventRecord, hipError_t, (hipEvent_t event, hipStream_t stream))            \
  X(hipEventSynchronize, hipEventSynchronize, hipError_t, (hipEvent_t event))                      \
  X(hipEventQuery, hipEventQuery, hipError_t, (hipEvent_t event))                                  \
  X(hipEventElapsedTime, hipEventElapsedTime, hipError_t,                                          \
    (float* milliseconds, hipEvent_t start, hipEvent_t end))                                       \
  X(hipModuleLoadData, hipModuleLoadData, hipError_t, (hipModule_t * module, const void* image))   \
  X(hipModuleUnload, hipModuleUnload, hipError_t, (hipModule_t module))                            \
  X(hipModuleGetFunction, hipModuleGetFunction, hipError_t,                                        \
    (hipFunction_t * function, hipModule_t module, const char* name))                              \
  X(hipModuleLaunchKernel, hipModuleLaunchKernel, hipError_t,                                      \
    (hipFunction_t function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,  \
     unsigned block_y, unsigned block_z, unsigned shared_bytes, hipStream_t stream, void** params, \
     void** extra))

// Used where present: names and texts of results (anygpu keeps its own table as well; both
// return a static string, never null in HIP), and the HIP 6 properties layout, preferred to the
// R0000 one when exported.
#define ANYGPU_HIP_OPTIONAL_FUNCTIONS(X)                                    \
  X(hipGetErrorName, hipGetErrorName, const char*, (hipError_t result))     \
  X(hipGetErrorString, hipGetErrorString, const char*, (hipError_t result)) \
  /* R0600 layout; see kR0600GcnArchNameOffset. */                          \
  X(hipGetDevicePropertiesR0600, hipGetDevicePropertiesR0600, hipError_t,   \
    (void* properties, int device))

#define ANYGPU_HIP_DECLARE_POINTER(symbol, name, result, parameters) \
  result(*symbol) parameters = nullptr;

// The resolved entry points of one runtime.
struct HipFunctions {
  ANYGPU_HIP_REQUIRED_FUNCTIONS(ANYGPU_HIP_DECLARE_POINTER)
  ANYGPU_HIP_OPTIONAL_FUNCTIONS(ANYGPU_HIP_DECLARE_POINTER)
};

}  // namespace anygpu::hip
