// anygpu's own declarations of NVRTC, CUDA's run-time compiler: the types, results and functions
// anygpu calls. No nvrtc.h: anygpu builds without a CUDA SDK, and loads libnvrtc at run time
// (nvrtc_loader.cpp). The values are NVRTC's ABI, unchanged since CUDA 11.2 (nvrtcGetCUBIN came
// with CUDA 11.1). No anygpu dependency.
#pragma once

#include <cstddef>

#include "loaders/function_table.h"

namespace anygpu::cuda {

typedef int nvrtcResult;
typedef struct _nvrtcProgram* nvrtcProgram;

enum : nvrtcResult {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6,
  NVRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  NVRTC_ERROR_INTERNAL_ERROR = 11,
};

// X(symbol, name, return, parameters), as cuda_api.h's lists; NVRTC has no GetProcAddress, so
// `name` is the exported symbol itself.
#define ANYGPU_NVRTC_REQUIRED_FUNCTIONS(X)                                               \
  X(nvrtcVersion, nvrtcVersion, nvrtcResult, (int* major, int* minor))                   \
  X(nvrtcGetErrorString, nvrtcGetErrorString, const char*, (nvrtcResult result))         \
  X(nvrtcCreateProgram, nvrtcCreateProgram, nvrtcResult,                                 \
    (nvrtcProgram * program, const char* source, const char* name, int num_headers,      \
     const char* const* headers, const char* const* include_names))                      \
  X(nvrtcDestroyProgram, nvrtcDestroyProgram, nvrtcResult, (nvrtcProgram * program))     \
  X(nvrtcCompileProgram, nvrtcCompileProgram, nvrtcResult,                               \
    (nvrtcProgram program, int num_options, const char* const* options))                 \
  X(nvrtcGetPTXSize, nvrtcGetPTXSize, nvrtcResult, (nvrtcProgram program, size_t* size)) \
  X(nvrtcGetPTX, nvrtcGetPTX, nvrtcResult, (nvrtcProgram program, char* ptx))            \
  X(nvrtcGetProgramLogSize, nvrtcGetProgramLogSize, nvrtcResult,                         \
    (nvrtcProgram program, size_t* size))                                                \
  X(nvrtcGetProgramLog, nvrtcGetProgramLog, nvrtcResult, (nvrtcProgram program, char* log))
// Newer than the oldest NVRTC anygpu takes, or not needed for PTX: a compile that wants a cubin
// without them says so.
#define ANYGPU_NVRTC_OPTIONAL_FUNCTIONS(X)                                                   \
  X(nvrtcGetCUBINSize, nvrtcGetCUBINSize, nvrtcResult, (nvrtcProgram program, size_t* size)) \
  X(nvrtcGetCUBIN, nvrtcGetCUBIN, nvrtcResult, (nvrtcProgram program, char* cubin))          \
  X(nvrtcGetNumSupportedArchs, nvrtcGetNumSupportedArchs, nvrtcResult, (int* count))         \
  X(nvrtcGetSupportedArchs, nvrtcGetSupportedArchs, nvrtcResult, (int* archs))

#define ANYGPU_NVRTC_PFN(symbol, name, result, params) typedef result(*PFN_##symbol) params;
ANYGPU_NVRTC_REQUIRED_FUNCTIONS(ANYGPU_NVRTC_PFN)
ANYGPU_NVRTC_OPTIONAL_FUNCTIONS(ANYGPU_NVRTC_PFN)
#undef ANYGPU_NVRTC_PFN

ANYGPU_FUNCTION_TABLE(NvrtcFunctions, ANYGPU_NVRTC_REQUIRED_FUNCTIONS,
                      ANYGPU_NVRTC_OPTIONAL_FUNCTIONS)

}  // namespace anygpu::cuda
