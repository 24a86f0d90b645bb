/* Calls with error codes that C++ cannot form as an ag_result (see error_codes.c). */
#pragma once

#include <anygpu/anygpu.h>

#ifdef __cplusplus
extern "C" {
#endif

ag_result api_test_get_error_name(int code, const char** name);
ag_result api_test_get_error_string(int code, const char** description);

#ifdef __cplusplus
}
#endif
