#include "interpose/wrappers.h"

namespace anygpu::intercept {
namespace {

#define ANYGPU_WRAPPER_ADDRESS(symbol, ...) reinterpret_cast<void*>(&symbol),
void* const kWrappers[] = {ANYGPU_CUDA_FUNCTIONS(ANYGPU_WRAPPER_ADDRESS)
                               ANYGPU_HIP_FUNCTIONS(ANYGPU_WRAPPER_ADDRESS)};
#undef ANYGPU_WRAPPER_ADDRESS
static_assert(sizeof kWrappers / sizeof kWrappers[0] == kFunctionCount);

}  // namespace

void* wrapper_address(int id) {
  return kWrappers[id];
}

}  // namespace anygpu::intercept
