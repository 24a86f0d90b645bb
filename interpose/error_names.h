// CUresult and hipError_t values by name, both ways.
#pragma once

#include "interpose/function_names.h"

namespace anygpu::intercept {

// The name of a result of that API, or nullptr for a value it does not define.
const char* result_name(Api api, int value);

// The value of a result name of that API (CUDA_ERROR_OUT_OF_MEMORY, hipErrorOutOfMemory).
bool result_value(Api api, const char* name, int* value);

}  // namespace anygpu::intercept
