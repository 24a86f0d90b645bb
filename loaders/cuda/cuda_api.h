// anygpu's own declarations of the CUDA Driver API: types, constants and every function anygpu
// declares, once. No cuda.h: anygpu builds with no CUDA SDK. The CUDA backend, the interposer
// (interpose/) and the CUDA test driver (tests/drivers/cuda/) all include this one header, and
// it has no anygpu dependency. Values are the driver ABI's, stable since the versions named
// below.
#pragma once

#include <cstddef>

#include "loaders/cuda/cuda_result_table.h"
#include "loaders/function_table.h"

namespace anygpu::cuda {

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long cuuint64_t;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUlib_st* CUlibrary;
typedef struct CUkern_st* CUkernel;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
typedef int CUjit_option;
typedef int CUlibraryOption;
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef int CUdriverProcAddressQueryResult;
typedef struct CUctxCreateParams_st CUctxCreateParams;      // only passed through
typedef struct CUexecAffinityParam_st CUexecAffinityParam;  // only passed through
typedef struct CUlaunchAttribute_st CUlaunchAttribute;      // only passed through

// The dynamic shared memory a block of `block_size` threads needs
// (cuOccupancyMaxPotentialBlockSize).
typedef size_t (*CUoccupancyB2DSize)(int block_size);

// CUDA_MEMCPY3D_v2 (cuda.h): a pitched copy of Width x Height x Depth bytes; anygpu uses the
// host and device memory types only.
typedef int CUmemorytype;
enum : CUmemorytype { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2 };
struct CUDA_MEMCPY3D {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  CUmemorytype srcMemoryType;
  const void* srcHost;
  CUdeviceptr srcDevice;
  void* srcArray;
  void* reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  CUmemorytype dstMemoryType;
  void* dstHost;
  CUdeviceptr dstDevice;
  void* dstArray;
  void* reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
};

struct CUuuid {
  unsigned char bytes[16];
};

// cuLaunchKernelEx's configuration, in cuda.h's order.
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute* attrs;
  unsigned numAttrs;
};

// Every CUresult, by name (cuda_result_table.h).
#define ANYGPU_CUDA_RESULT_ENUMERATOR(name, value, code) name = value,
enum : CUresult { ANYGPU_CUDA_RESULTS(ANYGPU_CUDA_RESULT_ENUMERATOR) };
#undef ANYGPU_CUDA_RESULT_ENUMERATOR

enum : CUdevice_attribute {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
  CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
  CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
  CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
  CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
};

enum : CUfunction_attribute {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
  CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
};

enum : CUjit_option {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_LOG_VERBOSE = 12,
  CU_JIT_NUM_OPTIONS = 35,  // options 0 to 34 exist (CUDA 13.0)
};

