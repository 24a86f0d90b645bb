// CUresult values: their names, the ag_result each maps to, and the error detail of a failed call.
#pragma once

#include <anygpu/anygpu.h>

#include <string>

#include "loaders/cuda/cuda_api.h"
#include "loaders/cuda/cuda_result_names.h"

namespace anygpu::cuda {

// The ag_result column of cuda_result_table.h; AG_ERROR_BACKEND_FAILURE for a value not in it.
ag_result map_cuda_result(CUresult result);
// "CUDA_ERROR_NO_DEVICE (100)", or "CUresult 12345" for an unknown value.
std::string describe_cuda_result(CUresult result);

// Records "<call> failed: <name> (<value>)[: <extra>]" as the detail and returns the mapped code.
// CUDA_SUCCESS gives AG_SUCCESS and records nothing.
ag_result cuda_fail(CUresult result, const char* call, const char* extra = nullptr);

}  // namespace anygpu::cuda
