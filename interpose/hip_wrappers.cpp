// The exported HIP runtime wrappers, one per line of hip_functions.h.
#include "interpose/intercept.h"
#include "interpose/real_functions.h"
#include "interpose/wrappers.h"

namespace anygpu::intercept {

// The vendor types the parameter lists name.
using namespace hip;

// Each wrapper has the type of the function it stands in for: the one declaration's PFN_<symbol>
// (wrappers.h declares it so; the static_assert says it where the definition repeats it).
#define ANYGPU_DEFINE_HIP_WRAPPER(symbol, parameters, arguments, ...)                             \
  extern "C" ANYGPU_INTERCEPT_EXPORT hipError_t symbol parameters {                               \
    static_assert(std::is_same_v<decltype(&symbol), PFN_##symbol>);                               \
    auto real = reinterpret_cast<PFN_##symbol>(real_function(k_##symbol));                        \
    if (!real) return missing_real_function(k_##symbol);                                          \
    return intercept(                                                                             \
        k_##symbol, [&] { return real arguments; }, [&](CallRecord& c) { (void)(__VA_ARGS__); }); \
  }
ANYGPU_HIP_FUNCTIONS(ANYGPU_DEFINE_HIP_WRAPPER)
#undef ANYGPU_DEFINE_HIP_WRAPPER

}  // namespace anygpu::intercept
