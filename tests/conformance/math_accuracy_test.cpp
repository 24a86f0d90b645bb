// CUDA's math functions measured against a high-precision reference (MPFR at 128 bits, where it
// has the function) on every device present (the
// CPU, and the CUDA, HIP and Level Zero test drivers in their suites; a real GPU through
// tests/gpu/run-cuda.sh): each function over dense argument ranges, special values, subnormals
// and large arguments, in float and double. The largest error, in ulps of the correctly rounded
// result, must be within the bound of the CUDA Programming Guide's tables for that function.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

#ifdef ANYGPU_TEST_HAVE_MPFR
#include <mpfr.h>
#include "tests/cuda_sources/math_function_list.h"

using namespace anygpu_test;

namespace {

using Real = long double;
using Reference = Real (*)(Real, Real, Real, Real);

constexpr Real pi = 3.141592653589793238462643383279502884L;
constexpr Real inf = std::numeric_limits<Real>::infinity();

// f(x, ...) at 128 bits by MPFR, rounded to long double (64 bits: far below a double's ulp).
class Mpfr {
 public:
  Mpfr() { mpfr_init2(value, 128); }
  explicit Mpfr(Real x) : Mpfr() { mpfr_set_ld(value, x, MPFR_RNDN); }
  ~Mpfr() { mpfr_clear(value); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
  Real get() const { return mpfr_get_ld(value, MPFR_RNDN); }
  mpfr_t value;
};
using MpfrUnary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using MpfrBinary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
Real mp(MpfrUnary f, Real x) {
  Mpfr a(x), r;
  f(r.value, a.value, MPFR_RNDN);
  return r.get();
}
Real mp(MpfrBinary f, Real x, Real y) {
  Mpfr a(x), b(y), r;
  f(r.value, a.value, b.value, MPFR_RNDN);
  return r.get();
}
Real mp_fma(Real x, Real y, Real z) {
  Mpfr a(x), b(y), c(z), r;
  mpfr_fma(r.value, a.value, b.value, c.value, MPFR_RNDN);
  return r.get();
}
Real mp_lgamma(Real x) {
  Mpfr a(x), r;
  int sign = 0;
  mpfr_lgamma(r.value, &sign, a.value, MPFR_RNDN);
  return r.get();
}
// 1 / f(x) at 128 bits.
Real mp_reciprocal(MpfrUnary f, Real x) {
  Mpfr a(x), r;
  f(r.value, a.value, MPFR_RNDN);
  mpfr_ui_div(r.value, 1, r.value, MPFR_RNDN);
  return r.get();
}
// erfc(-x / sqrt 2) / 2 at 128 bits.
Real mp_normcdf(Real x) {
  Mpfr a(x), root_two, r;
  mpfr_sqrt_ui(root_two.value, 2, MPFR_RNDN);
  mpfr_div(r.value, a.value, root_two.value, MPFR_RNDN);
  mpfr_neg(r.value, r.value, MPFR_RNDN);
  mpfr_erfc(r.value, r.value, MPFR_RNDN);
  mpfr_div_2ui(r.value, r.value, 1, MPFR_RNDN);
  return r.get();
}
// exp(x^2) erfc(x) at 128 bits; past x = 1e4 its asymptotic series, exact to far below an ulp.
Real mp_erfcx(Real x) {
  if (std::isnan(x)) return x;
  if (x > 1e4L) {  // 1/(x sqrt pi) (1 - s + 3 s^2 - ...), s = 1/(2 x^2) <= 5e-9
    const Real s = 1 / (2 * x * x);
    return (1 - s + 3 * s * s) / (x * std::sqrt(pi));
  }
  Mpfr a(x), square, r;
  mpfr_sqr(square.value, a.value, MPFR_RNDN);
  mpfr_exp(square.value, square.value, MPFR_RNDN);
  mpfr_erfc(r.value, a.value, MPFR_RNDN);
  mpfr_mul(r.value, r.value, square.value, MPFR_RNDN);
  return r.get();
}
// sqrt(x^2 + y^2 + z^2 + w^2) (or its inverse) at 128 bits; infinite if any argument is.
Real mp_norm(Real x, Real y, Real z, Real w, bool inverse) {
  if (std::isinf(x) || std::isinf(y) || std::isinf(z) || std::isinf(w)) return inverse ? 0 : inf;
  Mpfr sum(0), term;
  for (Real v : {x, y, z, w}) {
    Mpfr a(v);
    mpfr_sqr(term.value, a.value, MPFR_RNDN);
    mpfr_add(sum.value, sum.value, term.value, MPFR_RNDN);
  }
  mpfr_sqrt(sum.value, sum.value, MPFR_RNDN);
  if (inverse) mpfr_ui_div(sum.value, 1, sum.value, MPFR_RNDN);
  return sum.get();
}

// The root of an increasing function by bisection: slow, but independent of the code under test.
template <typename F>
Real bisect(F f, Real target, Real low, Real high) {
  for (int step = 0; step < 200 && low < high; ++step) {
    Real middle = (low + high) / 2;
    if (middle == low || middle == high) break;
    (f(middle) < target ? low : high) = middle;
  }
  return (low + high) / 2;
}
Real reference_erfinv(Real y) {
  if (!(std::fabs(y) <= 1)) return NAN;
  if (std::fabs(y) == 1) return std::copysign(inf, y);
  if (y == 0) return y;
  if (std::fabs(y) < 1e-30L) return y * std::sqrt(pi) / 2;
  if (y > 0.5L) return bisect([](Real x) { return -std::erfc(x); }, -(1 - y), 0, 30);
  if (y < -0.5L) return -bisect([](Real x) { return -std::erfc(x); }, -(1 + y), 0, 30);
  return bisect([](Real x) { return std::erf(x); }, y, -2, 2);
}
Real reference_erfcinv(Real c) {
  if (c < 0 || c > 2 || std::isnan(c)) return NAN;
  if (c == 1) return 0;
  if (c == 0) return inf;
  if (c == 2) return -inf;
  if (c > 1) return -bisect([](Real x) { return -std::erfc(x); }, -(2 - c), 0, 110);
  return bisect([](Real x) { return -std::erfc(x); }, -c, 0, 110);
}
// I0 and I1 by their power series, sum (x/2)^(2k+order) / (k! (k+order)!): every term positive.
Real bessel_i(int order, Real x) {
  if (std::isnan(x)) return x;
  if (std::fabs(x) > 800) return order == 1 && x < 0 ? -inf : inf;
  const Real half = std::fabs(x) / 2;
  Real term = order == 0 ? 1 : half, sum = 0;
  for (int k = 0; term > sum * 1e-22L || k < 4; ++k) {
    sum += term;
    term *= half * half / ((k + 1) * (k + 1 + order));
  }
  return order == 1 && x < 0 ? -sum : sum;
}

// CUDA's bound for one function, in ulps of the correctly rounded result (0: correctly
// rounded); for the Bessel functions an absolute bound where |x| >= 8.
struct Bound {
  double ulps;
  double absolute = 0;
};

struct Function {
  MathFunction id;
  const char* name;
  int arity;
  Bound float_bound, double_bound;
  Reference reference;
  std::vector<std::pair<Real, Real>> ranges;  // every argument is drawn from these
  bool bessel = false;                        // not on SPIR-V
};

#define R1(expression) [](Real x, Real, Real, Real) -> Real { return expression; }
#define R2(expression) [](Real x, Real y, Real, Real) -> Real { return expression; }
#define R3(expression) [](Real x, Real y, Real z, Real) -> Real { return expression; }
#define R4(expression) [](Real x, Real y, Real z, Real w) -> Real { return expression; }
const std::pair<Real, Real> wide{-1e30L, 1e30L};
const std::pair<Real, Real> unit{-1, 1};

// The CUDA Programming Guide's tables (Mathematical Functions, Standard Functions).
const std::vector<Function>& functions() {
  static const std::vector<Function> all = {
      {math_acos, "acos", 1, {2}, {2}, R1(mp(mpfr_acos, x)), {{-1.1L, 1.1L}}},
      {math_acosh, "acosh", 1, {4}, {3}, R1(mp(mpfr_acosh, x)), {{0.9L, 10}, {1, 1e30L}}},
      {math_asin, "asin", 1, {2}, {2}, R1(mp(mpfr_asin, x)), {{-1.1L, 1.1L}}},
      {math_asinh, "asinh", 1, {3}, {3}, R1(mp(mpfr_asinh, x)), {{-10, 10}, wide}},
      {math_atan, "atan", 1, {2}, {2}, R1(mp(mpfr_atan, x)), {{-10, 10}, wide}},
      {math_atanh, "atanh", 1, {3}, {2}, R1(mp(mpfr_atanh, x)), {{-1.1L, 1.1L}}},
      {math_cbrt, "cbrt", 1, {1}, {1}, R1(mp(mpfr_cbrt, x)), {{-10, 10}, wide}},
      {math_cos, "cos", 1, {2}, {2}, R1(mp(mpfr_cos, x)), {{-10, 10}, {-1e6L, 1e6L}, wide}},
      {math_cosh, "cosh", 1, {2}, {1}, R1(mp(mpfr_cosh, x)), {{-100, 100}, {-800, 800}}},
      {math_cospi, "cospi", 1, {1}, {2}, R1(mp(mpfr_cospi, x)), {{-4, 4}, wide}},
      {math_erf, "erf", 1, {2}, {2}, R1(mp(mpfr_erf, x)), {{-6, 6}}},
      {math_erfc, "erfc", 1, {4}, {5}, R1(mp(mpfr_erfc, x)), {{-6, 30}}},
      {math_erfcinv, "erfcinv", 1, {4}, {6}, R1(reference_erfcinv(x)), {{0, 2}, {0, 1e-20L}}},
      {math_erfcx, "erfcx", 1, {4}, {4}, R1(mp_erfcx(x)), {{-9, 30}, {0, 1e30L}}},
      {math_erfinv, "erfinv", 1, {2}, {5}, R1(reference_erfinv(x)), {{-1, 1}, {0.999L, 1}}},
      {math_exp, "exp", 1, {2}, {1}, R1(mp(mpfr_exp, x)), {{-110, 110}, {-750, 750}}},
      {math_exp10, "exp10", 1, {2}, {1}, R1(mp(mpfr_exp10, x)), {{-50, 50}, {-330, 330}}},
      {math_exp2, "exp2", 1, {2}, {1}, R1(mp(mpfr_exp2, x)), {{-160, 160}, {-1100, 1100}}},
      {math_expm1,
       "expm1",
       1,
       {1},
       {1},
       R1(mp(mpfr_expm1, x)),
       {{-1, 1}, {-110, 110}, {-750, 750}}},
      {math_j0, "j0", 1, {9, 2.2e-6}, {7, 5e-12}, R1(mp(mpfr_j0, x)), {{-8, 8}, {-100, 100}}, true},
      {math_j1, "j1", 1, {9, 2.2e-6}, {7, 5e-12}, R1(mp(mpfr_j1, x)), {{-8, 8}, {-100, 100}}, true},
      // lgamma: CUDA bounds it outside (-10.001, -2.264) for float and (-23.0001, -2.2637) for
      // double (larger inside); the ranges keep out of both.
      {math_lgamma,
       "lgamma",
       1,
       {6},
       {4},
       R1(mp_lgamma(x)),
       {{-2.26L, 10}, {0, 1e30L}, {-60, -23.5L}}},
      {math_log, "log", 1, {1}, {1}, R1(mp(mpfr_log, x)), {{0, 10}, {0, 1e30L}, {-1, 0}}},
      {math_log10, "log10", 1, {2}, {1}, R1(mp(mpfr_log10, x)), {{0, 10}, {0, 1e30L}}},
      {math_log1p, "log1p", 1, {1}, {1}, R1(mp(mpfr_log1p, x)), {{-1, 1}, {-1, 1e30L}}},
      {math_log2, "log2", 1, {1}, {1}, R1(mp(mpfr_log2, x)), {{0, 10}, {0, 1e30L}}},
      {math_logb, "logb", 1, {0}, {0}, R1(std::logb(x)), {wide}},
      {math_normcdf, "normcdf", 1, {5}, {5}, R1(mp_normcdf(x)), {{-40, 10}}},
      {math_normcdfinv,
       "normcdfinv",
       1,
       {5},
       {8},
       R1(-std::sqrt(2.0L) * reference_erfcinv(2 * x)),
       {{0, 1}, {0, 1e-20L}}},
      {math_rcbrt, "rcbrt", 1, {1}, {1}, R1(mp_reciprocal(mpfr_cbrt, x)), {{-10, 10}, wide}},
      {math_rsqrt,
       "rsqrt",
       1,
       {2},
       {1},
       R1(x == 0 ? std::copysign(inf, x) : mp(mpfr_rec_sqrt, x)),
       {{0, 10}, {0, 1e30L}}},
      {math_sin, "sin", 1, {2}, {2}, R1(mp(mpfr_sin, x)), {{-10, 10}, {-1e6L, 1e6L}, wide}},
      {math_sinh, "sinh", 1, {3}, {2}, R1(mp(mpfr_sinh, x)), {{-1, 1}, {-100, 100}, {-800, 800}}},
      {math_sinpi, "sinpi", 1, {1}, {2}, R1(mp(mpfr_sinpi, x)), {{-4, 4}, wide}},
      {math_sqrt, "sqrt", 1, {0}, {0}, R1(mp(mpfr_sqrt, x)), {{0, 10}, wide}},
      {math_tan, "tan", 1, {4}, {2}, R1(mp(mpfr_tan, x)), {{-10, 10}, {-1e6L, 1e6L}}},
      {math_tanh, "tanh", 1, {2}, {1}, R1(mp(mpfr_tanh, x)), {{-1, 1}, {-30, 30}}},
      {math_tgamma, "tgamma", 1, {5}, {10}, R1(mp(mpfr_gamma, x)), {{-40, 40}, {0, 200}}},
      {math_y0, "y0", 1, {9, 2.2e-6}, {7, 5e-12}, R1(mp(mpfr_y0, x)), {{0, 8}, {0, 100}}, true},
      {math_y1, "y1", 1, {9, 2.2e-6}, {7, 5e-12}, R1(mp(mpfr_y1, x)), {{0, 8}, {0, 100}}, true},
      {math_cyl_bessel_i0,
       "cyl_bessel_i0",
       1,
       {6},
       {6},
       R1(bessel_i(0, x)),
       {{-20, 20}, {-700, 700}},
       true},
      {math_cyl_bessel_i1,
       "cyl_bessel_i1",
       1,
       {6},
       {6},
       R1(bessel_i(1, x)),
       {{-20, 20}, {-700, 700}},
       true},
      {math_nearbyint, "nearbyint", 1, {0}, {0}, R1(std::nearbyint(x)), {{-10, 10}, wide}},
      {math_rint, "rint", 1, {0}, {0}, R1(std::rint(x)), {{-10, 10}, wide}},
      {math_round, "round", 1, {0}, {0}, R1(std::round(x)), {{-10, 10}, wide}},
      {math_trunc, "trunc", 1, {0}, {0}, R1(std::trunc(x)), {{-10, 10}, wide}},
      {math_floor, "floor", 1, {0}, {0}, R1(std::floor(x)), {{-10, 10}, wide}},
      {math_ceil, "ceil", 1, {0}, {0}, R1(std::ceil(x)), {{-10, 10}, wide}},
      {math_fabs, "fabs", 1, {0}, {0}, R1(std::fabs(x)), {wide}},
      {math_atan2, "atan2", 2, {3}, {2}, R2(mp(mpfr_atan2, x, y)), {{-10, 10}, wide}},
      {math_copysign, "copysign", 2, {0}, {0}, R2(std::copysign(x, y)), {wide}},
      {math_fdim, "fdim", 2, {0}, {0}, R2(std::fdim(x, y)), {{-10, 10}, wide}},
      {math_fmax, "fmax", 2, {0}, {0}, R2(std::fmax(x, y)), {wide}},
      {math_fmin, "fmin", 2, {0}, {0}, R2(std::fmin(x, y)), {wide}},
      {math_fmod, "fmod", 2, {0}, {0}, R2(mp(mpfr_fmod, x, y)), {{-10, 10}, wide}},
      {math_hypot, "hypot", 2, {3}, {2}, R2(mp(mpfr_hypot, x, y)), {{-10, 10}, wide}},
      {math_nextafter, "nextafter", 2, {0}, {0}, R2(0), {wide}},  // compared bit for bit below
      {math_pow, "pow", 2, {4}, {2}, R2(mp(mpfr_pow, x, y)), {{0, 10}, {-40, 40}}},
      {math_remainder, "remainder", 2, {0}, {0}, R2(mp(mpfr_remainder, x, y)), {{-10, 10}, wide}},
      {math_rhypot, "rhypot", 2, {2}, {1}, R2(1 / mp(mpfr_hypot, x, y)), {{-10, 10}, wide}},
      {math_fma, "fma", 3, {0}, {0}, R3(mp_fma(x, y, z)), {{-10, 10}}},
      {math_norm3d, "norm3d", 3, {3}, {2}, R3(mp_norm(x, y, z, 0, false)), {{-10, 10}, wide}},
      {math_rnorm3d, "rnorm3d", 3, {3}, {2}, R3(mp_norm(x, y, z, 0, true)), {{-10, 10}, wide}},
      {math_norm4d, "norm4d", 4, {3}, {2}, R4(mp_norm(x, y, z, w, false)), {{-10, 10}, wide}},
      {math_rnorm4d, "rnorm4d", 4, {3}, {2}, R4(mp_norm(x, y, z, w, true)), {{-10, 10}, wide}},
  };
  return all;
}

// A reproducible stream of values in [0, 1).
struct Stream {
  uint64_t state;
  Real next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<Real>(state >> 11) / static_cast<Real>(1ull << 53);
  }
};

// A value from [low, high]: uniform, or (one in two) with a uniformly drawn exponent, so that
// wide ranges are sampled at every scale.
Real draw(Stream& stream, std::pair<Real, Real> range) {
  auto [low, high] = range;
  if (stream.next() < 0.5L) return low + (high - low) * stream.next();
  Real magnitude_high = std::max(std::fabs(low), std::fabs(high));
  Real magnitude_low =
      low <= 0 && high >= 0 ? magnitude_high * 1e-30L : std::min(std::fabs(low), std::fabs(high));
  Real magnitude = std::exp(std::log(magnitude_low) +
                            (std::log(magnitude_high) - std::log(magnitude_low)) * stream.next());
  Real sign = (low < 0 && (high <= 0 || stream.next() < 0.5L)) ? -1 : 1;
  return std::clamp(sign * magnitude, low, high);
}

template <typename T>
std::vector<T> special_values() {
  using limits = std::numeric_limits<T>;
  std::vector<T> values = {0,
                           1,
                           2,
                           0.5,
                           3,
                           8,
                           1e-3f,
                           100,
                           limits::denorm_min(),
                           limits::min(),
                           limits::max(),
                           limits::infinity(),
                           limits::quiet_NaN()};
  const size_t positive = values.size();
  for (size_t i = 0; i < positive; ++i) values.push_back(-values[i]);
  return values;
}

// The largest error and where it is.
struct Measured {
  double ulps = 0;
  double absolute = 0;  // Bessel functions, |x| >= 8
  std::string worst;
};

template <typename T>
Real ulp_of(T value) {
  const int exponent = std::max(std::ilogb(value), std::numeric_limits<T>::min_exponent - 1);
  return std::ldexp(Real(1), exponent - (std::numeric_limits<T>::digits - 1));
}

// |got - exact|, in ulps of the correctly rounded result (infinite where they differ in kind: a
// NaN, an infinity). CUDA's bound N (from the correctly rounded result) allows N + 0.5 here.
template <typename T>
double error_in_ulps(T got, Real exact) {
  if (std::isnan(exact)) return std::isnan(got) ? 0 : inf;
  if (std::isnan(got)) return inf;
  if (Real(got) == exact) return 0;
  const T rounded = static_cast<T>(exact);
  if (got == rounded) return 0;  // also an overflow to the same infinity
  const Real largest = std::numeric_limits<T>::max();
  // An infinity counts as 2^(emax + 1), one ulp past the largest value, as libm's tests count it:
  // libdevice's hypot(1, DBL_MAX) overflows to it on an H200, 1 ulp from the exact result.
  if (std::isinf(got) || std::isinf(rounded)) {
    const Real beyond = largest + ulp_of<T>(std::numeric_limits<T>::max());
    const Real got_finite = std::isinf(got) ? std::copysign(beyond, Real(got)) : Real(got);
    const Real exact_finite = std::isinf(exact) ? std::copysign(beyond, exact) : exact;
    return static_cast<double>(std::fabs(got_finite - exact_finite) / ulp_of<T>(largest));
  }
  const T scale = rounded == 0 ? std::numeric_limits<T>::denorm_min() : rounded;
  return static_cast<double>(std::fabs(Real(got) - exact) / ulp_of<T>(scale));
}

class MathAccuracyTest : public ::testing::TestWithParam<int> {
 protected:
  template <typename T>
  Measured measure(const Function& function, const char* kernel) {
    // Arguments: the special values in every position, then drawn ones.
    std::vector<T> args[4];
    const std::vector<T> specials = special_values<T>();
    for (T special : specials) {
      for (int a = 0; a < 4; ++a) args[a].push_back(special);
      if (function.arity >= 2) {
        for (T other : specials) {
          args[0].push_back(special);
          args[1].push_back(other);
          args[2].push_back(other);
          args[3].push_back(special);
        }
      }
    }
    Stream stream{static_cast<uint64_t>(function.id) * 7919u + sizeof(T)};
    const size_t per_range = function.arity == 1 ? 2500 : 1200;
    for (const auto& range : function.ranges) {
      for (size_t i = 0; i < per_range; ++i) {
        for (int a = 0; a < 4; ++a) args[a].push_back(static_cast<T>(draw(stream, range)));
      }
    }
    for (int a = 1; a < 4; ++a) args[a].resize(args[0].size());
    unsigned n = static_cast<unsigned>(args[0].size());
    DeviceBuffer<T> x(device, args[0]), y(device, args[1]), z(device, args[2]), w(device, args[3]);
    DeviceBuffer<T> out(device, n);
    int id = function.id;
    void* params[] = {&id, &n, x.param(), y.param(), z.param(), w.param(), out.param()};
    EXPECT_EQ(AG_SUCCESS, agLaunchKernel(module.function(kernel), (n + 255) / 256, 1, 1, 256, 1, 1,
                                         0, nullptr, params, nullptr))
        << last_detail();
    const std::vector<T> got = out.download();

    Measured measured;
    for (unsigned i = 0; i < n; ++i) {
      const T a = args[0][i], b = args[1][i], c = args[2][i], d = args[3][i];
      double error;
      if (function.id == math_nextafter) {
        const T expected = std::nextafter(a, b);
        error = (std::isnan(expected) && std::isnan(got[i])) || got[i] == expected ? 0 : inf;
      } else {
        const Real exact = function.reference(a, b, c, d);
        const Bound& bound = sizeof(T) == 4 ? function.float_bound : function.double_bound;
        if (bound.absolute > 0 && std::fabs(Real(a)) >= 8 && std::isfinite(exact)) {
          const double absolute = static_cast<double>(std::fabs(Real(got[i]) - exact));
          if (!(absolute <= measured.absolute)) measured.absolute = absolute;
          continue;
        }
        error = error_in_ulps(got[i], exact);
      }
      if (!(error <= measured.ulps)) {
        measured.ulps = error;
        std::ostringstream where;
        where << std::setprecision(std::numeric_limits<T>::max_digits10) << "x=" << a;
        if (function.arity >= 2) where << " y=" << b;
        if (function.arity >= 3) where << " z=" << c;
        if (function.arity >= 4) where << " w=" << d;
        where << " gave " << got[i];
        measured.worst = where.str();
      }
    }
    return measured;
  }

