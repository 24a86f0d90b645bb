/* math_host.h — CUDA's math additions on the host target, where libm has the rest. Float forms
 * are computed in double and double forms in long double, then rounded once, so that each is
 * within CUDA's documented bound (docs/kernel-dialect.md, Math); rsqrtf, below, is two correctly
 * rounded float operations instead. Included by kernel_host.h; do
 * not include directly. */
#ifndef ANYGPU_DETAIL_MATH_HOST_H
#define ANYGPU_DETAIL_MATH_HOST_H

#include <math.h>
#ifdef __cplusplus
#include <cmath> /* std::cyl_bessel_i */
#endif

#define AGK_PI_L 3.141592653589793238462643383279502884L

/* sin(pi x) and cos(pi x), with x reduced exactly to [0, 1/2] first. */
static inline long double agk_sinpi_l(long double x) {
  if (isinf(x)) return NAN;
  long double sign = signbit(x) ? -1.0L : 1.0L;
  long double r = fmodl(fabsl(x), 2.0L);  // exact
  if (r >= 1.0L) r -= 1.0L, sign = -sign;
  if (r > 0.5L) r = 1.0L - r;
  return sign * sinl(AGK_PI_L * r);
}
static inline long double agk_cospi_l(long double x) {
  if (isinf(x)) return NAN;
  long double r = fmodl(fabsl(x), 2.0L);
  if (r > 1.0L) r = 2.0L - r;
  long double result = sinl(AGK_PI_L * (0.5L - r));
  return result == 0.0L ? 0.0L : result;  // CUDA: cospi(n + 1/2) is +0
}

/* The root of erfc(x) = c for c in (0, 1], by Newton from a guess. */
static inline long double agk_erfcinv_small_l(long double c) {
  long double x;
  if (c > 0.0625L) {
    long double y = 1.0L - c, w = -logl((1.0L - y) * (1.0L + y)) - 2.5L;
    x = y * (1.50140941L + w * (0.246640727L + w * -0.00417768164L));
  } else {
    long double t = -logl(c);
    x = sqrtl(t - logl(sqrtl(t) * 1.772453850905516027298L));
  }
  for (int step = 0; step < 40; ++step) {
    long double dx =
        (erfcl(x) - c) / (1.128379167095512573896L * expl(-x * x));  // erfc' = -2/sqrt(pi) e^-x^2
    x += dx;
    if (fabsl(dx) <= fabsl(x) * 1e-19L) break;
  }
  return x;
}
static inline long double agk_erfcinv_l(long double c) {
  if (!(c >= 0.0L && c <= 2.0L)) return NAN;
  if (c == 0.0L) return INFINITY;
  if (c == 2.0L) return -INFINITY;
  return c > 1.0L ? -agk_erfcinv_small_l(2.0L - c) : agk_erfcinv_small_l(c);
}
static inline long double agk_erfinv_l(long double y) {
  if (!(fabsl(y) <= 1.0L)) return NAN;
  if (fabsl(y) > 0.5L) return y > 0 ? agk_erfcinv_l(1.0L - y) : -agk_erfcinv_l(1.0L + y);
  if (fabsl(y) < 1e-30L) return y * 0.886226925452758013649L;  // sqrt(pi)/2 y
  long double x = y * 0.886226925452758013649L;
  for (int step = 0; step < 40; ++step) {
    long double dx = (erfl(x) - y) / (1.128379167095512573896L * expl(-x * x));
    x -= dx;
    if (fabsl(dx) <= fabsl(x) * 1e-19L) break;
  }
  return x;
}
static inline long double agk_erfcx_l(long double x) {
  if (x < 100.0L) return expl(x * x) * erfcl(x);  // long double's range holds both up to x = 106
  /* 1/(x sqrt pi) sum (-1)^n (2n-1)!! s^n, s = 1/(2x^2) <= 5e-5: ten terms are far below an ulp */
  long double s = 1.0L / (2.0L * x * x), term = 1.0L, sum = 1.0L;
  for (int n = 1; n <= 10; ++n) {
    term *= -(2 * n - 1) * s;
    sum += term;
  }
  return sum / (x * 1.772453850905516027298L);
}
static inline long double agk_norm_l(long double x, long double y, long double z, long double w) {
  if (isinf(x) || isinf(y) || isinf(z) || isinf(w)) return INFINITY;  // even with a NaN, as CUDA
  return sqrtl(x * x + y * y + z * z + w * w);                        // long double: no overflow
}

