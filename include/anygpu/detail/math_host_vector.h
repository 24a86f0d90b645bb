/* math_host_vector.h — exponentials, logarithms and erf for the host target's barrier-pass builds,
 * in straight-line code the loop vectorizer can widen (glibc's expf & co are calls it cannot). The
 * barrier pass points every call to expf, exp2f, exp10f, logf, log2f, log10f, erff, exp, log and
 * erf in a kernel's source file at these (loaders/cpu/barrier_pass/vector_math.cpp), in its loops
 * and on fibers alike, so both paths give the same bits.
 * No tables and no branches: pieces are picked by selects, so lanes stay independent. Float
 * functions compute in float, twice the lanes of double. Only + - * / and bit operations, so that
 * under -ffp-contract=off every target clone and the fiber path round alike. Largest errors found
 * (exhaustively for float, 5e7 arguments for double): expf 1.05 ulp, exp2f 1.10, exp10f 1.39,
 * logf 0.84, log2f 0.87, log10f 0.84, erff 0.89, exp 0.80, log 0.88, erf 1.17, within CUDA's
 * bounds. Included by kernel_host.h under ANYGPU_WORKITEM_LOOPS; do not include directly. */
#ifndef ANYGPU_DETAIL_MATH_HOST_VECTOR_H
#define ANYGPU_DETAIL_MATH_HOST_VECTOR_H

#include <stdint.h>
#include <string.h>

/* p 2^k for k in [-160, 130]: 2^k in two normal factors, the first product exact, the second
 * rounding once into the subnormals or overflowing to inf. */
static inline float agk_vector_scalef(float p, uint32_t k_bits) {
  const int32_t k = (int32_t)k_bits;
  const int32_t k1 = k >> 1;
  const uint32_t b1 = (uint32_t)(k1 + 127) << 23, b2 = (uint32_t)(k - k1 + 127) << 23;
  float s1, s2;
  memcpy(&s1, &b1, sizeof s1);
  memcpy(&s2, &b2, sizeof s2);
  return p * s1 * s2;
}

/* The float argument x = 2^e (1 + f), 1 + f in [sqrt(1/2), sqrt(2)), f exact; ln(1 + f) =
 * f - f^2/2 + s (f^2/2 + R), s = f / (2 + f), R = s^2 T(s^2) the tail of 2 atanh(s) / s - 2.
 * Returns f - ln(1 + f) = f^2/2 - s (f^2/2 + R) in two parts: *half_f2 and the rest. */
static inline float agk_vector_logf_parts(float x, float* e, float* f, float* half_f2) {
  const int tiny = x < 0x1p-126f; /* subnormals scaled into the normals by 2^24 */
  const float xs = tiny ? x * 0x1p24f : x;
  uint32_t bits;
  memcpy(&bits, &xs, sizeof bits);
  /* The bits of sqrt(1/2) subtracted, the exponent field of the difference is e, and taking it
   * off x leaves 1 + f. */
  const uint32_t shifted = bits - 0x3f3504f3u;
  *e = (float)((int32_t)shifted >> 23) - (tiny ? 24.0f : 0.0f);
  const uint32_t m_bits = bits - (shifted & 0xff800000u);
  float m;
  memcpy(&m, &m_bits, sizeof m);
  *f = m - 1.0f;
  const float s = *f / (2.0f + *f);
  const float z = s * s;
  /* T: Chebyshev fit on [0, 0.02944] (|s| < 0.1716) */
  float t = 0x1.ddcf66p-3f;
  t = 0x1.245c4p-2f + z * t;
  t = 0x1.9999ecp-2f + z * t;
  t = 0x1.555556p-1f + z * t;
  *half_f2 = 0.5f * *f * *f;
  return s * (*half_f2 + z * t);
}

