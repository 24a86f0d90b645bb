/* math_host_vector.h — float exponentials and logarithms for the host target's barrier-pass
 * builds, computed in double by straight-line code the loop vectorizer can widen (glibc's expf &
 * co are calls it cannot). The barrier pass points every call to expf, exp2f, exp10f, logf, log2f
 * and log10f in a kernel's source file at these (loaders/cpu/barrier_pass/vector_math.cpp), in its
 * loops and on fibers alike, so both paths give the same bits. A double result within 1e-13 of
 * the exact one, rounded once to float: at most 0.5 ulp plus a rounding of the double, well within
 * CUDA's bounds (1 to 2 ulp). Included by kernel_host.h under ANYGPU_WORKITEM_LOOPS; do not include
 * directly. */
#ifndef ANYGPU_DETAIL_MATH_HOST_VECTOR_H
#define ANYGPU_DETAIL_MATH_HOST_VECTOR_H

#include <stdint.h>
#include <string.h>

/* 2^y for y in [-160, 160]: y = k + f with k an integer and |f| <= 1/2, 2^f = e^(f ln 2) by its
 * Taylor series to degree 10 (remainder below 1e-12), 2^k put into the exponent's bits. */
static inline double agk_vector_exp2(double y) {
  const double shifter = 0x1.8p52; /* adding it leaves k = round(y) in the low bits */
  const double t = y + shifter;
  const double k = t - shifter;
  const double r = (y - k) * 0x1.62e42fefa39efp-1; /* exact y - k; ln 2 */
  double p = 1.0 / 3628800;
  p = 1.0 / 362880 + r * p;
  p = 1.0 / 40320 + r * p;
  p = 1.0 / 5040 + r * p;
  p = 1.0 / 720 + r * p;
  p = 1.0 / 120 + r * p;
  p = 1.0 / 24 + r * p;
  p = 1.0 / 6 + r * p;
  p = 0.5 + r * p;
  p = 1.0 + r * p;
  p = 1.0 + r * p;
  uint64_t bits;
  memcpy(&bits, &t, sizeof bits);
  const uint64_t scale_bits = (bits + 1023) << 52; /* (k + 1023) in the exponent field */
  double scale;
  memcpy(&scale, &scale_bits, sizeof scale);
  return p * scale;
}

/* The float argument x (as double) as x = 2^e m with m in [sqrt(1/2), sqrt(2)); returns ln m by
 * the series of atanh: ln m = 2 (s + s^3/3 + s^5/5 + ...), s = (m - 1)/(m + 1), |s| < 0.172. */
static inline double agk_vector_log_parts(double x, double* e) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  double exponent = (double)(int64_t)((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  double m;
  memcpy(&m, &bits, sizeof m);
  const int high = m > 0x1.6a09e667f3bcdp0; /* sqrt(2) */
  m = high ? m * 0.5 : m;
  *e = high ? exponent + 1 : exponent;
  const double s = (m - 1) / (m + 1), s2 = s * s;
  double p = 1.0 / 17;
  p = 1.0 / 15 + s2 * p;
  p = 1.0 / 13 + s2 * p;
  p = 1.0 / 11 + s2 * p;
  p = 1.0 / 9 + s2 * p;
  p = 1.0 / 7 + s2 * p;
  p = 1.0 / 5 + s2 * p;
  p = 1.0 / 3 + s2 * p;
  p = 1.0 + s2 * p;
  return 2 * s * p;
}

/* C99's results for the special arguments of a logarithm; `finite` for positive finite x. */
static inline float agk_vector_log_special(float x, double finite) {
  if (x > 0 && x <= 0x1.fffffep127f) return (float)finite;
  if (x == 0) return -__builtin_inff();
  if (x > 0 || x != x) return x + x; /* +inf; NaN stays NaN */
  return __builtin_nanf("");
}

#define AGK_VECTOR_EXP2_OF_FLOAT(y_of_x)                     \
  do {                                                       \
    double y_ = (y_of_x);                                    \
    y_ = y_ < -160.0 ? -160.0 : y_; /* 0 and inf beyond */   \
    y_ = y_ > 160.0 ? 160.0 : y_;   /* NaN passes through */ \
    return (float)agk_vector_exp2(y_);                       \
  } while (0)

#ifdef __cplusplus
extern "C" {
#endif
__attribute__((used)) static float agk_vector_expf(float x) {
  AGK_VECTOR_EXP2_OF_FLOAT((double)x * 0x1.71547652b82fep0); /* log2(e) */
}
__attribute__((used)) static float agk_vector_exp2f(float x) {
  AGK_VECTOR_EXP2_OF_FLOAT((double)x);
}
__attribute__((used)) static float agk_vector_exp10f(float x) {
  AGK_VECTOR_EXP2_OF_FLOAT((double)x * 0x1.a934f0979a371p1); /* log2(10) */
}
__attribute__((used)) static float agk_vector_logf(float x) {
  double e;
  const double ln_m = agk_vector_log_parts(x, &e);
  return agk_vector_log_special(x, e * 0x1.62e42fefa39efp-1 + ln_m);
}
__attribute__((used)) static float agk_vector_log2f(float x) {
  double e;
  const double ln_m = agk_vector_log_parts(x, &e);
  return agk_vector_log_special(x, e + ln_m * 0x1.71547652b82fep0);
}
__attribute__((used)) static float agk_vector_log10f(float x) {
  double e;
  const double ln_m = agk_vector_log_parts(x, &e);
  return agk_vector_log_special(x, (e * 0x1.62e42fefa39efp-1 + ln_m) * 0x1.bcb7b1526e50ep-2);
}
#ifdef __cplusplus
}
#endif

#endif /* ANYGPU_DETAIL_MATH_HOST_VECTOR_H */