enum : unsigned {
  CU_STREAM_NON_BLOCKING = 0x1,
  CU_EVENT_DEFAULT = 0x0,
  CU_EVENT_BLOCKING_SYNC = 0x1,
  CU_EVENT_DISABLE_TIMING = 0x2,
  CU_EVENT_INTERPROCESS = 0x4,
  CU_MEM_ATTACH_GLOBAL = 0x1,
  CU_MEM_ATTACH_HOST = 0x2,
};
// Memory pools (CUDA 11.2): a pool of pinned memory on one device, and the attributes anygpu uses.
typedef struct CUmemPoolHandle_st* CUmemoryPool;
typedef int CUmemPool_attribute;
enum : CUmemPool_attribute {
  CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,     // cuuint64_t
  CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT = 5,  // cuuint64_t
  CU_MEMPOOL_ATTR_USED_MEM_CURRENT = 7,      // cuuint64_t
};
enum : int { CU_MEM_ALLOCATION_TYPE_PINNED = 1, CU_MEM_LOCATION_TYPE_DEVICE = 1 };
// CUmemPoolProps as CUDA 12 lays it out (11.2's had `reserved[64]` after the security attributes:
// the same 88 bytes, zero where anygpu sets nothing).
struct CUmemPoolProps {
  int allocType;
  int handleTypes;
  struct {
    int type;
    int id;
  } location;
  void* win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
constexpr CUdevice CU_DEVICE_CPU = -1;  // the host, to prefetch and advice
// CUmem_advise: 1 SET_READ_MOSTLY to 6 UNSET_ACCESSED_BY (ag_mem_advice has the same values).
enum : int { CU_MEM_ADVISE_SET_READ_MOSTLY = 1, CU_MEM_ADVISE_UNSET_ACCESSED_BY = 6 };

// cuGetProcAddress_v2 (CUDA 12.0): flags and symbol status.
enum : cuuint64_t {
  CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1,
  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2,
};
enum : CUdriverProcAddressQueryResult {
  CU_GET_PROC_ADDRESS_SUCCESS = 0,
  CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
};

// The driver version anygpu needs (CUDA 11.0: cuDevicePrimaryCtxRelease_v2), and the version
// cuGetProcAddress_v2 is asked for, so each name resolves to the ABI declared here.
constexpr int kMinimumDriverVersion = 11000;
constexpr int kRequestedApiVersion = 12000;

// The function lists: X(symbol, name for cuGetProcAddress, return, parameters), each function
// in one of them. `symbol` is the exported, versioned name (cuda.h's #define cuMemAlloc
// cuMemAlloc_v2 names the one a program compiled against it calls).
// Every function the CUDA backend calls.
#define ANYGPU_CUDA_REQUIRED_FUNCTIONS(X)                                                          \
  X(cuInit, cuInit, CUresult, (unsigned flags))                                                    \
  X(cuDriverGetVersion, cuDriverGetVersion, CUresult, (int* version))                              \
  X(cuDeviceGetCount, cuDeviceGetCount, CUresult, (int* count))                                    \
  X(cuDeviceGet, cuDeviceGet, CUresult, (CUdevice * device, int ordinal))                          \
  X(cuDeviceGetName, cuDeviceGetName, CUresult, (char* name, int length, CUdevice device))         \
  X(cuDeviceTotalMem_v2, cuDeviceTotalMem, CUresult, (size_t* bytes, CUdevice device))             \
  X(cuDeviceGetAttribute, cuDeviceGetAttribute, CUresult,                                          \
    (int* value, CUdevice_attribute attribute, CUdevice device))                                   \
  X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, CUresult,                                  \
    (CUcontext * context, CUdevice device))                                                        \
  X(cuDevicePrimaryCtxRelease_v2, cuDevicePrimaryCtxRelease, CUresult, (CUdevice device))          \
  X(cuCtxGetCurrent, cuCtxGetCurrent, CUresult, (CUcontext * context))                             \
  X(cuCtxSetCurrent, cuCtxSetCurrent, CUresult, (CUcontext context))                               \
  X(cuCtxPushCurrent_v2, cuCtxPushCurrent, CUresult, (CUcontext context))                          \
  X(cuCtxPopCurrent_v2, cuCtxPopCurrent, CUresult, (CUcontext * context))                          \
  X(cuCtxSynchronize, cuCtxSynchronize, CUresult, ())                                              \
  X(cuMemAlloc_v2, cuMemAlloc, CUresult, (CUdeviceptr * pointer, size_t bytes))                    \
  X(cuMemFree_v2, cuMemFree, CUresult, (CUdeviceptr pointer))                                      \
  X(cuMemAllocHost_v2, cuMemAllocHost, CUresult, (void** pointer, size_t bytes))                   \
  X(cuMemFreeHost, cuMemFreeHost, CUresult, (void* pointer))                                       \
  X(cuMemGetInfo_v2, cuMemGetInfo, CUresult, (size_t* free_bytes, size_t* total_bytes))            \
  X(cuMemAllocManaged, cuMemAllocManaged, CUresult,                                                \
    (CUdeviceptr * pointer, size_t bytes, unsigned flags))                                         \
  /* The CUDA 8 forms (CUDA 12.2 added _v2 with a CUmemLocation; libcuda keeps both) */            \
  X(cuMemPrefetchAsync, cuMemPrefetchAsync, CUresult,                                              \
    (CUdeviceptr pointer, size_t bytes, CUdevice device, CUstream stream))                         \
  X(cuMemAdvise, cuMemAdvise, CUresult,                                                            \
    (CUdeviceptr pointer, size_t bytes, int advice, CUdevice device))                              \
  X(cuMemcpyHtoD_v2, cuMemcpyHtoD, CUresult, (CUdeviceptr dst, const void* src, size_t bytes))     \
  X(cuMemcpyDtoH_v2, cuMemcpyDtoH, CUresult, (void* dst, CUdeviceptr src, size_t bytes))           \
  X(cuMemcpyDtoD_v2, cuMemcpyDtoD, CUresult, (CUdeviceptr dst, CUdeviceptr src, size_t bytes))     \
  X(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync, CUresult,                                             \
    (CUdeviceptr dst, const void* src, size_t bytes, CUstream stream))                             \
  X(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync, CUresult,                                             \
    (void* dst, CUdeviceptr src, size_t bytes, CUstream stream))                                   \
  X(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync, CUresult,                                             \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))                             \
  X(cuDeviceCanAccessPeer, cuDeviceCanAccessPeer, CUresult,                                        \
    (int* can_access, CUdevice device, CUdevice peer))                                             \
  X(cuCtxEnablePeerAccess, cuCtxEnablePeerAccess, CUresult, (CUcontext peer, unsigned flags))      \
  X(cuCtxDisablePeerAccess, cuCtxDisablePeerAccess, CUresult, (CUcontext peer))                    \
  X(cuMemcpyPeer, cuMemcpyPeer, CUresult,                                                          \
    (CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src, CUcontext src_context,               \
     size_t bytes))                                                                                \
  X(cuMemcpyPeerAsync, cuMemcpyPeerAsync, CUresult,                                                \
    (CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src, CUcontext src_context, size_t bytes, \
     CUstream stream))                                                                             \
  X(cuMemcpy3D_v2, cuMemcpy3D, CUresult, (const CUDA_MEMCPY3D* copy))                              \
  X(cuMemcpy3DAsync_v2, cuMemcpy3DAsync, CUresult, (const CUDA_MEMCPY3D* copy, CUstream stream))   \
  X(cuMemsetD8_v2, cuMemsetD8, CUresult, (CUdeviceptr dst, unsigned char value, size_t count))     \
  X(cuMemsetD8Async, cuMemsetD8Async, CUresult,                                                    \
    (CUdeviceptr dst, unsigned char value, size_t count, CUstream stream))                         \
  X(cuMemsetD16_v2, cuMemsetD16, CUresult, (CUdeviceptr dst, unsigned short value, size_t count))  \
  X(cuMemsetD16Async, cuMemsetD16Async, CUresult,                                                  \
    (CUdeviceptr dst, unsigned short value, size_t count, CUstream stream))                        \
  X(cuMemsetD32_v2, cuMemsetD32, CUresult, (CUdeviceptr dst, unsigned value, size_t count))        \
  X(cuMemsetD32Async, cuMemsetD32Async, CUresult,                                                  \
    (CUdeviceptr dst, unsigned value, size_t count, CUstream stream))                              \
  X(cuStreamCreate, cuStreamCreate, CUresult, (CUstream * stream, unsigned flags))                 \
  X(cuStreamCreateWithPriority, cuStreamCreateWithPriority, CUresult,                              \
    (CUstream * stream, unsigned flags, int priority))                                             \
  X(cuCtxGetStreamPriorityRange, cuCtxGetStreamPriorityRange, CUresult,                            \
    (int* least, int* greatest))                                                                   \
  X(cuStreamDestroy_v2, cuStreamDestroy, CUresult, (CUstream stream))                              \
  X(cuStreamSynchronize, cuStreamSynchronize, CUresult, (CUstream stream))                         \
  X(cuStreamQuery, cuStreamQuery, CUresult, (CUstream stream))                                     \
  X(cuStreamGetCtx, cuStreamGetCtx, CUresult, (CUstream stream, CUcontext * context))              \
  X(cuStreamGetPriority, cuStreamGetPriority, CUresult, (CUstream stream, int* priority))          \
  X(cuStreamWaitEvent, cuStreamWaitEvent, CUresult,                                                \
    (CUstream stream, CUevent event, unsigned flags))                                              \
  X(cuLaunchHostFunc, cuLaunchHostFunc, CUresult,                                                  \
    (CUstream stream, void (*fn)(void* data), void* data))                                         \
  X(cuEventCreate, cuEventCreate, CUresult, (CUevent * event, unsigned flags))                     \
  X(cuEventDestroy_v2, cuEventDestroy, CUresult, (CUevent event))                                  \
  X(cuEventRecord, cuEventRecord, CUresult, (CUevent event, CUstream stream))                      \
  X(cuEventSynchronize, cuEventSynchronize, CUresult, (CUevent event))                             \
  X(cuEventQuery, cuEventQuery, CUresult, (CUevent event))                                         \
  X(cuEventElapsedTime, cuEventElapsedTime, CUresult,                                              \
    (float* milliseconds, CUevent start, CUevent end))                                             \
  X(cuModuleLoadDataEx, cuModuleLoadDataEx, CUresult,                                              \
    (CUmodule * module, const void* image, unsigned count, CUjit_option* options, void** values))  \
  X(cuModuleUnload, cuModuleUnload, CUresult, (CUmodule module))                                   \
  X(cuModuleGetFunction, cuModuleGetFunction, CUresult,                                            \
    (CUfunction * function, CUmodule module, const char* name))                                    \
  X(cuModuleGetGlobal_v2, cuModuleGetGlobal, CUresult,                                             \
    (CUdeviceptr * pointer, size_t* bytes, CUmodule module, const char* name))                     \
  X(cuLaunchKernel, cuLaunchKernel, CUresult,                                                      \
    (CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,     \
     unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream, void** params,    \
     void** extra))                                                                                \
  X(cuFuncGetAttribute, cuFuncGetAttribute, CUresult,                                              \
    (int* value, CUfunction_attribute attribute, CUfunction function))                             \
  X(cuFuncSetAttribute, cuFuncSetAttribute, CUresult,                                              \
    (CUfunction function, CUfunction_attribute attribute, int value))                              \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxActiveBlocksPerMultiprocessor,      \
    CUresult, (int* blocks, CUfunction function, int block_size, size_t dynamic_shared))           \
  X(cuOccupancyMaxPotentialBlockSize, cuOccupancyMaxPotentialBlockSize, CUresult,                  \
    (int* min_grid_size, int* block_size, CUfunction function,                                     \
     CUoccupancyB2DSize shared_for_block_size, size_t dynamic_shared, int block_size_limit))

