#include "cuda_result.h"

#include "../../shim/error.h"
#include "../../shim/string_format.h"

namespace anygpu::cuda {

ag_result map_cuda_result(CUresult result) {
  switch (result) {
    case 0:
      return AG_SUCCESS;
    case 1:  // INVALID_VALUE
      return AG_ERROR_INVALID_VALUE;
    case 2:  // OUT_OF_MEMORY
      return AG_ERROR_OUT_OF_MEMORY;
    case 3:    // NOT_INITIALIZED
    case 4:    // DEINITIALIZED
    case 34:   // STUB_LIBRARY
    case 803:  // SYSTEM_DRIVER_MISMATCH
      return AG_ERROR_NOT_INITIALIZED;
    case 100:  // NO_DEVICE
      return AG_ERROR_NO_DEVICE;
    case 101:  // INVALID_DEVICE
      return AG_ERROR_INVALID_DEVICE;
    case 200:  // INVALID_IMAGE
    case 218:  // INVALID_PTX
    case 300:  // INVALID_SOURCE
      return AG_ERROR_INVALID_IMAGE;
    case 209:  // NO_BINARY_FOR_GPU
    case 222:  // UNSUPPORTED_PTX_VERSION
      return AG_ERROR_NO_BINARY_FOR_DEVICE;
    case 201:  // INVALID_CONTEXT
    case 400:  // INVALID_HANDLE
    case 709:  // CONTEXT_IS_DESTROYED
      return AG_ERROR_INVALID_HANDLE;
    case 301:  // FILE_NOT_FOUND
      return AG_ERROR_FILE_NOT_FOUND;
    case 500:  // NOT_FOUND
      return AG_ERROR_NOT_FOUND;
    case 600:  // NOT_READY
      return AG_ERROR_NOT_READY;
    case 701:  // LAUNCH_OUT_OF_RESOURCES
    case 912:  // INVALID_CLUSTER_SIZE
      return AG_ERROR_INVALID_CONFIGURATION;
    case 700:  // ILLEGAL_ADDRESS
    case 702:  // LAUNCH_TIMEOUT
    case 710:  // ASSERT
    case 714:  // HARDWARE_STACK_ERROR
    case 715:  // ILLEGAL_INSTRUCTION
    case 716:  // MISALIGNED_ADDRESS
    case 717:  // INVALID_ADDRESS_SPACE
    case 718:  // INVALID_PC
    case 719:  // LAUNCH_FAILED
      return AG_ERROR_LAUNCH_FAILED;
    case 36:   // CALL_REQUIRES_NEWER_DRIVER
    case 221:  // JIT_COMPILER_NOT_FOUND
    case 223:  // JIT_COMPILATION_DISABLED
    case 801:  // NOT_SUPPORTED
      return AG_ERROR_NOT_SUPPORTED;
    default:
      return AG_ERROR_BACKEND_FAILURE;
  }
}

std::string describe_cuda_result(CUresult result) {
  if (const char* name = cuda_result_name(result)) return strprintf("%s (%d)", name, result);
  return strprintf("CUresult %d", result);
}

ag_result cuda_fail(CUresult result, const char* call, const char* extra) {
  if (result == CUDA_SUCCESS) return AG_SUCCESS;
  const std::string described = describe_cuda_result(result);
  return fail(map_cuda_result(result), "%s failed: %s%s%s", call, described.c_str(),
              extra ? ": " : "", extra ? extra : "");
}

}  // namespace anygpu::cuda
