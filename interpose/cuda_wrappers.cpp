// The exported CUDA Driver API wrappers, one per line of cuda_functions.h.
#include "interpose/intercept.h"
#include "interpose/real_functions.h"
#include "interpose/wrappers.h"

namespace anygpu::intercept {

#define ANYGPU_DEFINE_CUDA_WRAPPER(symbol, parameters, arguments, ...)                            \
  extern "C" ANYGPU_INTERCEPT_EXPORT CUresult symbol parameters {                                 \
    using Real = CUresult(*) parameters;                                                          \
    auto real = reinterpret_cast<Real>(real_function(k_##symbol));                                \
    if (!real) return missing_real_function(k_##symbol);                                          \
    return intercept(                                                                             \
        k_##symbol, [&] { return real arguments; }, [&](CallRecord& c) { (void)(__VA_ARGS__); }); \
  }
ANYGPU_CUDA_FUNCTIONS(ANYGPU_DEFINE_CUDA_WRAPPER)
#undef ANYGPU_DEFINE_CUDA_WRAPPER

}  // namespace anygpu::intercept