// Used where present: names and texts of results (anygpu keeps its own table as well), the
// parameter layout of a cubin's kernel and loading every kernel of a module at once (CUDA 12.4),
// and stream-ordered allocation (CUDA 11.2).
#define ANYGPU_CUDA_OPTIONAL_FUNCTIONS(X)                                                    \
  X(cuGetErrorName, cuGetErrorName, CUresult, (CUresult result, const char** name))          \
  X(cuGetErrorString, cuGetErrorString, CUresult, (CUresult result, const char** text))      \
  X(cuFuncGetParamInfo, cuFuncGetParamInfo, CUresult,                                        \
    (CUfunction function, size_t index, size_t* offset, size_t* size))                       \
  X(cuDeviceGetUuid, cuDeviceGetUuid, CUresult, (CUuuid * uuid, CUdevice device))            \
  X(cuModuleGetFunctionCount, cuModuleGetFunctionCount, CUresult,                            \
    (unsigned* count, CUmodule module))                                                      \
  X(cuModuleEnumerateFunctions, cuModuleEnumerateFunctions, CUresult,                        \
    (CUfunction * functions, unsigned count, CUmodule module))                               \
  X(cuFuncLoad, cuFuncLoad, CUresult, (CUfunction function))                                 \
  /* Stream-ordered allocation (CUDA 11.2): pools of anygpu's own, and the default pool's */ \
  X(cuMemPoolCreate, cuMemPoolCreate, CUresult,                                              \
    (CUmemoryPool * pool, const CUmemPoolProps* props))                                      \
  X(cuMemPoolDestroy, cuMemPoolDestroy, CUresult, (CUmemoryPool pool))                       \
  X(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync, CUresult,                              \
    (CUdeviceptr * pointer, size_t bytes, CUmemoryPool pool, CUstream stream))               \
  X(cuMemAllocAsync, cuMemAllocAsync, CUresult,                                              \
    (CUdeviceptr * pointer, size_t bytes, CUstream stream))                                  \
  X(cuMemFreeAsync, cuMemFreeAsync, CUresult, (CUdeviceptr pointer, CUstream stream))        \
  X(cuMemPoolTrimTo, cuMemPoolTrimTo, CUresult, (CUmemoryPool pool, size_t keep))            \
  X(cuMemPoolSetAttribute, cuMemPoolSetAttribute, CUresult,                                  \
    (CUmemoryPool pool, CUmemPool_attribute attribute, void* value))                         \
  X(cuMemPoolGetAttribute, cuMemPoolGetAttribute, CUresult,                                  \
    (CUmemoryPool pool, CUmemPool_attribute attribute, void* value))