/* C99's results for the special arguments of a logarithm; `finite` for positive finite x. */
static inline float agk_vector_logf_special(float x, float finite) {
  const int ok = (x > 0) & (x <= 0x1.fffffep127f);
  return ok ? finite : x == 0 ? -__builtin_inff() : x < 0 ? __builtin_nanf("") : x + x;
}

/* ln(1 + f) = hi + lo, hi with 12 significant bits so that hi times a 12-bit constant is exact. */
static inline float agk_vector_logf_hi(float f, float half_f2, float corr, float* lo) {
  float hi = f - half_f2;
  uint32_t bits;
  memcpy(&bits, &hi, sizeof bits);
  bits &= 0xfffff000u;
  memcpy(&hi, &bits, sizeof hi);
  *lo = ((f - hi) - half_f2) + corr;
  return hi;
}

/* erf on [0.75, 4] in float by one of three Chebyshev fits in t = x - c, picked by selects: erf x =
 * erf(c) + t q(t), with c chosen so that erf(c) is a float to 1e-4 ulp, which leaves only the small
 * t q(t) to round. */
static inline float agk_vector_erff_piece(float a) {
  const int p0 = a < 1.6f, p1 = a < 2.5f;
#define AGK_ERFF_C(c0, c1, c2) (p0 ? (c0) : p1 ? (c1) : (c2))
  const float t = a - AGK_ERFF_C(0x1.2c35f8p+0f, 0x1.05dc5cp+1f, 0x1.9f883ap+1f);
  float q = AGK_ERFF_C(0x1.02c376p-10f, -0x1.b2d0cp-13f, 0x1.6e385ep-22f);
  q = AGK_ERFF_C(0x1.ef6096p-15f, -0x1.c5152cp-14f, 0x1.64440ap-16f) + t * q;
  q = AGK_ERFF_C(-0x1.8d44d4p-8f, 0x1.9535f8p-10f, -0x1.5eed06p-14f) + t * q;
  q = AGK_ERFF_C(0x1.dedecep-8f, -0x1.7083e4p-9f, 0x1.6e9f8ep-13f) + t * q;
  q = AGK_ERFF_C(0x1.2cc4ecp-6f, -0x1.164296p-11f, -0x1.18b438p-12f) + t * q;
  q = AGK_ERFF_C(-0x1.ce7ceap-5f, 0x1.ac7678p-7f, 0x1.4ea1f4p-12f) + t * q;
  q = AGK_ERFF_C(0x1.c7e362p-7f, -0x1.01989ap-5f, -0x1.329216p-12f) + t * q;
  q = AGK_ERFF_C(0x1.54d914p-3f, 0x1.599d18p-5f, 0x1.a39752p-13f) + t * q;
  q = AGK_ERFF_C(-0x1.5685fap-2f, -0x1.1fca58p-5f, -0x1.96fe3p-14f) + t * q;
  q = AGK_ERFF_C(0x1.2414d2p-2f, 0x1.19596cp-6f, 0x1.f578b8p-16f) + t * q;
  const float tail = AGK_ERFF_C(0x1.ce3834p-1f, 0x1.fe0c24p-1f, 0x1.ffff6cp-1f) + t * q;
#undef AGK_ERFF_C
  return tail;
}

/* e^x = 2^k e^r for the double functions: k = round(x / ln 2), r = x - k ln 2 carried as r + r_lo
 * (ln 2 in two parts, the first with 21 trailing zeros so k ln2_hi is exact for |k| < 2^21),
 * |r| <= 0.347. Returns e^r and k. */
