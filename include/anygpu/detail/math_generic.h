/* math_generic.h — CUDA's math additions that OpenCL lacks, computed from OpenCL's built-ins on
 * SPIR-V (in the argument's own precision: many SPIR-V devices have no double). Included by
 * math_gpu.h; do not include directly. */
#ifndef ANYGPU_DETAIL_MATH_GENERIC_H
#define ANYGPU_DETAIL_MATH_GENERIC_H

/* erfinv: Giles' approximation ("Approximating the erfinv function", GPU Computing Gems), then
 * Newton steps on erf, or on erfc in the tails where erf has no digits left. */
template <typename T>
AG_DEVICE T agk_erfinv_guess(T y) {
  T w = -log((T(1) - y) * (T(1) + y));
  T p;
  if (w < T(5)) {
    w = w - T(2.5);
    p = T(2.81022636e-08);
    p = T(3.43273939e-07) + p * w;
    p = T(-3.5233877e-06) + p * w;
    p = T(-4.39150654e-06) + p * w;
    p = T(0.00021858087) + p * w;
    p = T(-0.00125372503) + p * w;
    p = T(-0.00417768164) + p * w;
    p = T(0.246640727) + p * w;
    p = T(1.50140941) + p * w;
  } else {
    w = sqrt(w) - T(3);
    p = T(-0.000200214257);
    p = T(0.000100950558) + p * w;
    p = T(0.00134934322) + p * w;
    p = T(-0.00367342844) + p * w;
    p = T(0.00573950773) + p * w;
    p = T(-0.0076224613) + p * w;
    p = T(0.00943887047) + p * w;
    p = T(1.00167406) + p * w;
    p = T(2.83297682) + p * w;
  }
  return p * y;
}
/* The root of erfc(x) = c for c in (0, 1], by Newton from a guess for small c. */
template <typename T>
AG_DEVICE T agk_erfcinv_small(T c) {
  const T two_over_sqrt_pi = T(1.1283791670955126);
  T x = c > T(0.0625) ? agk_erfinv_guess(T(1) - c)
                      : sqrt(-log(c) - log(sqrt(-log(c)) * T(1.7724538509055160)));
  for (int step = 0; step < 4; ++step) x += (erfc(x) - c) / (two_over_sqrt_pi * exp(-x * x));
  return x;
}
template <typename T>
AG_DEVICE T agk_erfcinv(T c) {
  if (!(c >= T(0) && c <= T(2))) return T(NAN);
  if (c == T(0)) return T(INFINITY);
  if (c == T(2)) return -T(INFINITY);
  return c > T(1) ? -agk_erfcinv_small(T(2) - c) : agk_erfcinv_small(c);
}
template <typename T>
AG_DEVICE T agk_erfinv(T y) {
  if (fabs(y) > T(0.5)) return y > T(0) ? agk_erfcinv(T(1) - y) : -agk_erfcinv(T(1) + y);
  if (y == T(0)) return y;
  const T two_over_sqrt_pi = T(1.1283791670955126);
  T x = agk_erfinv_guess(y);
  for (int step = 0; step < 2; ++step) x -= (erf(x) - y) / (two_over_sqrt_pi * exp(-x * x));
  return x;
}
/* erfcx: exp(x^2) erfc(x), with x^2 split so that its rounding does not reach the exponential;
 * a continued fraction once erfc underflows. */
template <typename T>
AG_DEVICE T agk_erfcx(T x, T asymptotic_from) {
  if (x < asymptotic_from) {
    T square = x * x;
    T square_error = fma(x, x, -square);
    return exp(square) * (T(1) + square_error) * erfc(x);
  }
  T fraction = x;
  for (int k = 12; k >= 1; --k) fraction = x + T(k) * T(0.5) / fraction;
  return T(0.56418958354775628) / fraction;  // 1/sqrt(pi) / (x + 1/2/(x + 1/(x + 3/2/...)))
}
/* normcdf(x) = erfc(-x / sqrt 2) / 2, with the product's rounding error carried separately:
 * erfc's slope turns it into a large relative error for large |x|. */