// What an nvcc-built CUDA Runtime program (static cudart, CUDA 13) calls beyond the lists above;
// the test driver implements them. Its kernels come as a library (cuLibraryLoadData of the
// fatbin wrapper) and launch through cuLaunchKernel with a CUkernel.
#define ANYGPU_CUDA_RUNTIME_FUNCTIONS(X)                                                  \
  X(cuGetExportTable, cuGetExportTable, CUresult, (const void** table, const CUuuid* id)) \
  X(cuCtxGetDevice, cuCtxGetDevice, CUresult, (CUdevice * device))                        \
  X(cuCtxGetDevice_v2, cuCtxGetDevice, CUresult, (CUdevice * device, CUcontext context))  \
  X(cuCtxSynchronize_v2, cuCtxSynchronize, CUresult, (CUcontext context))                 \
  X(cuLibraryLoadData, cuLibraryLoadData, CUresult,                                       \
    (CUlibrary * library, const void* code, CUjit_option* jit_options, void** jit_values, \
     unsigned jit_count, CUlibraryOption* options, void** values, unsigned count))        \
  X(cuLibraryUnload, cuLibraryUnload, CUresult, (CUlibrary library))                      \
  X(cuLibraryGetKernel, cuLibraryGetKernel, CUresult,                                     \
    (CUkernel * kernel, CUlibrary library, const char* name))                             \
  X(cuKernelGetFunction, cuKernelGetFunction, CUresult, (CUfunction * function, CUkernel kernel))