static inline double agk_vector_exp_parts(double x, int64_t* k) {
  const double shifter = 0x1.8p52; /* adding it leaves k = round(x / ln 2) in the low bits */
  const double t = x * 0x1.71547652b82fep0 + shifter;
  const double kd = t - shifter;
  uint64_t bits;
  memcpy(&bits, &t, sizeof bits);
  *k = (int64_t)(bits - 0x4338000000000000ull);
  const double hi = x - kd * 0x1.62e42fee00000p-1; /* exact (Sterbenz) */
  const double lo = kd * 0x1.a39ef35793c76p-33;
  const double r = hi - lo;
  const double r_lo = (hi - r) - lo; /* what rounding r lost */
  /* (e^r - 1 - r) / r^2: Chebyshev fit on [-0.3466, 0.3466], error below 2e-18; by Estrin's
   * scheme, a shorter chain of dependent operations than Horner's */
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double q0 = 0.5 + 0x1.5555555555557p-3 * r;
  const double q1 = 0x1.5555555555556p-5 + 0x1.11111111100dcp-7 * r;
  const double q2 = 0x1.6c16c16c162d5p-10 + 0x1.a01a01abe78f9p-13 * r;
  const double q3 = 0x1.a01a01a6d84aap-16 + 0x1.71de0232f4775p-19 * r;
  const double q4 = 0x1.27e4db653346ep-22 + 0x1.af4de6a36d4fcp-26 * r;
  const double q5 = 0x1.1f7301a8efa5cp-29;
  const double q = ((q0 + q1 * r2) + (q2 + q3 * r2) * r4) + (q4 + q5 * r2) * r8;
  /* 1 + r exactly as h + l (Fast2Sum), so that only the last addition rounds by much. */
  const double h = 1.0 + r;
  const double l = (1.0 - h) + r;
  return h + (l + (r2 * q + r_lo));
}

/* 2^k as a double, for k in [-1022, 1023]. */
static inline double agk_vector_pow2(int64_t k) {
  const uint64_t bits = (uint64_t)(k + 1023) << 52;
  double scale;
  memcpy(&scale, &bits, sizeof scale);
  return scale;
}

/* erf on [0.5, 6] by one of four Chebyshev fits of degree 15 in t = x - c, picked by selects
 * rather than a table so that the lanes stay independent: on [0.5, 1] erf x - 0.6875, beyond
 * (erfc x) e^(x^2), which is smooth and slowly varying. Errors below 0.03 ulp of erf x. */
