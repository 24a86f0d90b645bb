// The math functions dialect_math computes, one list for the kernel and its host reference:
// X(expression in x), in output order. EXACT: IEEE operations, the same result on every target;
// APPROXIMATE: transcendental functions, whose precision differs by target
// (docs/kernel-dialect.md). Inputs are kept where the GPU approximations are good: 0 < x < 8.
#ifndef ANYGPU_KERNELS_DIALECT_MATH_H
#define ANYGPU_KERNELS_DIALECT_MATH_H

// clang-format off
#define AG_DIALECT_MATH_EXACT_FLOAT(X)                                                \
  X(sqrtf(x)) X(fabsf(-x)) X(floorf(x)) X(ceilf(x)) X(truncf(-x)) X(roundf(x))         \
  X(rintf(x)) X(fminf(x, 1.5f)) X(fmaxf(x, 1.5f)) X(copysignf(x, -1.0f))               \
  X(fmaf(x, x, 1.0f))

#define AG_DIALECT_MATH_EXACT_DOUBLE(X)                                               \
  X(sqrt((double)x)) X(fabs(-(double)x)) X(floor((double)x)) X(ceil((double)x))        \
  X(trunc(-(double)x)) X(round((double)x)) X(rint((double)x)) X(fmin((double)x, 1.5))  \
  X(fmax((double)x, 1.5)) X(copysign((double)x, -1.0)) X(fma((double)x, (double)x, 1.0))

#define AG_DIALECT_MATH_APPROXIMATE_FLOAT(X)                                          \
  X(expf(x)) X(exp2f(x)) X(logf(x)) X(log2f(x)) X(log10f(x)) X(sinf(x)) X(cosf(x))     \
  X(tanf(x)) X(powf(x, 2.5f)) X(powf(-x, 3.0f))

#define AG_DIALECT_COUNT(expression) +1
enum {
  ag_dialect_math_exact_float_count = 0 AG_DIALECT_MATH_EXACT_FLOAT(AG_DIALECT_COUNT),
  ag_dialect_math_float_count = ag_dialect_math_exact_float_count
                                AG_DIALECT_MATH_APPROXIMATE_FLOAT(AG_DIALECT_COUNT),
  ag_dialect_math_double_count = 0 AG_DIALECT_MATH_EXACT_DOUBLE(AG_DIALECT_COUNT)
};
// clang-format on

#endif