// The entry-point lookups (cuGetProcAddress_v2, CUDA 12.0, is looked up with dlsym and used
// where present), and the rest of what the interposer wraps (interpose/cuda_functions.h).
#define ANYGPU_CUDA_OTHER_FUNCTIONS(X)                                                             \
  X(cuGetProcAddress, cuGetProcAddress, CUresult,                                                  \
    (const char* symbol, void** pfn, int cuda_version, cuuint64_t flags))                          \
  X(cuGetProcAddress_v2, cuGetProcAddress, CUresult,                                               \
    (const char* symbol, void** pfn, int cuda_version, cuuint64_t flags,                           \
     CUdriverProcAddressQueryResult* status))                                                      \
  X(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease, CUresult, (CUdevice device))             \
  X(cuCtxCreate, cuCtxCreate, CUresult, (CUcontext * context, unsigned flags, CUdevice device))    \
  X(cuCtxCreate_v2, cuCtxCreate, CUresult, (CUcontext * context, unsigned flags, CUdevice device)) \
  X(cuCtxCreate_v3, cuCtxCreate, CUresult,                                                         \
    (CUcontext * context, CUexecAffinityParam * affinity, int affinity_count, unsigned flags,      \
     CUdevice device))                                                                             \
  X(cuCtxCreate_v4, cuCtxCreate, CUresult,                                                         \
    (CUcontext * context, CUctxCreateParams * params, unsigned flags, CUdevice device))            \
  X(cuCtxDestroy, cuCtxDestroy, CUresult, (CUcontext context))                                     \
  X(cuCtxDestroy_v2, cuCtxDestroy, CUresult, (CUcontext context))                                  \
  X(cuCtxPushCurrent, cuCtxPushCurrent, CUresult, (CUcontext context))                             \
  X(cuCtxPopCurrent, cuCtxPopCurrent, CUresult, (CUcontext * context))                             \
  X(cuMemAllocPitch_v2, cuMemAllocPitch, CUresult,                                                 \
    (CUdeviceptr * pointer, size_t* pitch, size_t width, size_t height, unsigned element_bytes))   \
  X(cuMemHostAlloc, cuMemHostAlloc, CUresult, (void** pointer, size_t bytes, unsigned flags))      \
  X(cuMemcpy, cuMemcpy, CUresult, (CUdeviceptr dst, CUdeviceptr src, size_t bytes))                \
  X(cuMemcpyAsync, cuMemcpyAsync, CUresult,                                                        \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))                             \
  X(cuModuleLoad, cuModuleLoad, CUresult, (CUmodule * module, const char* path))                   \
  X(cuModuleLoadData, cuModuleLoadData, CUresult, (CUmodule * module, const void* image))          \
  X(cuModuleLoadFatBinary, cuModuleLoadFatBinary, CUresult,                                        \
    (CUmodule * module, const void* image))                                                        \
  X(cuLaunchKernelEx, cuLaunchKernelEx, CUresult,                                                  \
    (const CUlaunchConfig* config, CUfunction function, void** params, void** extra))              \
  X(cuStreamCreateWithPriority, cuStreamCreateWithPriority, CUresult,                              \
    (CUstream * stream, unsigned flags, int priority))                                             \
  X(cuStreamDestroy, cuStreamDestroy, CUresult, (CUstream stream))                                 \
  X(cuEventElapsedTime_v2, cuEventElapsedTime, CUresult,                                           \
    (float* milliseconds, CUevent start, CUevent end))                                             \
  X(cuEventDestroy, cuEventDestroy, CUresult, (CUevent event))

