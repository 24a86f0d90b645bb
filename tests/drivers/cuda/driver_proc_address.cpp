// cuGetProcAddress_v2 (CUDA 12.0): a base name gives the versioned entry point this driver
// exports for it. As on a real driver, a function newer than the requested CUDA version is
// CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT and one newer than the driver is not there at all.
// The old driver build has no cuGetProcAddress_v2.
#include <cstring>

#include "driver_state.h"

#ifndef ANYGPU_CUDA_TEST_OLD_DRIVER
namespace anygpu::cuda_test_driver {
namespace {

struct Entry {
  Fn fn;
  void* pointer;
};

// clang-format off
const Entry kEntries[] = {
#define ANYGPU_CUDA_TEST_ENTRY(symbol, name, result, parameters) \
  {Fn::symbol, reinterpret_cast<void*>(&symbol)},
  ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_CUDA_TEST_ENTRY)
  ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_CUDA_TEST_ENTRY)
  ANYGPU_CUDA_RUNTIME_FUNCTIONS(ANYGPU_CUDA_TEST_ENTRY)
#undef ANYGPU_CUDA_TEST_ENTRY
  {Fn::cuGetProcAddress_v2, reinterpret_cast<void*>(&cuGetProcAddress_v2)},
};
// clang-format on

// The CUDA version that introduced each function anygpu or the CUDA Runtime asks for after CUDA
// 11.0 (the version anygpu needs); every other one is older. A name with two ABIs
// (cuCtxSynchronize, cuCtxGetDevice) gives the newest one the requested version has.
int introduced_in(Fn fn) {
  switch (fn) {
    case Fn::cuMemPoolCreate:
    case Fn::cuMemPoolDestroy:
    case Fn::cuMemAllocFromPoolAsync:
    case Fn::cuMemAllocAsync:
    case Fn::cuMemFreeAsync:
    case Fn::cuMemPoolTrimTo:
    case Fn::cuMemPoolSetAttribute:
    case Fn::cuMemPoolGetAttribute:
      return 11020;
    case Fn::cuGetProcAddress_v2:
    case Fn::cuLibraryLoadData:
    case Fn::cuLibraryUnload:
    case Fn::cuLibraryGetKernel:
    case Fn::cuKernelGetFunction:
      return 12000;
    case Fn::cuFuncGetParamInfo:
    case Fn::cuModuleGetFunctionCount:
    case Fn::cuModuleEnumerateFunctions:
    case Fn::cuFuncLoad:
      return 12040;
    case Fn::cuCtxGetDevice_v2:
    case Fn::cuCtxSynchronize_v2:
      return 13000;
    default:
      return 0;
  }
}

constexpr cuuint64_t kFlags =
    CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;

}  // namespace

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

// Answers before cuInit: it is how a loader finds cuInit.
ANYGPU_CUDA_TEST_API CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cuda_version,
                                                  cuuint64_t flags,
                                                  CUdriverProcAddressQueryResult* status) {
  DRIVER_ENTRY(cuGetProcAddress_v2);
  if (!symbol || !pfn || (flags & ~kFlags)) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  CUdriverProcAddressQueryResult answer = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  int chosen_version = -1;
  for (const Entry& entry : kEntries) {
    const FunctionInfo& info = function_info(entry.fn);
    if (strcmp(symbol, info.name) != 0) continue;
    const int introduced = introduced_in(entry.fn);
    if (config().missing.count(info.name) || introduced > config().driver_version) continue;
    if (introduced > cuda_version) {
      if (answer != CU_GET_PROC_ADDRESS_SUCCESS)
        answer = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
      continue;
    }
    if (introduced <= chosen_version) continue;
    *pfn = entry.pointer;
    chosen_version = introduced;
    answer = CU_GET_PROC_ADDRESS_SUCCESS;
  }
  if (status) *status = answer;
  return answer == CU_GET_PROC_ADDRESS_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

}  // namespace anygpu::cuda
#endif
