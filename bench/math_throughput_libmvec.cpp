// The reference loops of anygpu_math_bench: glibc's vector math library (libmvec), which GCC
// calls from a `#pragma omp simd` loop when -ffast-math lets <math.h> declare the vector
// variants; this file alone is built so (bench/CMakeLists.txt), for the machine it runs on.
#include <math.h>

#include "math_throughput.h"

namespace anygpu_math_bench {

#define LIBMVEC_LOOP(name, T, function)                                                    \
  void name(const T* in, T* out, int n) {                                                  \
    _Pragma("omp parallel for simd") for (int i = 0; i < n; ++i) out[i] = function(in[i]); \
  }

LIBMVEC_LOOP(libmvec_expf, float, expf)
LIBMVEC_LOOP(libmvec_logf, float, logf)
LIBMVEC_LOOP(libmvec_erff, float, erff)
LIBMVEC_LOOP(libmvec_exp, double, exp)
LIBMVEC_LOOP(libmvec_log, double, log)
LIBMVEC_LOOP(libmvec_erf, double, erf)

}  // namespace anygpu_math_bench