#define ANYGPU_CUDA_API_FUNCTIONS(X) \
  ANYGPU_CUDA_REQUIRED_FUNCTIONS(X)  \
  ANYGPU_CUDA_OPTIONAL_FUNCTIONS(X)  \
  ANYGPU_CUDA_RUNTIME_FUNCTIONS(X)   \
  ANYGPU_CUDA_OTHER_FUNCTIONS(X)

// X(variant, function): the per-thread default stream variants (_ptsz, _ptds) the interposer
// wraps, exported by libcuda (nm -D) with their function's signature.
#define ANYGPU_CUDA_PER_THREAD_FUNCTIONS(X)          \
  X(cuMemAllocAsync_ptsz, cuMemAllocAsync)           \
  X(cuMemFreeAsync_ptsz, cuMemFreeAsync)             \
  X(cuMemcpy_ptds, cuMemcpy)                         \
  X(cuMemcpyAsync_ptsz, cuMemcpyAsync)               \
  X(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2)           \
  X(cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2)           \
  X(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2)           \
  X(cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2) \
  X(cuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2) \
  X(cuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2) \
  X(cuMemsetD8_v2_ptds, cuMemsetD8_v2)               \
  X(cuMemsetD32_v2_ptds, cuMemsetD32_v2)             \
  X(cuMemsetD8Async_ptsz, cuMemsetD8Async)           \
  X(cuMemsetD32Async_ptsz, cuMemsetD32Async)         \
  X(cuLaunchKernel_ptsz, cuLaunchKernel)             \
  X(cuLaunchKernelEx_ptsz, cuLaunchKernelEx)         \
  X(cuStreamSynchronize_ptsz, cuStreamSynchronize)   \
  X(cuStreamQuery_ptsz, cuStreamQuery)               \
  X(cuEventRecord_ptsz, cuEventRecord)

// PFN_<symbol>: each function's type, the one declaration everything else is checked against.
#define ANYGPU_CUDA_DECLARE_PFN(symbol, name, result, parameters) \
  typedef result(*PFN_##symbol) parameters;
ANYGPU_CUDA_API_FUNCTIONS(ANYGPU_CUDA_DECLARE_PFN)
#undef ANYGPU_CUDA_DECLARE_PFN
#define ANYGPU_CUDA_DECLARE_VARIANT_PFN(variant, function) typedef PFN_##function PFN_##variant;
ANYGPU_CUDA_PER_THREAD_FUNCTIONS(ANYGPU_CUDA_DECLARE_VARIANT_PFN)
#undef ANYGPU_CUDA_DECLARE_VARIANT_PFN

// The resolved entry points of one driver, named by their versioned symbols, and how
// resolve_functions (loaders/symbol_resolver.h) fills them.
ANYGPU_FUNCTION_TABLE(CudaFunctions, ANYGPU_CUDA_REQUIRED_FUNCTIONS, ANYGPU_CUDA_OPTIONAL_FUNCTIONS)

}  // namespace anygpu::cuda
