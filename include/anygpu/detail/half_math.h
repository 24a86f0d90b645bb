/* half_math.h — the math functions of cuda_fp16.h and cuda_bf16.h, overloaded for __half and
 * __nv_bfloat16 as in CUDA: hsqrt, hrsqrt, hrcp, hexp, hexp2, hexp10, hlog, hlog2, hlog10, hsin,
 * hcos, htanh (and htanh_approx), hceil, hfloor, htrunc, hrint, and their pair forms h2sqrt ...
 * h2rint (lane by lane). Included by anygpu/half.h after the target's float math (kernel.h's on a
 * GPU target, <math.h> on the host); do not include directly.
 *
 * Each is computed in float and rounded once to the 16-bit format:
 * - hsqrt and hrcp are correctly rounded on every target (the same bits everywhere).
 * - hceil, hfloor, htrunc and hrint are exact (float's are, and their results fit the format).
 * - The others call the target's float function (libm on the host, libdevice, ocml, OpenCL's
 *   built-ins) and round its result: float has 13 bits more than binary16 (16 more than
 *   bfloat16), so a float function a few float ulps off moves the result by a few 2^-13 of a
 *   16-bit ulp. The result is the correctly rounded one (CUDA's "round-to-nearest-even mode")
 *   except where the exact value lies that close to a midpoint between two 16-bit values, and
 *   within 0.5 ulp plus that much in any case. In a FAST_MATH image the float functions are CUDA's
 *   intrinsics, and these results are as far off as those (rounded to 16 bits).
 * bfloat16 has float's range: on a target that flushes float subnormals, its subnormals may be
 * taken as zero here. */
#ifndef ANYGPU_DETAIL_HALF_MATH_H
#define ANYGPU_DETAIL_HALF_MATH_H

#include "half_functions.h"

/* The square root, correctly rounded on every target: the float root (OpenCL lets a device's be 3
 * ulp off) made faithful by one Newton step, then rounded with the sign of the exact residual
 * x - s*s (an fma's rounding keeps the sign). A 16-bit value's root never lies on a midpoint
 * between two 16-bit values (a midpoint has one bit more than the format, its square more than a
 * 16-bit value holds), so that sign decides what a faithful float root leaves open. Below 2^-100
 * (bfloat16's smallest values) x is scaled by 2^64 first, so that the residual stays above float's
 * subnormals. */
template <typename Format>
AGH_LOCAL_FUNCTION unsigned short agh_sqrt_bits(unsigned short bits) {
  float x = Format::to_float(bits);
  if (!(x > 0.0f) || !__builtin_isfinite(x)) /* zeros, negatives, NaN, infinity */
    return Format::round(__builtin_sqrtf(x));
  const bool tiny = x < 0x1p-100f;
  if (tiny) x *= 0x1p64f;
  float s = __builtin_sqrtf(x);
  s += __builtin_fmaf(-s, s, x) / (2.0f * s);
  const float residual = __builtin_fmaf(-s, s, x);
  if (tiny) s *= 0x1p-32f;
  return Format::round_beyond(s, agh_sign(residual));
}

/* 10^x in float: kernel.h's exp10f on GPU targets, glibc's on the host, else powf (whose base 10
 * is exact). */
AGH_LOCAL_FUNCTION float agh_exp10f(float x) {
#if defined(AGH_GPU_TARGET) || defined(__USE_GNU)
  return exp10f(x);
#else
  return powf(10.0f, x);
#endif
}

/* One function computed in float from the 16-bit value, then rounded once. */
#define AGH_IN_FLOAT(T, F, name, expression_of_x)       \
  AGH_LOCAL_FUNCTION T name(T a) {                      \
    const float x = F::to_float(a.__x);                 \
    return agh_from_bits<T>(F::round(expression_of_x)); \
  }
#define AGH_PAIR_FORM(T2, name2, name) \
  AGH_LOCAL_FUNCTION T2 name2(T2 a) {  \
    return T2(name(a.x), name(a.y));   \
  }

