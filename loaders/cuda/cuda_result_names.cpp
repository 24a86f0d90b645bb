#include "loaders/cuda/cuda_result_names.h"

#include "loaders/cuda/cuda_result_table.h"
#include "loaders/named_values.h"

namespace anygpu::cuda {
namespace {

#define ANYGPU_CUDA_NAMED_RESULT(name, value, code) {value, #name},
constexpr NamedValue<int> kNames[] = {ANYGPU_CUDA_RESULTS(ANYGPU_CUDA_NAMED_RESULT)};
#undef ANYGPU_CUDA_NAMED_RESULT

}  // namespace

const char* cuda_result_name(int result) {
  return name_of(kNames, result);
}

bool cuda_result_value(const char* name, int* value) {
  return value_of(kNames, name, value);
}

}  // namespace anygpu::cuda
