#include "driver_cpu.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "loaders/backends.h"

namespace anygpu::cuda_test_driver {

DeviceBackend& cpu() {
  static Backend* const backend = [] {
    Backend* created = make_cpu_backend().release();
    std::string reason;
    if (!created->load(reason) || created->device_count() < 1) {
      fprintf(stderr, "anygpu CUDA test driver: the CPU backend did not load: %s\n",
              reason.c_str());
      abort();
    }
    return created;
  }();
  return backend->device(0);
}

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