  template <typename T>
  void check_every_function(const char* kernel, const char* suffix) {
    const bool spirv = device_backend_name(GetParam()) == "level_zero";
    for (const Function& function : functions()) {
      if (spirv && function.bessel) {
        std::cout << "math accuracy: " << function.name << suffix
                  << " not measured: OpenCL has no Bessel functions (a build error on SPIR-V)\n";
        continue;
      }
      const Bound& bound = sizeof(T) == 4 ? function.float_bound : function.double_bound;
      const Measured measured = measure<T>(function, kernel);
      // CUDA's bound counts from the correctly rounded result (0: correctly rounded).
      std::cout << "math accuracy: " << std::left << std::setw(16)
                << (std::string(function.name) + suffix) << " largest error "
                << std::setprecision(3) << std::setw(8) << measured.ulps
                << " ulp (CUDA: " << bound.ulps << " + 0.5)";
      if (bound.absolute > 0)
        std::cout << ", absolute " << measured.absolute << " for |x| >= 8 (CUDA: " << bound.absolute
                  << ")";
      std::cout << "\n";
      EXPECT_LE(measured.ulps, bound.ulps + 0.5)
          << function.name << suffix << ": " << measured.worst;
      EXPECT_LE(measured.absolute, bound.absolute) << function.name << suffix;
    }
  }

  ag_device device = device_at(GetParam());
  TestModule module{device};
};

TEST_P(MathAccuracyTest, FloatFunctionsWithinCudaBounds) {
  check_every_function<float>("_Z13math_functionIfEvijPKT_S2_S2_S2_PS0_", "f");
}

TEST_P(MathAccuracyTest, DoubleFunctionsWithinCudaBounds) {
  check_every_function<double>("_Z13math_functionIdEvijPKT_S2_S2_S2_PS0_", "");
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, MathAccuracyTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
#else
using namespace anygpu_test;
TEST(MathAccuracyTest, NeedsMpfr) {
  GTEST_SKIP() << "the math accuracy suite's reference is MPFR: install libmpfr-dev "
                  "(scripts/install-deps --test) and configure again";
}
#endif
