// The names of hipError_t values, both ways, from hip_result_table.h: no other dependency, so the
// HIP backend and the interposer (interpose/) share them.
#pragma once

namespace anygpu::hip {

// "hipErrorOutOfMemory"; nullptr for a value the table does not know.
const char* hip_result_name(int result);
// The value named `name`; false for a name the table does not know.
bool hip_result_value(const char* name, int* value);

}  // namespace anygpu::hip
