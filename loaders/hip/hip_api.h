// anygpu's own declarations of the HIP runtime API: types, constants and every function anygpu
// declares, once. No hip_runtime_api.h: anygpu builds with no ROCm SDK. The HIP backend, the
// interposer (interpose/) and the HIP test driver (tests/drivers/hip/) all include this one
// header, and it has no anygpu dependency. Values are the libamdhip64 ABI's,
// checked against HIP 5.2 (Debian's libamdhip64-dev 5.2.3) and HIP 6.x/7.x
// (ROCm/HIP and ROCm/clr include/hip/hip_runtime_api.h); each constant used below has the same
// value in both.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loaders/function_table.h"
#include "loaders/hip/hip_result_table.h"

namespace anygpu::hip {

typedef int hipError_t;  // an enum in HIP, int-sized
typedef int hipDevice_t;
typedef void* hipDeviceptr_t;
typedef struct ihipStream_t* hipStream_t;
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void* data);
typedef struct ihipEvent_t* hipEvent_t;
typedef struct ihipModule_t* hipModule_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef int hipDeviceAttribute_t;
typedef int hipFunction_attribute;
typedef int hipMemcpyKind;
enum : hipMemcpyKind {
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3
};
typedef int hipDriverProcAddressQueryResult;

// Memory pools (HIP 5.1): pinned memory of one device, and the attributes anygpu uses (CUDA's
// numbers).
typedef struct ihipMemPoolHandle_t* hipMemPool_t;
typedef int hipMemPoolAttr;
enum : hipMemPoolAttr {
  hipMemPoolAttrReleaseThreshold = 4,    // uint64_t
  hipMemPoolAttrReservedMemCurrent = 5,  // uint64_t
  hipMemPoolAttrUsedMemCurrent = 7,      // uint64_t
};
enum : int { hipMemAllocationTypePinned = 1, hipMemLocationTypeDevice = 1 };
// hipMemPoolProps as HIP 5 lays it out (HIP 6 named `maxSize` in the reserved bytes: the same 88
// bytes, zero where anygpu sets nothing).
struct hipMemPoolProps {
  int allocType;
  int handleTypes;
  struct {
    int type;
    int id;
  } location;
  void* win32SecurityAttributes;
  unsigned char reserved[64];
};

// Passed by value to hipLaunchKernel.
struct dim3 {
  uint32_t x, y, z;
};

// Every hipError_t, by name (hip_result_table.h).
#define ANYGPU_HIP_RESULT_ENUMERATOR(name, value, code) name = value,
enum : hipError_t { ANYGPU_HIP_RESULTS(ANYGPU_HIP_RESULT_ENUMERATOR) };
#undef ANYGPU_HIP_RESULT_ENUMERATOR

// hipDeviceAttribute_t: the enum was reordered (alphabetised, CUDA-compatible block first) in
// ROCm 4.x/5.0. From HIP 5.0 to 7.x the values below are unchanged: HIP 6 renamed the dropped
// entries hipDeviceAttributeName / Uuid / Arch / GcnArch / GcnArchName to Unused1..5 and kept
// their slots, so nothing after them moved. Checked by compiling both headers' enums.
enum : hipDeviceAttribute_t {
  hipDeviceAttributeClockRate = 5,
  hipDeviceAttributeConcurrentManagedAccess = 9,
  hipDeviceAttributeL2CacheSize = 19,
  hipDeviceAttributeComputeCapabilityMajor = 23,
  hipDeviceAttributeManagedMemory = 24,
  hipDeviceAttributeMaxBlockDimX = 26,
  hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30,
  hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMemoryBusWidth = 59,
  hipDeviceAttributeComputeCapabilityMinor = 61,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributePciBusId = 67,
  hipDeviceAttributePciDeviceId = 68,
  hipDeviceAttributePciDomainID = 69,
  hipDeviceAttributeMaxRegistersPerBlock = 71,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeSharedMemPerBlockOptin = 75,
  hipDeviceAttributeWarpSize = 87,
};

