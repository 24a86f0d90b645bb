// CUDA's intrinsics named by their rounding (tests/cuda_sources/math_rounding.cu) on every device
// present (the CPU, and the CUDA, HIP and Level Zero test drivers in their suites), compared bit
// for bit with the host's own IEEE arithmetic in the same rounding: each reference is computed with
// the FPU's rounding mode set (fesetround around volatile operands). The operands: random values
// of every kind, and the cases directed rounding turns on: exact results, ties, cancellation to
// zero (its sign), subnormal and underflowing results, overflow, infinities and NaN. The
// conversions are compared with libm's rounding to integers (saturated as CUDA does) and with the
// host's conversions in each mode.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

constexpr int kOperations = 7, kRoundings = 4, kResults = kOperations * kRoundings;
const char* const kOperationNames[kOperations] = {"add", "sub", "mul", "div", "rcp", "sqrt", "fma"};
const char* const kRoundingNames[kRoundings] = {"rn", "rz", "ru", "rd"};
const int kModes[kRoundings] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};

unsigned blocks_for(size_t n, unsigned block) {
  return static_cast<unsigned>((n + block - 1) / block);
}

template <typename T>
struct Format;
template <>
struct Format<float> {
  using Bits = uint32_t;
};
template <>
struct Format<double> {
  using Bits = uint64_t;
};
template <typename T>
typename Format<T>::Bits bits(T x) {
  typename Format<T>::Bits b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
template <typename T>
T from_bits(typename Format<T>::Bits b) {
  T x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
template <typename T>
bool same(T expected, T got) {
  return bits(expected) == bits(got) || (std::isnan(expected) && std::isnan(got));
}

// One operation in the host's rounding mode `rounding`: the operands are read after the mode is
// set and the result stored before it is restored, so that no compiler moves the operation out.
template <typename T>
__attribute__((noinline)) T reference(int operation, T a, T b, T c, int rounding) {
  volatile T x = a, y = b, z = c, result;
  std::fesetround(kModes[rounding]);
  switch (operation) {
    case 0:
      result = x + y;
      break;
    case 1:
      result = x - y;
      break;
    case 2:
      result = x * y;
      break;
    case 3:
      result = x / y;
      break;
    case 4:
      result = T(1) / x;
      break;
    case 5:
      result = std::sqrt(static_cast<T>(x));
      break;
    default:
      result = std::fma(static_cast<T>(x), static_cast<T>(y), static_cast<T>(z));
      break;
  }
  const T out = result;
  std::fesetround(FE_TONEAREST);
  return out;
}

// An integer converted in the host's rounding mode (through long double, which holds every 64-bit
// integer exactly), and a double to float.
template <typename T, typename Integer>
__attribute__((noinline)) T convert_in_mode(Integer value, int rounding) {
  volatile long double wide = static_cast<long double>(value);
  std::fesetround(kModes[rounding]);
  volatile T result = static_cast<T>(wide);
  const T out = result;
  std::fesetround(FE_TONEAREST);
  return out;
}

// x rounded to an integer as CUDA's conversions do on an NVIDIA GPU (an H200 measured): NaN gives
// 0 from a float, 0x80000000 from a double to a 32-bit integer, 0x8000000000000000 for 64-bit
// results; values beyond the range their nearest end.
template <typename Integer, typename T>
Integer to_integer(T x, int rounding) {
  if (std::isnan(x)) {
    if (sizeof(Integer) == 8) return static_cast<Integer>(1ull << 63);
    return sizeof(T) == 8 ? static_cast<Integer>(1u << 31) : 0;
  }
  const long double v = x;
  const long double r = rounding == 0   ? std::nearbyint(v)
                        : rounding == 1 ? std::trunc(v)
                        : rounding == 2 ? std::ceil(v)
                                        : std::floor(v);
  if (r >= static_cast<long double>(std::numeric_limits<Integer>::max()))
    return std::numeric_limits<Integer>::max();
  if (r <= static_cast<long double>(std::numeric_limits<Integer>::min()))
    return std::numeric_limits<Integer>::min();
  return static_cast<Integer>(r);
}

// Operands: every pair of special values, then random ones of every kind.
template <typename T>
struct Operands {
  std::vector<T> a, b, c;
  void add(T x, T y, T z) {
    a.push_back(x);
    b.push_back(y);
    c.push_back(z);
  }
};

template <typename T>
Operands<T> arithmetic_operands() {
  using Limits = std::numeric_limits<T>;
  using Bits = typename Format<T>::Bits;
  constexpr int precision = Limits::digits, width = 8 * sizeof(T);
  constexpr int emin = Limits::min_exponent - 1, emax = Limits::max_exponent - 1;
  const T max = Limits::max(), tiny = Limits::denorm_min(), normal = Limits::min(),
          eps = Limits::epsilon(), inf = Limits::infinity();
  const std::vector<T> specials = {0,
                                   -T(0),
                                   1,
                                   -1,
                                   T(0.5),
                                   3,
                                   T(0.1),
                                   -T(1) / 3,
                                   1 + eps,
                                   1 - eps / 2,
                                   eps / 2,
                                   max,
                                   -max,
                                   normal,
                                   -normal,
                                   tiny,
                                   -tiny,
                                   normal / 2,
                                   3 * tiny,
                                   max / 2,
                                   inf,
                                   -inf,
                                   Limits::quiet_NaN(),
                                   T(2),
                                   1 + 2 * eps,
                                   2 * normal};
  Operands<T> ops;
  for (size_t i = 0; i < specials.size(); ++i)
    for (size_t j = 0; j < specials.size(); ++j)
      ops.add(specials[i], specials[j], specials[(i * 7 + j * 3) % specials.size()]);
  // Cases directed rounding turns on: exact sums and products, ties, x - x, a*b - a*b.
  ops.add(1, eps / 2, 0);             // 1 + eps/2: a tie
  ops.add(1, -eps / 4, 0);            // just below 1
  ops.add(max, max, -max);            // overflow; fma max*max - max overflows too
  ops.add(max, -max * eps / 4, max);  // max - a little: max rz, below max rd
  ops.add(normal, T(0.5), -normal);   // a subnormal product
  ops.add(tiny, T(0.5), 0);           // half the smallest subnormal: 0 rz/rd, tiny ru
  ops.add(-tiny, T(0.25), -0.0);
  ops.add(2, 2, -4);
  ops.add(1 + eps, 1 - eps, -1);

  std::mt19937_64 rng(sizeof(T) == 4 ? 20 : 21);
  auto random_bits = [&] { return from_bits<T>(static_cast<Bits>(rng())); };
  // A value with a random significand of `digits` bits (at most `precision`) and exponent e.
  auto value = [&](int e, int digits) {
    const uint64_t significand = (rng() >> (64 - digits)) | (1ull << (digits - 1));
    T x = std::ldexp(static_cast<T>(significand), e - (digits - 1));
    return rng() & 1 ? -x : x;
  };
  auto full = [&](int e) { return value(e, precision); };
  const int count = 40000;
  for (int i = 0; i < count; ++i) {
    T x, y, z;
    switch (i % 10) {
      case 0:  // any bits (NaN and infinities among them)
        x = random_bits(), y = random_bits(), z = random_bits();
        break;
      case 1:  // moderate values
        x = full(static_cast<int>(rng() % 40) - 20), y = full(static_cast<int>(rng() % 40) - 20);
        z = full(static_cast<int>(rng() % 40) - 20);
        break;
      case 2: {  // short significands: many exact sums, products and quotients
        const int digits = 1 + static_cast<int>(rng() % 8);
        x = value(static_cast<int>(rng() % 16) - 8, digits);
        y = value(static_cast<int>(rng() % 16) - 8, 1 + static_cast<int>(rng() % 8));
        z = value(static_cast<int>(rng() % 16) - 8, 1 + static_cast<int>(rng() % 8));
        break;
      }
      case 3: {  // results near the subnormals: products, quotients, roots, fma of tiny values
        const int target = emin - precision - 2 + static_cast<int>(rng() % (3 * precision + 8));
        const int e = static_cast<int>(rng() % 40) - 20;
        x = full(target - e), y = full(-e);
        z = rng() % 3 == 0 ? full(target) : (rng() & 1 ? -(x * y) : full(emin - precision + 3));
        if (rng() % 3 == 0) x = full(target + e), y = full(e);
        break;
      }
      case 4:  // subnormal operands
        x = from_bits<T>(static_cast<Bits>(rng()) & ((Bits(1) << (precision - 1)) - 1));
        y = rng() & 1 ? from_bits<T>(static_cast<Bits>(rng()) & ((Bits(1) << (precision - 1)) - 1))
                      : full(static_cast<int>(rng() % 60) - 30);
        z = full(emin - static_cast<int>(rng() % precision));
        break;
      case 5:  // near overflow
        x = full(emax - static_cast<int>(rng() % 3)), y = full(emax - static_cast<int>(rng() % 3));
        z = rng() & 1 ? -x : full(emax - static_cast<int>(rng() % 3));
        if (rng() & 1) y = full(static_cast<int>(rng() % 5) - 2);
        break;
      case 6:  // cancellation in sums and in fma
        x = full(static_cast<int>(rng() % 20) - 10);
        y = (rng() & 1 ? -x : x) * (1 + static_cast<T>(rng() % 8) * eps);
        z = -(x * y);
        if (rng() & 1) z = std::nextafter(z, rng() & 1 ? inf : -inf);
        break;
      case 7: {  // an exact quotient or root now and then
        y = full(static_cast<int>(rng() % 20) - 10);
        x = y * value(static_cast<int>(rng() % 20) - 10, 1 + static_cast<int>(rng() % 6));
        const T root = value(static_cast<int>(rng() % 100) - 50, (precision + 1) / 2);
        z = full(0);
        if (rng() & 1) x = root * root;  // sqrt exact (when x is positive)
        break;
      }
      case 8:  // fma with a product and an addend far apart in size
        x = full(static_cast<int>(rng() % 60) - 30), y = full(static_cast<int>(rng() % 60) - 30);
        z = full(static_cast<int>(rng() % (2 * precision + 60)) - precision - 30);
        break;
      default:  // wide exponents
        x = full(static_cast<int>(rng() % (emax - emin)) + emin);
        y = full(static_cast<int>(rng() % (emax - emin)) + emin);
        z = full(static_cast<int>(rng() % (emax - emin)) + emin);
        break;
    }
    if (i % 4 == 0) x = std::fabs(x);  // square roots of positive values
    ops.add(x, y, z);
  }
  static_assert(width == 32 || width == 64, "float or double");
  return ops;
}

class MathRoundingTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
  TestModule module{device};

  void launch(const char* kernel, size_t n, void** params) {
    ASSERT_AG(agLaunchKernel(module.function(kernel), blocks_for(n, 128), 1, 1, 128, 1, 1, 0,
                             nullptr, params, nullptr));
  }

  template <typename T>
  void check_arithmetic(const char* kernel) {
    const Operands<T> ops = arithmetic_operands<T>();
    unsigned n = static_cast<unsigned>(ops.a.size());
    DeviceBuffer<T> a(device, ops.a), b(device, ops.b), c(device, ops.c), out(device, kResults * n);
    void* params[] = {&n, a.param(), b.param(), c.param(), out.param()};
    launch(kernel, n, params);
    const std::vector<T> got = out.download();
    int failures = 0;
    for (unsigned i = 0; i < n; ++i) {
      for (int operation = 0; operation < kOperations; ++operation) {
        for (int rounding = 0; rounding < kRoundings; ++rounding) {
          const T expected = reference(operation, ops.a[i], ops.b[i], ops.c[i], rounding);
          const T result = got[kResults * i + kRoundings * operation + rounding];
          if (same(expected, result)) continue;
          ADD_FAILURE() << (sizeof(T) == 4 ? "float " : "double ") << kOperationNames[operation]
                        << "_" << kRoundingNames[rounding] << std::hexfloat << "(" << ops.a[i]
                        << ", " << ops.b[i] << ", " << ops.c[i] << "): " << result
                        << ", IEEE gives " << expected;
          if (++failures == 20) return;
        }
      }
    }
  }
};

// The float nearest 1/sqrt(x), decided exactly: m < 1/sqrt(x) exactly when x m^2 < 1, and for the
// midpoint m of two neighbouring floats x m^2 is an integer of at most 76 bits times a power of
// two.
int sign_of_x_m2_minus_1(float x, float a, float b) {  // m = (a + b) / 2
  int ex = 0, em = 0;
  const double fx = std::frexp(static_cast<double>(x), &ex);
  const double fm = std::frexp(static_cast<double>(a) + static_cast<double>(b), &em);
  const unsigned __int128 big_x = static_cast<uint64_t>(std::ldexp(fx, 24));
  const unsigned __int128 big_m = static_cast<uint64_t>(std::ldexp(fm, 26));
  const int e = (ex - 24) + 2 * (em - 27);  // x m^2 = big_x big_m^2 2^e
  const unsigned __int128 product = big_x * big_m * big_m;
  if (e >= 0) return 1;
  if (-e >= 127) return -1;
  const unsigned __int128 one = static_cast<unsigned __int128>(1) << -e;
  return product > one ? 1 : product < one ? -1 : 0;
}
// The float `step` patterns from f (a step of 1 is the next float away from zero).
float next_float(float f, int64_t step) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  bits += static_cast<uint32_t>(step);
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
float correctly_rounded_rsqrt(float x) {
  if (!(x > 0) || std::isinf(x)) return 1.0f / std::sqrt(x);
  float r = static_cast<float>(1.0L / std::sqrt(static_cast<long double>(x)));
  while (sign_of_x_m2_minus_1(x, r, next_float(r, 1)) < 0) r = next_float(r, 1);
  while (sign_of_x_m2_minus_1(x, next_float(r, -1), r) > 0) r = next_float(r, -1);
  return r;
}

TEST_P(MathRoundingTest, FrsqrtRnIsCorrectlyRoundedAndNanReadsItsTag) {
  // Every 97th positive float pattern (subnormals to the largest), random ones, and the specials.
  std::vector<float> x;
  for (uint32_t bits = 1; bits < 0x7F800000u; bits += 97) x.push_back(next_float(0.0f, bits));
  std::mt19937 rng(17);
  std::uniform_int_distribution<uint32_t> pattern(1, 0x7F7FFFFFu);
  for (int k = 0; k < 100000; ++k) x.push_back(next_float(0.0f, pattern(rng)));
  for (float f :
       {0.0f, -0.0f, -1.0f, std::numeric_limits<float>::infinity(),
        -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
        std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(), 4.0f, 0.25f})
    x.push_back(f);
  unsigned n = static_cast<unsigned>(x.size());
  DeviceBuffer<float> din(device, x), dout(device, n);
  DeviceBuffer<unsigned long long> dnan(device, 11);
  void* params[] = {&n, din.param(), dout.param(), dnan.param()};
  launch("_Z16rsqrt_rn_and_nanjPKfPfPy", n, params);
  const std::vector<float> got = dout.download();
  int failures = 0;
  for (unsigned i = 0; i < n; ++i) {
    const float expected = correctly_rounded_rsqrt(x[i]);
    if (!same(expected, got[i]) && ++failures <= 10)
      ADD_FAILURE() << "__frsqrt_rn(" << std::hexfloat << x[i] << ") gave " << got[i]
                    << ", expected " << expected << std::defaultfloat;
  }
  EXPECT_EQ(0, failures) << "of " << n << " inputs";

  // nan() and nanf() as glibc reads the tags.
  const std::vector<unsigned long long> nans = dnan.download();
  const char* const tags[8] = {"",
                               "1",
                               "0x7ff",
                               "017",
                               "1x",
                               "0x8000000000001",
                               "18446744073709551616",
                               "0x10000000000000000"};
  for (int k = 0; k < 8; ++k) {
    const double expected = std::nan(tags[k]);
    uint64_t bits;
    std::memcpy(&bits, &expected, sizeof bits);
    EXPECT_EQ(bits, nans[k]) << "nan(\"" << tags[k] << "\")";
  }
  const char* const float_tags[3] = {"5", "0x3fffff", "0x7fffff"};
  for (int k = 0; k < 3; ++k) {
    const float expected = std::nanf(float_tags[k]);
    uint32_t bits;
    std::memcpy(&bits, &expected, sizeof bits);
    EXPECT_EQ(bits, nans[8 + k]) << "nanf(\"" << float_tags[k] << "\")";
  }
}

TEST_P(MathRoundingTest, FloatArithmeticMatchesIeeeInEachRounding) {
  check_arithmetic<float>("_Z19rounding_arithmeticIfEvjPKT_S2_S2_PS0_");
}

TEST_P(MathRoundingTest, DoubleArithmeticMatchesIeeeInEachRounding) {
  check_arithmetic<double>("_Z19rounding_arithmeticIdEvjPKT_S2_S2_PS0_");
}

TEST_P(MathRoundingTest, ConversionsAndBitCastsMatchTheHost) {
  std::mt19937_64 rng(22);
  std::vector<float> f;
  std::vector<double> d;
  std::vector<long long> s;
  std::vector<unsigned long long> u;
  const std::vector<double> specials = {0.0,
                                        -0.0,
                                        0.5,
                                        1.5,
                                        2.5,
                                        -0.5,
                                        -2.5,
                                        0.49999999999999994,
                                        0x1p31,
                                        -0x1p31,
                                        0x1p31 - 1,
                                        0x1p32,
                                        0x1p32 - 1,
                                        0x1p63,
                                        -0x1p63,
                                        0x1p64,
                                        0x1p24 + 1,
                                        0x1p53 + 1,
                                        1e30,
                                        -1e30,
                                        std::numeric_limits<double>::infinity(),
                                        -std::numeric_limits<double>::infinity(),
                                        std::numeric_limits<double>::quiet_NaN(),
                                        0x1.fffffep127,
                                        0x1.ffffffp127,
                                        0x1p-149,
                                        0x1p-150,
                                        0x1.8p-150,
                                        1e-300,
                                        -0x1.fffffep-127};
  const std::vector<unsigned long long> integer_specials = {0,
                                                            1,
                                                            0x7fffffff,
                                                            0x80000000,
                                                            0xffffffff,
                                                            (1ull << 24) + 1,
                                                            (1ull << 53) + 1,
                                                            0x7fffffffffffffff,
                                                            0x8000000000000000,
                                                            0xffffffffffffffff,
                                                            0xfffffffffffff800,
                                                            0xfffffffffffffc00,
                                                            (1ull << 63) + (1ull << 39)};
  for (size_t i = 0; i < 20000; ++i) {
    double x;
    if (i < specials.size()) {
      x = specials[i];
    } else if (i % 4 == 0) {  // a value around an integer, ties among them
      x = std::ldexp(static_cast<double>(rng() >> 40), -static_cast<int>(rng() % 4)) *
          (rng() & 1 ? -1 : 1);
    } else if (i % 4 == 1) {  // any double
      const uint64_t b = rng();
      std::memcpy(&x, &b, 8);
    } else {  // up to the integers' ranges and past them
      x = std::ldexp(static_cast<double>(rng() >> 11) * 0x1p-53, static_cast<int>(rng() % 70)) *
          (rng() & 1 ? -1 : 1);
    }
    d.push_back(i % 3 == 2 ? static_cast<double>(static_cast<float>(x)) : x);
    // The float operand: x, or any float's bits.
    float y = static_cast<float>(x);
    if (i % 5 == 4) {
      const uint32_t b = static_cast<uint32_t>(rng());
      std::memcpy(&y, &b, 4);
    }
    f.push_back(y);
    const unsigned long long w = i < integer_specials.size()
                                     ? integer_specials[i]
                                     : (rng() >> (rng() % 64)) ^ (rng() & 1 ? ~0ull : 0);
    u.push_back(w);
    s.push_back(static_cast<long long>(i % 7 == 0 ? ~w : w));
  }
  unsigned n = static_cast<unsigned>(f.size());
  DeviceBuffer<float> df(device, f), floats(device, 24 * n);
  DeviceBuffer<double> dd(device, d), doubles(device, 12 * n);
  DeviceBuffer<long long> ds(device, s);
  DeviceBuffer<unsigned long long> du(device, u), integers(device, 36 * n);
  void* params[] = {&n,         df.param(),       dd.param(),     ds.param(),
                    du.param(), integers.param(), floats.param(), doubles.param()};
  launch("_Z20rounding_conversionsjPKfPKdPKxPKyPyPfPd", n, params);
  const std::vector<unsigned long long> k = integers.download();
  const std::vector<float> g = floats.download();
  const std::vector<double> h = doubles.download();
  int failures = 0;
  auto expect_integer = [&](unsigned long long expected, size_t at, const char* what, double x,
                            int rounding) {
    if (expected == k[at] || failures >= 20) return;
    ++failures;
    ADD_FAILURE() << what << "_" << kRoundingNames[rounding] << "(" << std::hexfloat << x
                  << "): " << std::hex << k[at] << ", expected " << expected;
  };
  auto expect_float = [&](auto expected, auto got, const char* what, unsigned long long x,
                          int rounding) {
    if (same(expected, got) || failures >= 20) return;
    ++failures;
    ADD_FAILURE() << what << "_" << kRoundingNames[rounding] << "(0x" << std::hex << x
                  << "): " << std::hexfloat << got << ", expected " << expected;
  };
  for (unsigned i = 0; i < n; ++i) {
    const float fi = f[i];
    const double di = d[i];
    const long long si = s[i];
    const unsigned long long ui = u[i];
    const int narrow = static_cast<int>(si);
    const unsigned int unsigned_narrow = static_cast<unsigned int>(ui);
    for (int r = 0; r < kRoundings; ++r) {
      const size_t at = 36 * static_cast<size_t>(i) + r;
      expect_integer(static_cast<unsigned long long>(to_integer<int>(fi, r)), at, "float2int", fi,
                     r);
      expect_integer(to_integer<unsigned int>(fi, r), at + 4, "float2uint", fi, r);
      expect_integer(static_cast<unsigned long long>(to_integer<long long>(fi, r)), at + 8,
                     "float2ll", fi, r);
      expect_integer(to_integer<unsigned long long>(fi, r), at + 12, "float2ull", fi, r);
      expect_integer(static_cast<unsigned long long>(to_integer<int>(di, r)), at + 16, "double2int",
                     di, r);
      expect_integer(to_integer<unsigned int>(di, r), at + 20, "double2uint", di, r);
      expect_integer(static_cast<unsigned long long>(to_integer<long long>(di, r)), at + 24,
                     "double2ll", di, r);
      expect_integer(to_integer<unsigned long long>(di, r), at + 28, "double2ull", di, r);
      const size_t gat = 24 * static_cast<size_t>(i) + r, hat = 12 * static_cast<size_t>(i) + r;
      expect_float(convert_in_mode<float>(narrow, r), g[gat], "int2float",
                   static_cast<unsigned int>(narrow), r);
      expect_float(convert_in_mode<float>(unsigned_narrow, r), g[gat + 4], "uint2float",
                   unsigned_narrow, r);
      expect_float(convert_in_mode<float>(si, r), g[gat + 8], "ll2float",
                   static_cast<unsigned long long>(si), r);
      expect_float(convert_in_mode<float>(ui, r), g[gat + 12], "ull2float", ui, r);
      expect_float(convert_in_mode<float>(di, r), g[gat + 16], "double2float", bits(di), r);
      expect_float(convert_in_mode<double>(si, r), h[hat], "ll2double",
                   static_cast<unsigned long long>(si), r);
      expect_float(convert_in_mode<double>(ui, r), h[hat + 4], "ull2double", ui, r);
    }
    const size_t at = 36 * static_cast<size_t>(i);
    const uint64_t double_bits = bits(di);
    expect_integer(bits(fi), at + 32, "__float_as_int", fi, 0);
    expect_integer(bits(fi), at + 33, "__float_as_uint", fi, 0);
    expect_integer(double_bits, at + 34, "__double_as_longlong", di, 0);
    expect_integer((double_bits >> 32) | (double_bits << 32), at + 35, "__double2hiint/loint", di,
                   0);
    const size_t gat = 24 * static_cast<size_t>(i), hat = 12 * static_cast<size_t>(i);
    expect_float(from_bits<float>(static_cast<uint32_t>(narrow)), g[gat + 20], "__int_as_float", ui,
                 0);
    expect_float(from_bits<float>(unsigned_narrow), g[gat + 21], "__uint_as_float", ui, 0);
    expect_float(static_cast<float>(static_cast<int>(static_cast<uint32_t>(double_bits))),
                 g[gat + 22], "__int2float(__double2loint)", double_bits, 0);
    expect_float(static_cast<float>(static_cast<uint32_t>(double_bits >> 32)), g[gat + 23],
                 "__uint2float(__double2hiint)", double_bits, 0);
    expect_float(static_cast<double>(narrow), h[hat + 8], "__int2double_rn", ui, 0);
    expect_float(static_cast<double>(unsigned_narrow), h[hat + 9], "__uint2double_rn", ui, 0);
    expect_float(from_bits<double>(static_cast<uint64_t>(si)), h[hat + 10], "__longlong_as_double",
                 ui, 0);
    expect_float(from_bits<double>(static_cast<uint64_t>(static_cast<uint32_t>(narrow)) << 32 |
                                   static_cast<uint32_t>(unsigned_narrow)),
                 h[hat + 11], "__hiloint2double", ui, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, MathRoundingTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
