#include "loaders/cuda/cuda_result.h"

#include "loaders/cuda/cuda_result_table.h"
#include "loaders/vendor_failure.h"
#include "shim/support/string_format.h"

namespace anygpu::cuda {

ag_result map_cuda_result(CUresult result) {
  switch (result) {
#define ANYGPU_CUDA_RESULT_CODE(name, value, code) \
  case name:                                       \
    return code;
    ANYGPU_CUDA_RESULTS(ANYGPU_CUDA_RESULT_CODE)
#undef ANYGPU_CUDA_RESULT_CODE
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
  return vendor_failure(map_cuda_result(result), call, describe_cuda_result(result), extra);
}

}  // namespace anygpu::cuda
