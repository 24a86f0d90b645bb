// One math function over an array per kernel, for anygpu_math_bench (math_throughput.cpp).
#include <cuda_runtime.h>

#define MATH_KERNEL(name, T, function)               \
  __global__ void name(const T* in, T* out, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x;   \
    if (i < n) out[i] = function(in[i]);             \
  }

MATH_KERNEL(apply_expf, float, expf)
MATH_KERNEL(apply_logf, float, logf)
MATH_KERNEL(apply_erff, float, erff)
MATH_KERNEL(apply_exp, double, exp)
MATH_KERNEL(apply_log, double, log)
MATH_KERNEL(apply_erf, double, erf)
