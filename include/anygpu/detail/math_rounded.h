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
AGK_ROUNDED(__fdiv_rn, float, (float x, float y), x / y)
AGK_ROUNDED(__frcp_rn, float, (float x), 1.0f / x)
AGK_ROUNDED(__fsqrt_rn, float, (float x), sqrtf(x))
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

#endif /* ANYGPU_DETAIL_MATH_ROUNDED_H */