/* glibc's double cbrt, exp10, tanh, j0, j1, y0 and y1 exceed CUDA's bounds (by its own account
 * 2 to 9 ulp; more near the Bessel functions' zeros). anygpu_add_kernels links host code objects
 * with --wrap for these names, so that calls to them reach these long double versions instead
 * (hidden: nothing outside the code object sees them). */
#ifdef __cplusplus
#define AGK_LIBM_LINKAGE extern "C"
#else
#define AGK_LIBM_LINKAGE
#endif
#define AGK_LIBM_IN_LONG_DOUBLE(name, expression)                                               \
  AGK_LIBM_LINKAGE __attribute__((weak, visibility("hidden"))) double __wrap_##name(double x) { \
    return (double)(expression);                                                                \
  }
AGK_LIBM_IN_LONG_DOUBLE(cbrt, cbrtl(x))
AGK_LIBM_IN_LONG_DOUBLE(exp10, powl(10.0L, x))
AGK_LIBM_IN_LONG_DOUBLE(tanh, tanhl(x))
#ifdef __USE_MISC /* glibc declares j0l & co */
AGK_LIBM_IN_LONG_DOUBLE(j0, j0l(x))
AGK_LIBM_IN_LONG_DOUBLE(j1, j1l(x))
AGK_LIBM_IN_LONG_DOUBLE(y0, y0l(x))
AGK_LIBM_IN_LONG_DOUBLE(y1, y1l(x))
#endif

/* Each addition as float and double C functions (C kernels have them too). */
#define AGK_HOST_UNARY(c, expression_of_x) \
  static inline double c(double x) {       \
    return (double)(expression_of_x);      \
  }                                        \
  static inline float c##f(float x) {      \
    return (float)c((double)x);            \
  }
/* rsqrtf as a float square root and a float division, both correctly rounded: at most 1.5 ulp,
 * within CUDA's 2, and sixteen lanes to an AVX-512 instruction (in double it was 0.5 ulp but twice
 * the work per lane: nbody spent its time there). The builtin is the square-root instruction, with
 * no errno to set. rsqrt's 1 ulp needs more than double gives: long double. */
#if defined(__has_builtin) && __has_builtin(__builtin_elementwise_sqrt)
#define AGK_SQRT_INSTRUCTION(x) __builtin_elementwise_sqrt(x)
#else
#define AGK_SQRT_INSTRUCTION(x) sqrt(x)
#endif
static inline double rsqrt(double x) {
  return (double)(1.0L / sqrtl(x));
}
static inline float rsqrtf(float x) {
  return 1.0f / AGK_SQRT_INSTRUCTION(x);
}
#undef AGK_SQRT_INSTRUCTION
AGK_HOST_UNARY(rcbrt, 1.0L / cbrtl(x))
AGK_HOST_UNARY(sinpi, agk_sinpi_l(x))
AGK_HOST_UNARY(cospi, agk_cospi_l(x))
AGK_HOST_UNARY(erfinv, agk_erfinv_l(x))
AGK_HOST_UNARY(erfcinv, agk_erfcinv_l(x))
AGK_HOST_UNARY(erfcx, agk_erfcx_l(x))
AGK_HOST_UNARY(normcdf, 0.5L * erfcl(-(long double)x * 0.707106781186547524401L))
AGK_HOST_UNARY(normcdfinv, -1.414213562373095048802L * agk_erfcinv_l(2.0L * x))
static inline double rhypot(double x, double y) {
  return (double)(1.0L / hypotl(x, y));
}
static inline float rhypotf(float x, float y) {
  return (float)rhypot(x, y);
}
static inline double norm3d(double x, double y, double z) {
  return (double)agk_norm_l(x, y, z, 0.0L);
}
static inline float norm3df(float x, float y, float z) {
  return (float)norm3d(x, y, z);
}
static inline double rnorm3d(double x, double y, double z) {
  return (double)(1.0L / agk_norm_l(x, y, z, 0.0L));
}
static inline float rnorm3df(float x, float y, float z) {
  return (float)rnorm3d(x, y, z);
}
static inline double norm4d(double x, double y, double z, double w) {
  return (double)agk_norm_l(x, y, z, w);
}
static inline float norm4df(float x, float y, float z, float w) {
  return (float)norm4d(x, y, z, w);
}
static inline double rnorm4d(double x, double y, double z, double w) {
  return (double)(1.0L / agk_norm_l(x, y, z, w));
}
static inline float rnorm4df(float x, float y, float z, float w) {
  return (float)rnorm4d(x, y, z, w);
}
static inline void sincospi(double x, double* s, double* c) {
  *s = sinpi(x);
  *c = cospi(x);
}
static inline void sincospif(float x, float* s, float* c) {
  *s = sinpif(x);
  *c = cospif(x);
}

