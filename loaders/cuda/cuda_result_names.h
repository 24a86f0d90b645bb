// The names of CUresult values, both ways, from cuda_result_table.h: no other dependency, so the
// CUDA backend and the interposer (interpose/) share them.
#pragma once

namespace anygpu::cuda {

// "CUDA_ERROR_OUT_OF_MEMORY"; nullptr for a value the table does not know.
const char* cuda_result_name(int result);
// The value named `name`; false for a name the table does not know.
bool cuda_result_value(const char* name, int* value);

}  // namespace anygpu::cuda
