// ze_result_t values: their names, the ag_result each maps to, and the error detail of a failed
// call.
#pragma once

#include <anygpu/anygpu.h>

#include <string>

#include "loaders/level_zero/level_zero_api.h"

namespace anygpu::level_zero {

// "ZE_RESULT_ERROR_DEVICE_LOST"; nullptr for a value level_zero_result_table.h does not hold.
const char* ze_result_name(ze_result_t result);
// The ag_result column of level_zero_result_table.h; AG_ERROR_BACKEND_FAILURE for a value not in
// it.
ag_result map_ze_result(ze_result_t result);
// "ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)", or "ze_result_t 0x12345" for an unknown value.
std::string describe_ze_result(ze_result_t result);

// Records "<call> failed: <name> (<value>)[: <extra>]" as the detail and returns the mapped code.
// ZE_RESULT_SUCCESS gives AG_SUCCESS and records nothing.
ag_result ze_fail(ze_result_t result, const char* call, const char* extra = nullptr);

}  // namespace anygpu::level_zero
