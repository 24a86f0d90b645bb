// hipError_t values: their names, the ag_result each maps to, and the error detail of a failed
// call.
#pragma once

#include <anygpu/anygpu.h>

#include <string>

#include "loaders/hip/hip_api.h"
#include "loaders/hip/hip_result_names.h"

namespace anygpu::hip {

// The ag_result column of hip_result_table.h; AG_ERROR_BACKEND_FAILURE for a value not in it.
ag_result map_hip_result(hipError_t result);
// "hipErrorNoDevice (100)", or "hipError_t 12345" for an unknown value.
std::string describe_hip_result(hipError_t result);

// Records "<call> failed: <name> (<value>)[: <extra>]" as the detail and returns the mapped code.
// hipSuccess gives AG_SUCCESS and records nothing.
ag_result hip_fail(hipError_t result, const char* call, const char* extra = nullptr);

}  // namespace anygpu::hip
