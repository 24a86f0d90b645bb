// The test driver's view of the CUDA Driver API. Types and the function list come from anygpu's
// own cuda_api.h, and every exported entry point is declared from that same list, so a definition
// whose signature differs from what the CUDA backend calls does not compile. Constants a driver
// needs beyond what anygpu uses (values from the driver ABI, cuda.h) are here.
#pragma once

#include <cstdint>

#include "loaders/cuda/cuda_api.h"

#define ANYGPU_CUDA_TEST_EXPORT __attribute__((visibility("default")))
// What an exported definition starts with (visibility is not carried over from the declaration in
// another namespace).
#define ANYGPU_CUDA_TEST_API extern "C" ANYGPU_CUDA_TEST_EXPORT

namespace anygpu::cuda {

// Types of the functions below that anygpu itself does not use (cuda.h's).
struct CUuuid {
  unsigned char bytes[16];
};
typedef struct CUlib_st* CUlibrary;
typedef struct CUkern_st* CUkernel;
typedef int CUlibraryOption;

// X(symbol, name for cuGetProcAddress, return, parameters): what an nvcc-built CUDA Runtime
// program (static cudart, CUDA 13) calls beyond anygpu's list. Its kernels come as a library
// (cuLibraryLoadData of the fatbin wrapper) and launch through cuLaunchKernel with a CUkernel.
#define ANYGPU_CUDA_TEST_RUNTIME_FUNCTIONS(X)                                             \
  X(cuGetExportTable, cuGetExportTable, CUresult, (const void** table, const CUuuid* id)) \
  X(cuDeviceGetUuid, cuDeviceGetUuid, CUresult, (CUuuid * uuid, CUdevice device))         \
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

// Declared in anygpu::cuda with C linkage: a definition in another namespace with extern "C"
// is the same function (and must have the same type).
#define ANYGPU_CUDA_TEST_DECLARE(symbol, name, result, parameters) \
  ANYGPU_CUDA_TEST_EXPORT result symbol parameters;
extern "C" {
ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_CUDA_TEST_DECLARE)
ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_CUDA_TEST_DECLARE)
ANYGPU_CUDA_TEST_RUNTIME_FUNCTIONS(ANYGPU_CUDA_TEST_DECLARE)
ANYGPU_CUDA_TEST_EXPORT CUresult cuGetProcAddress_v2(const char* symbol, void** pfn,
                                                     int cuda_version, cuuint64_t flags,
                                                     CUdriverProcAddressQueryResult* status);
}
#undef ANYGPU_CUDA_TEST_DECLARE

}  // namespace anygpu::cuda

namespace anygpu::cuda_test_driver {

using namespace anygpu::cuda;

// The "old driver" build (ANYGPU_CUDA_TEST_OLD_DRIVER) is a CUDA 11.4 driver: it has neither
// cuGetProcAddress_v2 (12.0) nor cuFuncGetParamInfo (12.4), so a loader must use dlsym.
#ifdef ANYGPU_CUDA_TEST_OLD_DRIVER
constexpr int kDefaultDriverVersion = 11040;
constexpr bool kHasProcAddress = false;
constexpr bool kHasParamInfo = false;
constexpr bool kHasRuntimeFunctions = false;
#else
constexpr int kDefaultDriverVersion = 12040;
constexpr bool kHasProcAddress = true;
constexpr bool kHasParamInfo = true;
constexpr bool kHasRuntimeFunctions = true;  // ANYGPU_CUDA_TEST_RUNTIME_FUNCTIONS
#endif

// CUresult values beyond cuda_api.h's (cuda.h's numbers).
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr CUresult CUDA_ERROR_NOT_SUPPORTED = 801;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

constexpr CUjit_option CU_JIT_NUM_OPTIONS = 35;  // options 0 to 34 exist (CUDA 13.0)

constexpr unsigned CU_EVENT_BLOCKING_SYNC = 0x1;
constexpr unsigned CU_EVENT_INTERPROCESS = 0x4;

constexpr cuuint64_t CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2;

// The special stream handles: the legacy default stream and the per-thread one.
inline bool is_default_stream(CUstream stream) {
  const auto value = reinterpret_cast<uintptr_t>(stream);
  return value == 0 || value == 1 || value == 2;
}

}  // namespace anygpu::cuda_test_driver
