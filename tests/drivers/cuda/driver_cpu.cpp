#include "driver_cpu.h"

namespace anygpu::cuda_test_driver {

CUresult from_cpu(ag_result result) {
  switch (result) {
    case AG_SUCCESS:
      return CUDA_SUCCESS;
    case AG_ERROR_OUT_OF_MEMORY:
      return CUDA_ERROR_OUT_OF_MEMORY;
    case AG_ERROR_NOT_READY:
      return CUDA_ERROR_NOT_READY;
    case AG_ERROR_INVALID_VALUE:
      return CUDA_ERROR_INVALID_VALUE;
    case AG_ERROR_NOT_FOUND:
      return CUDA_ERROR_NOT_FOUND;
    case AG_ERROR_INVALID_CONFIGURATION:
      return CUDA_ERROR_INVALID_VALUE;
    case AG_ERROR_NOT_SUPPORTED:
      return CUDA_ERROR_NOT_SUPPORTED;
    case AG_ERROR_LAUNCH_FAILED:
      return CUDA_ERROR_LAUNCH_FAILED;
    default:
      return CUDA_ERROR_UNKNOWN;
  }
}

}  // namespace anygpu::cuda_test_driver