// CUDA's numbering (hip/driver_types.h).
enum : hipFunction_attribute {
  HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  HIP_FUNC_ATTRIBUTE_NUM_REGS = 4,
  HIP_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  HIP_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
  HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

constexpr int hipCpuDeviceId = -1;  // the host, to prefetch and advice
// hipMemoryAdvise: 1 hipMemAdviseSetReadMostly to 6 hipMemAdviseUnsetAccessedBy, CUDA's numbers.
enum : int { hipMemAdviseSetReadMostly = 1, hipMemAdviseUnsetAccessedBy = 6 };

enum : unsigned {
  hipStreamDefault = 0x0,
  hipStreamNonBlocking = 0x1,
  hipEventDefault = 0x0,
  hipEventBlockingSync = 0x1,
  hipEventDisableTiming = 0x2,
  hipEventInterprocess = 0x4,
  hipEventReleaseToDevice = 0x40000000,
  hipEventReleaseToSystem = 0x80000000,
  hipMemAttachGlobal = 0x1,
  hipMemAttachHost = 0x2,
  hipHostMallocDefault = 0x0,
  hipHostMallocPortable = 0x1,
  hipHostMallocMapped = 0x2,
  hipHostMallocWriteCombined = 0x4,
  hipHostMallocNumaUser = 0x20000000,
  hipHostMallocCoherent = 0x40000000,
  hipHostMallocNonCoherent = 0x80000000,
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

// hipGetProcAddress (ANYGPU_HIP_OTHER_FUNCTIONS) is looked up with dlsym, never required: HIP 5.x
// and 6.0/6.1 do not export it, and then every function is looked up with dlsym. `hip_version`
// is major * 100 + minor (604 is HIP 6.4). The runtime maps a few names by it:
// "hipGetDeviceProperties" asked at 600 or newer answers hipGetDevicePropertiesR0600.

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

// The function lists: X(symbol, name for hipGetProcAddress, return, parameters), each function
// in one of them. Every function the HIP backend needs.
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
  X(hipMallocManaged, hipMallocManaged, hipError_t,                                                \
    (void** pointer, size_t bytes, unsigned flags))                                                \
  X(hipMemPrefetchAsync, hipMemPrefetchAsync, hipError_t,                                          \
    (const void* pointer, size_t bytes, int device, hipStream_t stream))                           \
  X(hipMemAdvise, hipMemAdvise, hipError_t,                                                        \
    (const void* pointer, size_t bytes, int advice, int device))                                   \
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
  X(hipDeviceCanAccessPeer, hipDeviceCanAccessPeer, hipError_t,                                    \
    (int* can_access, int device, int peer))                                                       \
  X(hipDeviceEnablePeerAccess, hipDeviceEnablePeerAccess, hipError_t, (int peer, unsigned flags))  \
  X(hipDeviceDisablePeerAccess, hipDeviceDisablePeerAccess, hipError_t, (int peer))                \
  X(hipMemcpyPeer, hipMemcpyPeer, hipError_t,                                                      \
    (void* dst, int dst_device, const void* src, int src_device, size_t bytes))                    \
  X(hipMemcpyPeerAsync, hipMemcpyPeerAsync, hipError_t,                                            \
    (void* dst, int dst_device, const void* src, int src_device, size_t bytes,                     \
     hipStream_t stream))                                                                          \
  X(hipMemcpy2D, hipMemcpy2D, hipError_t,                                                          \
    (void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width, size_t height,  \
     hipMemcpyKind kind))                                                                          \
  X(hipMemcpy2DAsync, hipMemcpy2DAsync, hipError_t,                                                \
    (void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width, size_t height,  \
     hipMemcpyKind kind, hipStream_t stream))                                                      \
  X(hipMemsetD8, hipMemsetD8, hipError_t, (hipDeviceptr_t dst, unsigned char value, size_t count)) \
  X(hipMemsetD8Async, hipMemsetD8Async, hipError_t,                                                \
    (hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream))                   \
  X(hipMemsetD16, hipMemsetD16, hipError_t,                                                        \
    (hipDeviceptr_t dst, unsigned short value, size_t count))                                      \
  X(hipMemsetD16Async, hipMemsetD16Async, hipError_t,                                              \
    (hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream))                  \
  X(hipMemsetD32, hipMemsetD32, hipError_t, (hipDeviceptr_t dst, int value, size_t count))         \
  X(hipMemsetD32Async, hipMemsetD32Async, hipError_t,                                              \
    (hipDeviceptr_t dst, int value, size_t count, hipStream_t stream))                             \
  X(hipStreamCreateWithFlags, hipStreamCreateWithFlags, hipError_t,                                \
    (hipStream_t * stream, unsigned flags))                                                        \
  X(hipStreamDestroy, hipStreamDestroy, hipError_t, (hipStream_t stream))                          \
  X(hipStreamCreateWithPriority, hipStreamCreateWithPriority, hipError_t,                          \
    (hipStream_t * stream, unsigned flags, int priority))                                          \
  X(hipDeviceGetStreamPriorityRange, hipDeviceGetStreamPriorityRange, hipError_t,                  \
    (int* least, int* greatest))                                                                   \
  X(hipStreamSynchronize, hipStreamSynchronize, hipError_t, (hipStream_t stream))                  \
  X(hipStreamQuery, hipStreamQuery, hipError_t, (hipStream_t stream))                              \
  X(hipStreamGetPriority, hipStreamGetPriority, hipError_t, (hipStream_t stream, int* priority))   \
  /* The device of a stream, -1 for one HIP does not know (hip_runtime_api.h, since HIP 4.2) */    \
  X(hipGetStreamDeviceId, hipGetStreamDeviceId, int, (hipStream_t stream))                         \
  X(hipStreamWaitEvent, hipStreamWaitEvent, hipError_t,                                            \
    (hipStream_t stream, hipEvent_t event, unsigned flags))                                        \
  /* hipLaunchHostFunc is newer than HIP 5.2; this callback is in every HIP */                     \
  X(hipStreamAddCallback, hipStreamAddCallback, hipError_t,                                        \
    (hipStream_t stream, hipStreamCallback_t callback, void* data, unsigned flags))                \
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
  X(hipModuleGetGlobal, hipModuleGetGlobal, hipError_t,                                            \
    (hipDeviceptr_t * pointer, size_t* bytes, hipModule_t module, const char* name))               \
  X(hipModuleLaunchKernel, hipModuleLaunchKernel, hipError_t,                                      \
    (hipFunction_t function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,  \
     unsigned block_y, unsigned block_z, unsigned shared_bytes, hipStream_t stream, void** params, \
     void** extra))                                                                                \
  X(hipFuncGetAttribute, hipFuncGetAttribute, hipError_t,                                          \
    (int* value, hipFunction_attribute attribute, hipFunction_t function))                         \
  X(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor,                                            \
    hipModuleOccupancyMaxActiveBlocksPerMultiprocessor, hipError_t,                                \
    (int* blocks, hipFunction_t function, int block_size, size_t dynamic_shared))                  \
  X(hipModuleOccupancyMaxPotentialBlockSize, hipModuleOccupancyMaxPotentialBlockSize, hipError_t,  \
    (int* grid_size, int* block_size, hipFunction_t function, size_t dynamic_shared,               \
     int block_size_limit))

// Used where present: names and texts of results (anygpu keeps its own table as well; both
// return a static string, never null in HIP), the HIP 6 properties layout, preferred to the
// R0000 one when exported, and stream-ordered allocation.
#define ANYGPU_HIP_OPTIONAL_FUNCTIONS(X)                                              \
  X(hipGetErrorName, hipGetErrorName, const char*, (hipError_t result))               \
  X(hipGetErrorString, hipGetErrorString, const char*, (hipError_t result))           \
  /* R0600 layout; see kR0600GcnArchNameOffset. */                                    \
  X(hipGetDevicePropertiesR0600, hipGetDevicePropertiesR0600, hipError_t,             \
    (void* properties, int device))                                                   \
  /* Stream-ordered allocation (HIP 5.1) */                                           \
  X(hipMemPoolCreate, hipMemPoolCreate, hipError_t,                                   \
    (hipMemPool_t * pool, const hipMemPoolProps* props))                              \
  X(hipMemPoolDestroy, hipMemPoolDestroy, hipError_t, (hipMemPool_t pool))            \
  X(hipMallocFromPoolAsync, hipMallocFromPoolAsync, hipError_t,                       \
    (void** pointer, size_t bytes, hipMemPool_t pool, hipStream_t stream))            \
  X(hipMallocAsync, hipMallocAsync, hipError_t,                                       \
    (void** pointer, size_t bytes, hipStream_t stream))                               \
  X(hipFreeAsync, hipFreeAsync, hipError_t, (void* pointer, hipStream_t stream))      \
  X(hipMemPoolTrimTo, hipMemPoolTrimTo, hipError_t, (hipMemPool_t pool, size_t keep)) \
  X(hipMemPoolSetAttribute, hipMemPoolSetAttribute, hipError_t,                       \
    (hipMemPool_t pool, hipMemPoolAttr attribute, void* value))                       \
  X(hipMemPoolGetAttribute, hipMemPoolGetAttribute, hipError_t,                       \
    (hipMemPool_t pool, hipMemPoolAttr attribute, void* value))

// The entry-point lookup (HIP 6.2), and the rest of what the interposer wraps
// (interpose/hip_functions.h). Signatures are HIP 6's; those listed have not changed since HIP 5.
#define ANYGPU_HIP_OTHER_FUNCTIONS(X)                                                    \
  X(hipGetProcAddress, hipGetProcAddress, hipError_t,                                    \
    (const char* symbol, void** pfn, int hip_version, uint64_t flags,                    \
     hipDriverProcAddressQueryResult* status))                                           \
  X(hipMemcpy, hipMemcpy, hipError_t,                                                    \
    (void* dst, const void* src, size_t bytes, hipMemcpyKind kind))                      \
  X(hipMemcpyAsync, hipMemcpyAsync, hipError_t,                                          \
    (void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream))  \
  X(hipMemset, hipMemset, hipError_t, (void* dst, int value, size_t count))              \
  X(hipMemsetAsync, hipMemsetAsync, hipError_t,                                          \
    (void* dst, int value, size_t count, hipStream_t stream))                            \
  X(hipLaunchKernel, hipLaunchKernel, hipError_t,                                        \
    (const void* host_function, dim3 grid, dim3 block, void** args, size_t shared_bytes, \
     hipStream_t stream))                                                                \
  X(hipStreamCreate, hipStreamCreate, hipError_t, (hipStream_t * stream))                \
  X(hipEventCreate, hipEventCreate, hipError_t, (hipEvent_t * event))

#define ANYGPU_HIP_API_FUNCTIONS(X) \
  ANYGPU_HIP_REQUIRED_FUNCTIONS(X)  \
  ANYGPU_HIP_OPTIONAL_FUNCTIONS(X)  \
  ANYGPU_HIP_OTHER_FUNCTIONS(X)

// PFN_<symbol>: each function's type, the one declaration everything else is checked against.
#define ANYGPU_HIP_DECLARE_PFN(symbol, name, result, parameters) \
  typedef result(*PFN_##symbol) parameters;
ANYGPU_HIP_API_FUNCTIONS(ANYGPU_HIP_DECLARE_PFN)
#undef ANYGPU_HIP_DECLARE_PFN

// The resolved entry points of one runtime, and how resolve_functions
// (loaders/symbol_resolver.h) fills them.
ANYGPU_FUNCTION_TABLE(HipFunctions, ANYGPU_HIP_REQUIRED_FUNCTIONS, ANYGPU_HIP_OPTIONAL_FUNCTIONS)

}  // namespace anygpu::hip