static inline double agk_vector_erf_piece(double a) {
  const int in0 = a < 1.0, in1 = a < 2.0, in2 = a < 3.5;
#define AGK_ERF_C(c0, c1, c2, c3) (in0 ? (c0) : in1 ? (c1) : in2 ? (c2) : (c3))
  const double t = a - AGK_ERF_C(0.75, 1.5, 2.75, 4.75);
  const double c0 = AGK_ERF_C(0x1.8392eb3a1cbeep-6, 0x1.494daffa2ad68p-2, 0x1.8c9eb68ff27d6p-3,
                              0x1.dc603a3e77e8ep-4);
  const double c1 = AGK_ERF_C(0x1.492e42d78d2c5p-1, -0x1.4f1988444caf7p-3, -0x1.0305781330098p-4,
                              -0x1.81149bc4a1043p-6);
  const double c2 = AGK_ERF_C(-0x1.edc5644353c28p-2, 0x1.37ea271bc55a0p-4, 0x1.43b98bac83f03p-6,
                              0x1.317c144f8f64ap-8);
  const double c3 = AGK_ERF_C(0x1.b6e8591f66e59p-6, -0x1.0dc51d2941ee4p-5, -0x1.84e9ab30e7097p-8,
                              -0x1.dc1af883a890ep-11);
  const double c4 = AGK_ERF_C(0x1.349b5eaa147c5p-3, 0x1.b65944f32a576p-7, 0x1.c2c72fd626f6cp-10,
                              0x1.6cc10c0f34f30p-13);
  const double c5 = AGK_ERF_C(-0x1.b42a1890ce2b2p-5, -0x1.513ed75ff9ad6p-8, -0x1.f99e41ebd4d5dp-12,
                              -0x1.12f174374d566p-15);
  const double c6 = AGK_ERF_C(-0x1.b84779673e6eap-6, 0x1.ee705e987b820p-10, 0x1.131bb1d2e3a05p-13,
                              0x1.9818c50f2679cp-18);
  const double c7 = AGK_ERF_C(0x1.2e0afb0ba36cbp-6, -0x1.5b0abff9c2a92p-11, -0x1.2312b2badfeadp-15,
                              -0x1.2a625cfc1addcp-20);
  const double c8 = AGK_ERF_C(0x1.2db3340b9d8e0p-9, 0x1.d4508ae09730fp-13, 0x1.2bfb299220ea4p-17,
                              0x1.ae1e4a6ffac89p-23);
  const double c9 = AGK_ERF_C(-0x1.04105cc142928p-8, -0x1.30c0e2f1726a0p-14, -0x1.2da2ff5b44ce9p-19,
                              -0x1.31c2fbf4067c1p-25);
  const double c10 = AGK_ERF_C(0x1.862105e9830fap-13, 0x1.7f9e4d674bd86p-16, 0x1.2862a554f9330p-21,
                               0x1.ad3605c5f3d7ap-28);
  const double c11 = AGK_ERF_C(0x1.472594c5aafeep-11, -0x1.d41a7f9e3cd6fp-18,
                               -0x1.1cd99b6f030b5p-23, -0x1.293a6d961a158p-30);
  const double c12 = AGK_ERF_C(-0x1.bd0846d3b6f75p-14, 0x1.14b718ccbc836p-19, 0x1.0a918d9e5d9dfp-25,
                               0x1.90cd7db80d5c8p-33);
  const double c13 = AGK_ERF_C(-0x1.3da59fa9bab9ep-14, -0x1.3f46ec5c2de67p-21,
                               -0x1.ec2d2e6cba5f8p-28, -0x1.0f091c3e44fb7p-35);
  const double c14 = AGK_ERF_C(0x1.65ac18f2cd729p-16, 0x1.835e0a520b1cfp-23, 0x1.f41aec24044e4p-30,
                               0x1.b31a06cd2a72cp-38);
  const double c15 = AGK_ERF_C(0x1.d88574713fc08p-18, -0x1.a7ba6423339dep-25,
                               -0x1.bb1a1ce3fdbf3p-32, -0x1.1e4ee48aea4edp-40);
#undef AGK_ERF_C
  /* Estrin's scheme: a shorter chain of dependent operations than Horner's */
  const double t2 = t * t, t4 = t2 * t2, t8 = t4 * t4;
  const double p0 = c0 + c1 * t, p1 = c2 + c3 * t, p2 = c4 + c5 * t, p3 = c6 + c7 * t;
  const double p4 = c8 + c9 * t, p5 = c10 + c11 * t, p6 = c12 + c13 * t, p7 = c14 + c15 * t;
  const double q0 = p0 + p1 * t2, q1 = p2 + p3 * t2, q2 = p4 + p5 * t2, q3 = p6 + p7 * t2;
  return (q0 + q1 * t4) + (q2 + q3 * t4) * t8;
}