/* CUDA's intrinsics: on the host the accurate functions, which meet their looser bounds. glibc's
 * <math.h> declares (but libm does not export) its own __expf & co, hence macros. */
#define __expf(x) expf(x)
#define __exp10f(x) ((float)pow(10.0, (double)(x)))
#define __logf(x) logf(x)
#define __log2f(x) log2f(x)
#define __log10f(x) log10f(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __powf(x, y) powf(x, y)
#define __sincosf(x, s, c) (*(s) = sinf(x), *(c) = cosf(x), (void)0)
static inline float __fdividef(float x, float y) {
  return x / y;
}
static inline float __saturatef(float x) {
  return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f);
}
#define AGK_ROUNDED_FUNCTION static inline
#include "math_rounded.h"

#ifdef __cplusplus
/* The float overloads C++ code calls, as CUDA declares them. */
#define AGK_HOST_FLOAT_OVERLOAD_1(c) \
  static inline float c(float x) {   \
    return c##f(x);                  \
  }
AGK_HOST_FLOAT_OVERLOAD_1(rsqrt)
AGK_HOST_FLOAT_OVERLOAD_1(rcbrt)
AGK_HOST_FLOAT_OVERLOAD_1(sinpi)
AGK_HOST_FLOAT_OVERLOAD_1(cospi)
AGK_HOST_FLOAT_OVERLOAD_1(erfinv)
AGK_HOST_FLOAT_OVERLOAD_1(erfcinv)
AGK_HOST_FLOAT_OVERLOAD_1(erfcx)
AGK_HOST_FLOAT_OVERLOAD_1(normcdf)
AGK_HOST_FLOAT_OVERLOAD_1(normcdfinv)
static inline float rhypot(float x, float y) {
  return rhypotf(x, y);
}
static inline float norm3d(float x, float y, float z) {
  return norm3df(x, y, z);
}
static inline float rnorm3d(float x, float y, float z) {
  return rnorm3df(x, y, z);
}
static inline float norm4d(float x, float y, float z, float w) {
  return norm4df(x, y, z, w);
}
static inline float rnorm4d(float x, float y, float z, float w) {
  return rnorm4df(x, y, z, w);
}
static inline void sincospi(float x, float* s, float* c) {
  sincospif(x, s, c);
}
static inline float exp10(float x) {
  return exp10f(x);
}
static inline void sincos(float x, float* s, float* c) {
  sincosf(x, s, c);
}
/* The modified Bessel functions of orders 0 and 1 (C++17's special functions; C has none). */
static inline long double agk_bessel_i_l(long double order, double x) {
  if (isnan(x)) return x;
  if (fabs(x) > 720.0) return INFINITY;  // beyond double's range; libstdc++ would throw
  return std::cyl_bessel_i(order, (long double)fabs(x));
}
static inline double cyl_bessel_i0(double x) {
  return (double)agk_bessel_i_l(0.0L, x);
}
static inline double cyl_bessel_i1(double x) {
  const long double value = agk_bessel_i_l(1.0L, x);
  return (double)(signbit(x) ? -value : value);
}
static inline float cyl_bessel_i0f(float x) {
  return (float)cyl_bessel_i0(x);
}
static inline float cyl_bessel_i1f(float x) {
  return (float)cyl_bessel_i1(x);
}
static inline float cyl_bessel_i0(float x) {
  return cyl_bessel_i0f(x);
}
static inline float cyl_bessel_i1(float x) {
  return cyl_bessel_i1f(x);
}
static inline float j0(float x) {
  return j0f(x);
}
static inline float j1(float x) {
  return j1f(x);
}
static inline float y0(float x) {
  return y0f(x);
}
static inline float y1(float x) {
  return y1f(x);
}
#endif

#endif /* ANYGPU_DETAIL_MATH_HOST_H */
