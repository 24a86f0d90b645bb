#include "loaders/hip/hip_result.h"

#include "loaders/hip/hip_result_table.h"
#include "loaders/vendor_failure.h"
#include "shim/support/string_format.h"

namespace anygpu::hip {

ag_result map_hip_result(hipError_t result) {
  switch (result) {
#define ANYGPU_HIP_RESULT_CODE(name, value, code) \
  case name:                                      \
    return code;
    ANYGPU_HIP_RESULTS(ANYGPU_HIP_RESULT_CODE)
#undef ANYGPU_HIP_RESULT_CODE
    default:
      return AG_ERROR_BACKEND_FAILURE;
  }
}

std::string describe_hip_result(hipError_t result) {
  if (const char* name = hip_result_name(result)) return strprintf("%s (%d)", name, result);
  return strprintf("hipError_t %d", result);
}

ag_result hip_fail(hipError_t result, const char* call, const char* extra) {
  if (result == hipSuccess) return AG_SUCCESS;
  return vendor_failure(map_hip_result(result), call, describe_hip_result(result), extra);
}

}  // namespace anygpu::hip
