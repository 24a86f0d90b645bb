// anygpu's own declarations of the CUDA Driver API it uses: types, constants and the function
// list. No cuda.h: anygpu builds with no CUDA SDK. Values are the driver ABI's, stable since the
// versions named below.
#pragma once

#include <cstddef>

namespace anygpu::cuda {

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long cuuint64_t;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
typedef int CUjit_option;
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef int CUdriverProcAddressQueryResult;

// CUresult values anygpu treats specially; cuda_result.cpp names all of them.
enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
};

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
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

enum : CUjit_option {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_LOG_VERBOSE = 12,
};

enum : unsigned {
  CU_STREAM_NON_BLOCKING = 0x1,
  CU_EVENT_DEFAULT = 0x0,
  CU_EVENT_DISABLE_TIMING = 0x2,
};

// cuGetProcAddress_v2 (CUDA 12.0): flags and symbol status.
enum : unsigned long long { CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1 };
enum : CUdriverProcAddressQueryResult {
  CU_GET_PROC_ADDRESS_SUCCESS = 0,
  CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
};

typedef CUresult (*PFN_cuGetProcAddress_v2)(const char* symbol, void** pfn, int cuda_version,
                                            cuuint64_t flags,
                                            CUdriverProcAddressQueryResult* status);

// The driver version anygpu needs (CUDA 11.0: cuDevicePrimaryCtxRelease_v2), and the version
// cuGetProcAddress_v2 is asked for, so each name resolves to the ABI declared here.
constexpr int kMinimumDriverVersion = 11000;
constexpr int kRequestedApiVersion = 12000;

