// The exported HIP runtime wrappers, one per line of hip_functions.h.
#include "interpose/intercept.h"
#include "interpose/real_functions.h"
#include "interpose/wrappers.h"

namespace anygpu::intercept {

#define ANYGPU_DEFINE_HIP_WRAPPER(symbol, parameters, arguments, ...)                             \
  extern "C" ANYGPU_INTERCEPT_EXPORT hipError_t symbol parameters {                               \
    using Real = hipError_t(*) parameters;                                                        \
    auto real = reinterpret_cast<Real>(real_function(k_##symbol));                                \
    if (!real) return missing_real_function(k_##symbol);                                          \
    return intercept(                                                                             \
        k_##symbol, [&] { return real arguments; }, [&](CallRecord& c) { (void)(__VA_ARGS__); }); \
  }
ANYGPU_HIP_FUNCTIONS(ANYGPU_DEFINE_HIP_WRAPPER)
#undef ANYGPU_DEFINE_HIP_WRAPPER

}  // namespace anygpu::intercept
