/* math_rounded.h — CUDA's _rn intrinsics: IEEE operations named by their rounding (to nearest),
 * on every target. They are never contracted into an fma with their neighbours, as in CUDA.
 * Included by math_gpu.h and math_host.h (which define AGK_ROUNDED_FUNCTION: how a function is
 * declared there); do not include directly. */
#ifndef ANYGPU_DETAIL_MATH_ROUNDED_H
#define ANYGPU_DETAIL_MATH_ROUNDED_H

#ifdef __clang__
#define AGK_NO_CONTRACTION _Pragma("clang fp contract(off)")
#else
#define AGK_NO_CONTRACTION /* GCC contracts nothing here without -mfma and -ffp-contract=fast */
#endif
#define AGK_ROUNDED(name, T, params, expression) \
  AGK_ROUNDED_FUNCTION T name params {           \
    AGK_NO_CONTRACTION                           \
    return expression;                           \
  }
AGK_ROUNDED(__fadd_rn, float, (float x, float y), x + y)
AGK_ROUNDED(__fsub_rn, float, (float x, float y), x - y)
AGK_ROUNDED(__fmul_rn, float, (float x, float y), x* y)
AGK_ROUNDED(__fmaf_rn, float, (float x, float y, float z), fmaf(x, y, z))
AGK_ROUNDED(__dadd_rn, double, (double x, double y), x + y)
AGK_ROUNDED(__dsub_rn, double, (double x, double y), x - y)
AGK_ROUNDED(__dmul_rn, double, (double x, double y), x* y)
AGK_ROUNDED(__ddiv_rn, double, (double x, double y), x / y)
AGK_ROUNDED(__drcp_rn, double, (double x), 1.0 / x)
AGK_ROUNDED(__dsqrt_rn, double, (double x), sqrt(x))
AGK_ROUNDED(__fma_rn, double, (double x, double y, double z), fma(x, y, z))

/* The directed roundings (_rz, _ru, _rd), the conversions and the bit casts. */
#include "math_directed.h"

/* The float _rn division, reciprocal and root stay IEEE's in a FAST_MATH image, as in CUDA (where
 * only their denormals flush): libdevice's on nvptx64 (div.rn, rcp.rn, sqrt.rn); on amdgcn, whose
 * FAST_MATH float division and root are approximate, in double, rounded once to float (double
 * has more than 2 x 24 + 2 bits, so the second rounding is exact); elsewhere the plain
 * operations, which FAST_MATH leaves alone there. */
#if defined(__CUDA_ARCH__)
AGK_LIBDEVICE(fdiv_rn, float, (float x, float y), (x, y))
AGK_LIBDEVICE(frcp_rn, float, (float x), (x))
AGK_LIBDEVICE(fsqrt_rn, float, (float x), (x))
#elif defined(__AMDGCN__) && defined(AGK_FAST_MATH) && AGK_FAST_MATH
AGK_ROUNDED(__fdiv_rn, float, (float x, float y), (float)((double)x / (double)y))
AGK_ROUNDED(__frcp_rn, float, (float x), (float)(1.0 / (double)x))
AGK_ROUNDED(__fsqrt_rn, float, (float x), (float)sqrt((double)x))
#else
AGK_ROUNDED(__fdiv_rn, float, (float x, float y), x / y)
AGK_ROUNDED(__frcp_rn, float, (float x), 1.0f / x)
AGK_ROUNDED(__fsqrt_rn, float, (float x), sqrtf(x))
#endif

/* 1/sqrt(x) correctly rounded. nvptx64: libdevice's. Elsewhere the float nearest the double
 * reciprocal root (within 2^-52 of the root), moved to its neighbour where the root lies beyond the
 * midpoint between them: the sign of x m^2 - 1 at a float's square or at that midpoint m (25 bits,
 * so m^2 is exact in double) comes from one fma, which rounds the exact value once. The root of a
 * float is never a midpoint. Uses double, as CUDA's does. */
#if defined(__CUDA_ARCH__)
AGK_LIBDEVICE(frsqrt_rn, float, (float x), (x))
#else
AGK_ROUNDED_FUNCTION float __frsqrt_rn(float x) {
  const float r = (float)(1.0 / sqrt((double)x));
  if (!(x > 0.0f) || !(r > 0.0f)) return r; /* zeros, negatives, NaN, infinity: IEEE's results */
  const double wide = x;
  const double above = fma(wide, (double)r * r, -1.0); /* > 0: r lies above the root */
  if (above == 0.0) return r;
  /* r is a normal float (1/sqrt of a float lies in [2^-64, 2^75)): a step is +-1 on its bits. */
  const float neighbour = __int_as_float(__float_as_int(r) + (above > 0.0 ? -1 : 1));
  const double middle = ((double)r + (double)neighbour) * 0.5;
  const double beyond = fma(wide, middle * middle, -1.0); /* its sign: the midpoint's side */
  return (above > 0.0) == (beyond > 0.0) ? neighbour : r;
}
#endif

#endif /* ANYGPU_DETAIL_MATH_ROUNDED_H */
