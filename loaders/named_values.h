// A vendor's result values by name and back, read from a table of (value, name) rows built from
// its result list (cuda_result_table.h and the like). Header-only with no anygpu dependency: the
// interposer compiles the CUDA and HIP names in without libanygpu.
#pragma once

#include <cstddef>
#include <cstring>

namespace anygpu {

template <typename Value>
struct NamedValue {
  Value value;
  const char* name;
};

// The name of `value`; nullptr for a value the table does not hold.
template <typename Value, size_t N>
const char* name_of(const NamedValue<Value> (&table)[N], Value value) {
  for (const NamedValue<Value>& row : table)
    if (row.value == value) return row.name;
  return nullptr;
}

// The value named `name`; false for a name the table does not hold.
template <typename Value, size_t N>
bool value_of(const NamedValue<Value> (&table)[N], const char* name, Value* value) {
  for (const NamedValue<Value>& row : table)
    if (std::strcmp(row.name, name) == 0) {
      *value = row.value;
      return true;
    }
  return false;
}

}  // namespace anygpu
