// The CUDA Driver API types the wrappers' signatures need, declared here: the interposer is built
// without cuda.h and never links libcuda. Layouts and sizes are the driver ABI's (cuda.h, CUDA 13).
#pragma once

#include <cstddef>
#include <cstdint>

namespace anygpu::intercept {

typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;
typedef int CUjit_option;
typedef int CUlibraryOption;
typedef int CUdriverProcAddressQueryResult;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long cuuint64_t;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUlib_st* CUlibrary;
typedef struct CUkern_st* CUkernel;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
typedef struct CUctxCreateParams_st CUctxCreateParams;      // only passed through
typedef struct CUexecAffinityParam_st CUexecAffinityParam;  // only passed through
typedef struct CUlaunchAttribute_st CUlaunchAttribute;      // only passed through

// cuLaunchKernelEx's configuration: the fields the trace reads, in cuda.h's order.
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute* attrs;
  unsigned numAttrs;
};

}  // namespace anygpu::intercept
