// agGetErrorName, agGetErrorString, agGetLastErrorDetail, agClearLastErrorDetail.
#include "shim/api/api_common.h"

using namespace anygpu;

extern "C" {

ag_result agGetErrorName(ag_result result, const char** name) try {
  AG_ENTRY();
  if (!name) return fail(AG_ERROR_INVALID_VALUE, "name is NULL");
  const char* found = result_name(result);
  if (!found) return fail(AG_ERROR_INVALID_VALUE, "%d is not an ag_result", (int)result);
  *name = found;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agGetErrorString(ag_result result, const char** description) try {
  AG_ENTRY();
  if (!description) return fail(AG_ERROR_INVALID_VALUE, "description is NULL");
  const char* found = result_description(result);
  if (!found) return fail(AG_ERROR_INVALID_VALUE, "%d is not an ag_result", (int)result);
  *description = found;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agGetLastErrorDetail(const char** detail) {
  if (!detail) {
    AG_ENTRY();
    return fail(AG_ERROR_INVALID_VALUE, "detail is NULL");
  }
  *detail = last_error_detail();
  return AG_SUCCESS;
}

ag_result agClearLastErrorDetail(void) {
  clear_last_error_detail();
  return AG_SUCCESS;
}

}  // extern "C"
