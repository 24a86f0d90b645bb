// Every math function of the dialect on in[i]: out_float[i * float_count + k] and
// out_double[i * double_count + k], in the order of dialect_math.h.
#include <anygpu/kernel.h>

#include "dialect_math.h"

AG_KERNEL(dialect_math, (int n, const AG_GLOBAL float* in, AG_GLOBAL float* out_float,
                         AG_GLOBAL double* out_double)) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (unsigned)n) return;
  const float x = in[i];
  AG_GLOBAL float* f = out_float + i * ag_dialect_math_float_count;
  AG_GLOBAL double* d = out_double + i * ag_dialect_math_double_count;
#define AG_STORE_FLOAT(expression) *f++ = (expression);
#define AG_STORE_DOUBLE(expression) *d++ = (expression);
  AG_DIALECT_MATH_EXACT_FLOAT(AG_STORE_FLOAT)
  AG_DIALECT_MATH_APPROXIMATE_FLOAT(AG_STORE_FLOAT)
  AG_DIALECT_MATH_EXACT_DOUBLE(AG_STORE_DOUBLE)
}