// X(symbol, name for cuGetProcAddress, return, parameters): every function anygpu calls.
#define ANYGPU_CUDA_REQUIRED_FUNCTIONS(X)                                                         \
  X(cuInit, cuInit, CUresult, (unsigned flags))                                                   \
  X(cuDriverGetVersion, cuDriverGetVersion, CUresult, (int* version))                             \
  X(cuDeviceGetCount, cuDeviceGetCount, CUresult, (int* count))                                   \
  X(cuDeviceGet, cuDeviceGet, CUresult, (CUdevice * device, int ordinal))                         \
  X(cuDeviceGetName, cuDeviceGetName, CUresult, (char* name, int length, CUdevice device))        \
  X(cuDeviceTotalMem_v2, cuDeviceTotalMem, CUresult, (size_t* bytes, CUdevice device))            \
  X(cuDeviceGetAttribute, cuDeviceGetAttribute, CUresult,                                         \
    (int* value, CUdevice_attribute attribute, CUdevice device))                                  \
  X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, CUresult,                                 \
    (CUcontext * context, CUdevice device))                                                       \
  X(cuDevicePrimaryCtxRelease_v2, cuDevicePrimaryCtxRelease, CUresult, (CUdevice device))         \
  X(cuCtxGetCurrent, cuCtxGetCurrent, CUresult, (CUcontext * context))                            \
  X(cuCtxSetCurrent, cuCtxSetCurrent, CUresult, (CUcontext context))                              \
  X(cuCtxPushCurrent_v2, cuCtxPushCurrent, CUresult, (CUcontext context))                         \
  X(cuCtxPopCurrent_v2, cuCtxPopCurrent, CUresult, (CUcontext * context))                         \
  X(cuCtxSynchronize, cuCtxSynchronize, CUresult, ())                                             \
  X(cuMemAlloc_v2, cuMemAlloc, CUresult, (CUdeviceptr * pointer, size_t bytes))                   \
  X(cuMemFree_v2, cuMemFree, CUresult, (CUdeviceptr pointer))                                     \
  X(cuMemAllocHost_v2, cuMemAllocHost, CUresult, (void** pointer, size_t bytes))                  \
  X(cuMemFreeHost, cuMemFreeHost, CUresult, (void* pointer))                                      \
  X(cuMemGetInfo_v2, cuMemGetInfo, CUresult, (size_t* free_bytes, size_t* total_bytes))           \
  X(cuMemcpyHtoD_v2, cuMemcpyHtoD, CUresult, (CUdeviceptr dst, const void* src, size_t bytes))    \
  X(cuMemcpyDtoH_v2, cuMemcpyDtoH, CUresult, (void* dst, CUdeviceptr src, size_t bytes))          \
  X(cuMemcpyDtoD_v2, cuMemcpyDtoD, CUresult, (CUdeviceptr dst, CUdeviceptr src, size_t bytes))    \
  X(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync, CUresult,                                            \
    (CUdeviceptr dst, const void* src, size_t bytes, CUstream stream))                            \
  X(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync, CUresult,                                            \
    (void* dst, CUdeviceptr src, size_t bytes, CUstream stream))                                  \
  X(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync, CUresult,                                            \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))                            \
  X(cuMemsetD8_v2, cuMemsetD8, CUresult, (CUdeviceptr dst, unsigned char value, size_t count))    \
  X(cuMemsetD8Async, cuMemsetD8Async, CUresult,                                                   \
    (CUdeviceptr dst, unsigned char value, size_t count, CUstream stream))                        \
  X(cuStreamCreate, cuStreamCreate, CUresult, (CUstream * stream, unsigned flags))                \
  X(cuStreamDestroy_v2, cuStreamDestroy, CUresult, (CUstream stream))                             \
  X(cuStreamSynchronize, cuStreamSynchronize, CUresult, (CUstream stream))                        \
  X(cuStreamQuery, cuStreamQuery, CUresult, (CUstream stream))                                    \
  X(cuStreamWaitEvent, cuStreamWaitEvent, CUresult,                                               \
    (CUstream stream, CUevent event, unsigned flags))                                             \
  X(cuEventCreate, cuEventCreate, CUresult, (CUevent * event, unsigned flags))                    \
  X(cuEventDestroy_v2, cuEventDestroy, CUresult, (CUevent event))                                 \
  X(cuEventRecord, cuEventRecord, CUresult, (CUevent event, CUstream stream))                     \
  X(cuEventSynchronize, cuEventSynchronize, CUresult, (CUevent event))                            \
  X(cuEventQuery, cuEventQuery, CUresult, (CUevent event))                                        \
  X(cuEventElapsedTime, cuEventElapsedTime, CUresult,                                             \
    (float* milliseconds, CUevent start, CUevent end))                                            \
  X(cuModuleLoadDataEx, cuModuleLoadDataEx, CUresult,                                             \
    (CUmodule * module, const void* image, unsigned count, CUjit_option* options, void** values)) \
  X(cuModuleUnload, cuModuleUnload, CUresult, (CUmodule module))                                  \
  X(cuModuleGetFunction, cuModuleGetFunction, CUresult,                                           \
    (CUfunction * function, CUmodule module, const char* name))                                   \
  X(cuLaunchKernel, cuLaunchKernel, CUresult,                                                     \
    (CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,    \
     unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream, void** params,   \
     void** extra))

// Used where present: names and texts of results (anygpu keeps its own table as well), and the
// parameter layout of a cubin's kernel (CUDA 12.4).
#define ANYGPU_CUDA_OPTIONAL_FUNCTIONS(X)                                               \
  X(cuGetErrorName, cuGetErrorName, CUresult, (CUresult result, const char** name))     \
  X(cuGetErrorString, cuGetErrorString, CUresult, (CUresult result, const char** text)) \
  X(cuFuncGetParamInfo, cuFuncGetParamInfo, CUresult,                                   \
    (CUfunction function, size_t index, size_t* offset, size_t* size))

#define ANYGPU_CUDA_DECLARE_POINTER(symbol, name, result, parameters) \
  result(*symbol) parameters = nullptr;

// The resolved entry points of one driver, named by their versioned symbols.
struct CudaFunctions {
  ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_CUDA_DECLARE_POINTER)
  ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_CUDA_DECLARE_POINTER)
};

}  // namespace anygpu::cuda
