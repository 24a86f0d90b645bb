// The names of hipError_t values, both ways: one table with no other dependency, which the HIP
// backend and the interposer (interpose/) share.
#pragma once

namespace anygpu::hip {

// "hipErrorOutOfMemory"; nullptr for a value the table does not know.
const char* hip_result_name(int result);
// The value named `name`; false for a name the table does not know.
bool hip_result_value(const char* name, int* value);

}  // namespace anygpu::hip
