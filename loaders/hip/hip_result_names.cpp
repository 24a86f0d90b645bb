#include "loaders/hip/hip_result_names.h"

#include "loaders/hip/hip_result_table.h"
#include "loaders/named_values.h"

namespace anygpu::hip {
namespace {

#define ANYGPU_HIP_NAMED_RESULT(name, value, code) {value, #name},
constexpr NamedValue<int> kNames[] = {ANYGPU_HIP_RESULTS(ANYGPU_HIP_NAMED_RESULT)};
#undef ANYGPU_HIP_NAMED_RESULT

}  // namespace

const char* hip_result_name(int result) {
  return name_of(kNames, result);
}

bool hip_result_value(const char* name, int* value) {
  return value_of(kNames, name, value);
}

}  // namespace anygpu::hip
