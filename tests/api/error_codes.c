/* agGetErrorName and agGetErrorString with any int, as a C caller may pass it: in C an enum
 * converts from every int, while in C++ a value outside ag_result's range is undefined. */
#include <anygpu/anygpu.h>

#include "error_codes.h"

ag_result api_test_get_error_name(int code, const char** name) {
  return agGetErrorName((ag_result)code, name);
}

ag_result api_test_get_error_string(int code, const char** description) {
  return agGetErrorString((ag_result)code, description);
}
