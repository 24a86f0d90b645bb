#include "loaders/level_zero/level_zero_result.h"

#include "loaders/level_zero/level_zero_result_table.h"
#include "loaders/named_values.h"
#include "loaders/vendor_failure.h"
#include "shim/support/string_format.h"

namespace anygpu::level_zero {
namespace {

#define ANYGPU_LEVEL_ZERO_NAMED_RESULT(name, value, code) {value, #name},
constexpr NamedValue<ze_result_t> kNames[] = {
    ANYGPU_LEVEL_ZERO_RESULTS(ANYGPU_LEVEL_ZERO_NAMED_RESULT)};
#undef ANYGPU_LEVEL_ZERO_NAMED_RESULT

}  // namespace

const char* ze_result_name(ze_result_t result) {
  return name_of(kNames, result);
}

ag_result map_ze_result(ze_result_t result) {
  switch (result) {
#define ANYGPU_LEVEL_ZERO_RESULT_CODE(name, value, code) \
  case name:                                             \
    return code;
    ANYGPU_LEVEL_ZERO_RESULTS(ANYGPU_LEVEL_ZERO_RESULT_CODE)
#undef ANYGPU_LEVEL_ZERO_RESULT_CODE
    default:
      return AG_ERROR_BACKEND_FAILURE;
  }
}

std::string describe_ze_result(ze_result_t result) {
  if (const char* name = ze_result_name(result)) return strprintf("%s (0x%x)", name, result);
  return strprintf("ze_result_t 0x%x", result);
}

ag_result ze_fail(ze_result_t result, const char* call, const char* extra) {
  if (result == ZE_RESULT_SUCCESS) return AG_SUCCESS;
  return vendor_failure(map_ze_result(result), call, describe_ze_result(result), extra);
}

}  // namespace anygpu::level_zero