#ifdef __cplusplus
extern "C" {
#endif
__attribute__((used)) static float agk_vector_expf(float x) {
  x = x > 89.0f ? 89.0f : x; /* past these e^x is inf or 0; NaN passes through */
  x = x < -104.0f ? -104.0f : x;
  const float shifter = 0x1.8p23f; /* adding it leaves k = round(x / ln 2) in the low bits */
  const float t = x * 0x1.715476p+0f + shifter;
  const float k = t - shifter;
  uint32_t bits;
  memcpy(&bits, &t, sizeof bits);
  /* r = x - k ln 2, ln 2 in two parts, the first short enough that k ln2_hi is exact */
  const float r = (x - k * 0x1.62ep-1f) - k * 0x1.0bfbe8p-15f;
  /* e^r = 1 + r + r^2 q(r), q a Chebyshev fit on [-0.3466, 0.3466] */
  float q = 0x1.6d1106p-10f;
  q = 0x1.120b6cp-7f + r * q;
  q = 0x1.55551ap-5f + r * q;
  q = 0x1.5554dcp-3f + r * q;
  q = 0x1p-1f + r * q;
  return agk_vector_scalef(1.0f + (r + r * r * q), bits - 0x4b400000u);
}
__attribute__((used)) static float agk_vector_exp2f(float x) {
  x = x > 129.0f ? 129.0f : x; /* past these 2^x is inf or 0; NaN passes through */
  x = x < -151.0f ? -151.0f : x;
  const float shifter = 0x1.8p23f; /* adding it leaves k = round(x) in the low bits */
  const float t = x + shifter;
  const float r = x - (t - shifter); /* exact, |r| <= 1/2 */
  uint32_t bits;
  memcpy(&bits, &t, sizeof bits);
  /* 2^r = 1 + r ln 2 + r^2 q(r), q a Chebyshev fit on [-1/2, 1/2] */
  float q = 0x1.43e716p-13f;
  q = 0x1.5ec866p-10f + r * q;
  q = 0x1.3b2a8p-7f + r * q;
  q = 0x1.c6afeep-5f + r * q;
  q = 0x1.ebfbep-3f + r * q;
  return agk_vector_scalef(1.0f + (r * 0x1.62e43p-1f + r * r * q), bits - 0x4b400000u);
}
__attribute__((used)) static float agk_vector_exp10f(float x) {
  x = x > 39.0f ? 39.0f : x; /* past these 10^x is inf or 0; NaN passes through */
  x = x < -46.0f ? -46.0f : x;
  const float shifter = 0x1.8p23f; /* adding it leaves k = round(x log2(10)) in the low bits */
  const float t = x * 0x1.a934fp+1f + shifter;
  const float k = t - shifter;
  uint32_t bits;
  memcpy(&bits, &t, sizeof bits);
  /* r = x - k log10(2), log10(2) in two parts as ln 2 in expf; 10^r = 1 + r ln 10 + r^2 q(r), q a
   * Chebyshev fit on [-0.1506, 0.1506] */
  const float r = (x - k * 0x1.344p-2f) - k * 0x1.3509f8p-18f;
  float q = 0x1.a91162p-3f;
  q = 0x1.1527a8p-1f + r * q;
  q = 0x1.2bd72cp+0f + r * q;
  q = 0x1.046ffcp+1f + r * q;
  q = 0x1.53524cp+1f + r * q;
  return agk_vector_scalef(1.0f + (r * 0x1.26bb1cp+1f + r * r * q), bits - 0x4b400000u);
}
__attribute__((used)) static float agk_vector_logf(float x) {
  float e, f, half_f2;
  const float corr = agk_vector_logf_parts(x, &e, &f, &half_f2);
  const float ln_m = corr + e * 0x1.0bfbe8p-15f; /* ln 2 = ln2_hi + ln2_lo */
  const float e_ln2 = e * 0x1.62ep-1f;
  const float h = e_ln2 + f; /* e ln2_hi + f exactly as h + l (Fast2Sum) */
  const float l = f - (h - e_ln2);
  return agk_vector_logf_special(x, h + (l - (half_f2 - ln_m)));
}
__attribute__((used)) static float agk_vector_log2f(float x) {
  float e, f, half_f2, lo;
  const float corr = agk_vector_logf_parts(x, &e, &f, &half_f2);
  const float hi = agk_vector_logf_hi(f, half_f2, corr, &lo);
  /* (hi + lo) / ln 2, 1 / ln 2 = 0x1.716p0 - 0x1.7135a8p-13 */
  const float y = ((lo + hi) * -0x1.7135a8p-13f + lo * 0x1.716p+0f) + hi * 0x1.716p+0f;
  return agk_vector_logf_special(x, y + e);
}
__attribute__((used)) static float agk_vector_log10f(float x) {
  float e, f, half_f2, lo;
  const float corr = agk_vector_logf_parts(x, &e, &f, &half_f2);
  const float hi = agk_vector_logf_hi(f, half_f2, corr, &lo);
  /* e log10(2) + (hi + lo) / ln 10, each constant in a short head and a tail */
  const float y =
      ((e * -0x1.95ec1p-19f + (lo + hi) * -0x1.09d5b2p-15f) + lo * 0x1.bccp-2f) + hi * 0x1.bccp-2f;
  return agk_vector_logf_special(x, y + e * 0x1.3442p-2f);
}
/* Past the inliner's default threshold (the selects of constants count), yet a call would keep the
 * loop scalar. */
__attribute__((used, always_inline)) static inline float agk_vector_erff(float x) {
  uint32_t bits;
  memcpy(&bits, &x, sizeof bits);
  const uint32_t sign = bits & 0x80000000u;
  bits ^= sign;
  float a;
  memcpy(&a, &bits, sizeof a);
  /* |x| < 0.75: erf x = x + x P(x^2), P a Chebyshev fit to erf(x) / x - 1; x carries the result
   * exactly and the correction is at most 0.06 x. */
  const float u = x * x;
  float p = -0x1.623bfp-11f;
  p = 0x1.4f3d08p-8f + u * p;
  p = -0x1.b7aaap-6f + u * p;
  p = 0x1.ce2ae2p-4f + u * p;
  p = -0x1.81273ap-2f + u * p;
  p = 0x1.06eba8p-3f + u * p;
  const float small = x + x * p;
  float big = a >= 4.0f ? 1.0f : agk_vector_erff_piece(a); /* +-1 in float from 3.92 on */
  memcpy(&bits, &big, sizeof bits);
  bits |= sign;
  memcpy(&big, &bits, sizeof big);
  return a < 0.75f ? small : big;
}
__attribute__((used)) static double agk_vector_exp(double x) {
  /* Past these e^x is inf or 0 (k stays in [-1076, 1024]); NaN passes through. */
  x = x > 710.0 ? 710.0 : x;
  x = x < -746.0 ? -746.0 : x;
  int64_t k;
  const double p = agk_vector_exp_parts(x, &k);
  /* 2^k in two factors, each a normal double: the first product is exact, the second rounds once
   * into the subnormals or overflows to inf. */
  const int64_t k1 = k >> 1;
  return p * agk_vector_pow2(k1) * agk_vector_pow2(k - k1);
}
__attribute__((used)) static double agk_vector_log(double x) {
  /* Subnormals scaled into the normals by 2^54. */
  const int tiny = x < 0x1p-1022;
  const double xs = tiny ? x * 0x1p54 : x;
  uint64_t bits;
  memcpy(&bits, &xs, sizeof bits);
  /* x = 2^e m with m in [sqrt(1/2), sqrt(2)): the bits of sqrt(1/2) subtracted, the exponent
   * field of the difference is e, and taking it off x leaves m. */
  const uint64_t shifted = bits - 0x3fe6a09e667f3bcdull;
#ifdef __AVX512DQ__
  const double e = (double)((int64_t)shifted >> 52) - (tiny ? 54.0 : 0.0);
#else
  /* Without AVX-512DQ an int64 conversion does not vectorize well: the 12-bit field offset by
   * 2048 in the mantissa of 2^52, then both taken off, gives e exactly as well. */
  const uint64_t e_bits = 0x4330000000000000ull | ((shifted >> 52) ^ 0x800);
  double e_biased;
  memcpy(&e_biased, &e_bits, sizeof e_biased);
  const double e = (e_biased - 0x1.0000000000800p52) - (tiny ? 54.0 : 0.0);
#endif
  const uint64_t m_bits = bits - (shifted & 0xfff0000000000000ull);
  double m;
  memcpy(&m, &m_bits, sizeof m);
  /* ln(1 + f) = f - f^2/2 + s (f^2/2 + R) with s = f / (2 + f), R = s^2 T(s^2) the tail of
   * 2 atanh(s) / s - 2; f is exact and carries the result, the rest is a correction. */
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  /* T: Chebyshev fit on [0, 0.02944] (|s| < 0.1716), error below 4e-16, which s z T scales to
   * 0.04 ulp */
  double t = 0x1.2b58f4c8d5f63p-3;
  t = 0x1.39fe52a20dc69p-3 + z * t;
  t = 0x1.7462b5152e8a6p-3 + z * t;
  t = 0x1.c71c62e40b94ep-3 + z * t;
  t = 0x1.2492492df26cep-2 + z * t;
  t = 0x1.99999999952d8p-2 + z * t;
  t = 0x1.5555555555558p-1 + z * t;
  const double half_f2 = 0.5 * f * f;
  const double ln_m = s * (half_f2 + z * t) + e * 0x1.a39ef35793c76p-33;
  /* e ln2_hi + f exactly as h + l (Fast2Sum: |e ln2_hi| >= |f| unless e = 0, when h = f). */
  const double e_ln2 = e * 0x1.62e42fee00000p-1;
  const double h = e_ln2 + f;
  const double l = f - (h - e_ln2);
  const double y = h + (l - (half_f2 - ln_m));
  /* C99: log(+0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN stays NaN. */
  const int finite = (x > 0) & (x <= 0x1.fffffffffffffp1023);
  return finite ? y : x == 0 ? -__builtin_inf() : x < 0 ? __builtin_nan("") : x + x;
}
/* Past the inliner's default threshold, yet a call would keep the loop scalar. */
__attribute__((used, always_inline)) static inline double agk_vector_erf(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  const uint64_t sign = bits & 0x8000000000000000ull;
  bits ^= sign;
  double ax;
  memcpy(&ax, &bits, sizeof ax);
  /* |x| < 0.5: erf x = x + x P(x^2), P a Chebyshev fit of degree 9 to erf(x) / x - 1 (error below
   * 1e-19); x carries the result exactly and the correction is at most 0.05 x. */
  const double u = x * x;
  /* by Estrin's scheme, a shorter chain of dependent operations than Horner's */
  const double u2 = u * u, u4 = u2 * u2, u8 = u4 * u4;
  const double p0 = 0x1.06eba8214db69p-3 - 0x1.812746b0379e6p-2 * u;
  const double p1 = 0x1.ce2f21a042b29p-4 - 0x1.b82ce3127f739p-6 * u;
  const double p2 = 0x1.565bcd0aa6349p-8 - 0x1.c02db23d41138p-11 * u;
  const double p3 = 0x1.f9a2a6635fe79p-14 - 0x1.f4bb9f7301dedp-17 * u;
  const double p4 = 0x1.b776442df3041p-20 - 0x1.39fb524e9c1f7p-23 * u;
  const double p = ((p0 + p1 * u2) + (p2 + p3 * u2) * u4) + p4 * u8;
  const double small = x + x * p;
  /* Otherwise erf |x| = 0.6875 + P(t) up to 1, 1 - e^(-x^2) P(t) beyond, which rounds to 1 past 6.
   * The error in x^2 moves erfc by at most 2^-53 x^2 erfc x, a small part of an ulp of erf. */
  const double a = ax > 6.0 ? 6.0 : ax; /* NaN passes through */
  int64_t k;
  const double e = agk_vector_exp_parts(-(a * a), &k) * agk_vector_pow2(k);
  const int near = a < 1.0;
  double big = (near ? 0.6875 : 1.0) + (near ? 1.0 : -e) * agk_vector_erf_piece(a);
  memcpy(&bits, &big, sizeof bits);
  bits |= sign;
  memcpy(&big, &bits, sizeof big);
  return ax < 0.5 ? small : big;
}
#ifdef __cplusplus
}
#endif

#endif /* ANYGPU_DETAIL_MATH_HOST_VECTOR_H */