template <typename T>
AG_DEVICE T agk_normcdf(T x) {
  const T high = T(0.70710678118654752), low = T(-4.8336466567264567e-17);
  T t = -x * high;
  T t_error = fma(-x, high, -t) - x * low;
  T result = erfc(t) - T(1.1283791670955126) * exp(-t * t) * t_error;
  return T(0.5) * result;
}
template <typename T>
AG_DEVICE T agk_norm(T x, T y, T z, T w) {
  x = fabs(x), y = fabs(y), z = fabs(z), w = fabs(w);
  if (x == T(INFINITY) || y == T(INFINITY) || z == T(INFINITY) || w == T(INFINITY))
    return T(INFINITY);
  T largest = fmax(fmax(x, y), fmax(z, w));
  if (largest == T(0) || !(largest == largest)) return largest + x + y + z + w;
  x /= largest, y /= largest, z /= largest, w /= largest;
  return largest * sqrt(x * x + y * y + z * z + w * w);
}

#define AGK_GENERIC(c, T, params, expression) \
  AG_DEVICE T c params {                      \
    return expression;                        \
  }
#define AGK_GENERIC_UNARY(c, float_expression, double_expression) \
  AGK_GENERIC(c##f, float, (float x), float_expression)           \
  AGK_GENERIC_OVERLOADS(c, (float x), (double x), c##f(x), double_expression)
#if defined(AGK_SPIRV_HIP)
#define AGK_GENERIC_OVERLOADS(c, float_params, double_params, float_call, double_expression) \
  AG_DEVICE float c float_params {                                                           \
    return float_call;                                                                       \
  }                                                                                          \
  AG_DEVICE double c double_params {                                                         \
    return double_expression;                                                                \
  }
#else
#define AGK_GENERIC_OVERLOADS(c, float_params, double_params, float_call, double_expression)
#endif
AGK_GENERIC_UNARY(erfinv, agk_erfinv(x), agk_erfinv(x))
AGK_GENERIC_UNARY(erfcinv, agk_erfcinv(x), agk_erfcinv(x))
AGK_GENERIC_UNARY(erfcx, agk_erfcx(x, 9.0f), agk_erfcx(x, 26.0))
AGK_GENERIC_UNARY(normcdf, agk_normcdf(x), agk_normcdf(x))
AGK_GENERIC_UNARY(normcdfinv, -1.41421356f * agk_erfcinv(2.0f * x),
                  -1.4142135623730951 * agk_erfcinv(2.0 * x))
AGK_GENERIC_UNARY(rcbrt, 1.0f / cbrt(x), 1.0 / cbrt(x))
AGK_GENERIC_UNARY(nearbyint, rint(x), rint(x))
AGK_GENERIC(rhypotf, float, (float x, float y), 1.0f / hypot(x, y))
AGK_GENERIC_OVERLOADS(rhypot, (float x, float y), (double x, double y), rhypotf(x, y),
                      1.0 / hypot(x, y))
AGK_GENERIC(norm3df, float, (float x, float y, float z), agk_norm(x, y, z, 0.0f))
AGK_GENERIC_OVERLOADS(norm3d, (float x, float y, float z), (double x, double y, double z),
                      norm3df(x, y, z), agk_norm(x, y, z, 0.0))
AGK_GENERIC(rnorm3df, float, (float x, float y, float z), 1.0f / agk_norm(x, y, z, 0.0f))
AGK_GENERIC_OVERLOADS(rnorm3d, (float x, float y, float z), (double x, double y, double z),
                      rnorm3df(x, y, z), 1.0 / agk_norm(x, y, z, 0.0))
AGK_GENERIC(norm4df, float, (float x, float y, float z, float w), agk_norm(x, y, z, w))
AGK_GENERIC_OVERLOADS(norm4d, (float x, float y, float z, float w),
                      (double x, double y, double z, double w), norm4df(x, y, z, w),
                      agk_norm(x, y, z, w))
AGK_GENERIC(rnorm4df, float, (float x, float y, float z, float w), 1.0f / agk_norm(x, y, z, w))
AGK_GENERIC_OVERLOADS(rnorm4d, (float x, float y, float z, float w),
                      (double x, double y, double z, double w), rnorm4df(x, y, z, w),
                      1.0 / agk_norm(x, y, z, w))
AG_DEVICE void sincospif(float x, float* s, float* c) {
  *s = sinpi(x);
  *c = cospi(x);
}
#if defined(AGK_SPIRV_HIP)
AG_DEVICE void sincospi(float x, float* s, float* c) {
  sincospif(x, s, c);
}
AG_DEVICE void sincospi(double x, double* s, double* c) {
  *s = sinpi(x);
  *c = cospi(x);
}
#endif

#endif /* ANYGPU_DETAIL_MATH_GENERIC_H */