/* T the scalar, T2 the pair, F the format (half_formats.h). */
#define AGH_MATH_ONE_TYPE(T, T2, F)                                                 \
  AGH_LOCAL_FUNCTION T hsqrt(T a) {                                                 \
    return agh_from_bits<T>(agh_sqrt_bits<F>(a.__x));                               \
  }                                                                                 \
  /* 1/a as __hdiv computes it: correctly rounded */                                \
  AGH_LOCAL_FUNCTION T hrcp(T a) {                                                  \
    return agh_from_bits<T>(F::div(F::one, a.__x));                                 \
  }                                                                                 \
  AGH_IN_FLOAT(T, F, hrsqrt, 1.0f / __builtin_sqrtf(x))                             \
  AGH_IN_FLOAT(T, F, hexp, expf(x))                                                 \
  AGH_IN_FLOAT(T, F, hexp2, exp2f(x))                                               \
  AGH_IN_FLOAT(T, F, hexp10, agh_exp10f(x))                                         \
  AGH_IN_FLOAT(T, F, hlog, logf(x))                                                 \
  AGH_IN_FLOAT(T, F, hlog2, log2f(x))                                               \
  AGH_IN_FLOAT(T, F, hlog10, log10f(x))                                             \
  AGH_IN_FLOAT(T, F, hsin, sinf(x))                                                 \
  AGH_IN_FLOAT(T, F, hcos, cosf(x))                                                 \
  AGH_IN_FLOAT(T, F, htanh, tanhf(x))                                               \
  /* CUDA's approximation may be off by 2^-10.7; the accurate one is within that */ \
  AGH_IN_FLOAT(T, F, htanh_approx, tanhf(x))                                        \
  AGH_IN_FLOAT(T, F, hceil, __builtin_ceilf(x))                                     \
  AGH_IN_FLOAT(T, F, hfloor, __builtin_floorf(x))                                   \
  AGH_IN_FLOAT(T, F, htrunc, __builtin_truncf(x))                                   \
  AGH_IN_FLOAT(T, F, hrint, __builtin_rintf(x)) /* halfway to even */               \
  AGH_PAIR_FORM(T2, h2sqrt, hsqrt)                                                  \
  AGH_PAIR_FORM(T2, h2rsqrt, hrsqrt)                                                \
  AGH_PAIR_FORM(T2, h2rcp, hrcp)                                                    \
  AGH_PAIR_FORM(T2, h2exp, hexp)                                                    \
  AGH_PAIR_FORM(T2, h2exp2, hexp2)                                                  \
  AGH_PAIR_FORM(T2, h2exp10, hexp10)                                                \
  AGH_PAIR_FORM(T2, h2log, hlog)                                                    \
  AGH_PAIR_FORM(T2, h2log2, hlog2)                                                  \
  AGH_PAIR_FORM(T2, h2log10, hlog10)                                                \
  AGH_PAIR_FORM(T2, h2sin, hsin)                                                    \
  AGH_PAIR_FORM(T2, h2cos, hcos)                                                    \
  AGH_PAIR_FORM(T2, h2tanh, htanh)                                                  \
  AGH_PAIR_FORM(T2, h2tanh_approx, htanh_approx)                                    \
  AGH_PAIR_FORM(T2, h2ceil, hceil)                                                  \
  AGH_PAIR_FORM(T2, h2floor, hfloor)                                                \
  AGH_PAIR_FORM(T2, h2trunc, htrunc)                                                \
  AGH_PAIR_FORM(T2, h2rint, hrint)

AGH_MATH_ONE_TYPE(__half, __half2, agh_fp16)
AGH_MATH_ONE_TYPE(__nv_bfloat16, __nv_bfloat162, agh_bf16)
#undef AGH_MATH_ONE_TYPE
#undef AGH_PAIR_FORM
#undef AGH_IN_FLOAT

#endif /* ANYGPU_DETAIL_HALF_MATH_H */
