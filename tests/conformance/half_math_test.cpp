// The kernels of tests/cuda_sources/half_math.cu on every device present (the CPU, and the CUDA,
// HIP and Level Zero test drivers in their suites): the half-precision math functions of
// cuda_fp16.h and cuda_bf16.h over every 16-bit pattern, against a reference computed in double;
// the directed-rounding conversions (from float, and to and from every integer type) and the
// conversions between the formats against the values found by search in a table of the format's
// values; atomicAdd on the 16-bit types by the values each add replaced; the relu, complex and
// mask forms of the pairs; and warp shuffles of the 16-bit types against a host model of the
// lanes. Each test
// prints the largest error it measured per function.
#include <anygpu/half.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

constexpr int kFunctions = 17, kRoundings = 8, kShuffles = 6;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

uint16_t bits(__half h) {
  return __half_as_ushort(h);
}
uint16_t bits(__nv_bfloat16 h) {
  return __bfloat16_as_ushort(h);
}

// A 16-bit format by its fields, and the value of a pattern from that definition (independent of
// anygpu/half.h).
struct Format {
  const char* name;
  int fraction_bits, exponent_bits;
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  uint16_t infinity() const {
    return static_cast<uint16_t>(((1u << exponent_bits) - 1u) << fraction_bits);
  }
  uint16_t largest_pattern() const { return static_cast<uint16_t>(infinity() - 1u); }
  double value(uint16_t pattern) const {
    const unsigned field = (pattern & 0x7FFFu) >> fraction_bits;
    const unsigned fraction = pattern & ((1u << fraction_bits) - 1u);
    double magnitude;
    if (field == (1u << exponent_bits) - 1u)
      magnitude = fraction ? std::numeric_limits<double>::quiet_NaN() : kInfinity;
    else if (field == 0)
      magnitude = std::ldexp(fraction, 1 - bias() - fraction_bits);
    else
      magnitude = std::ldexp((1u << fraction_bits) + fraction,
                             static_cast<int>(field) - bias() - fraction_bits);
    return (pattern & 0x8000u) ? -magnitude : magnitude;
  }
  double largest() const { return value(largest_pattern()); }
  // The spacing of the format's values at `magnitude` (at the largest value beyond it).
  double ulp_at(double magnitude) const {
    int exponent = 0;
    std::frexp(std::min(magnitude, largest()), &exponent);  // magnitude in [2^(e-1), 2^e)
    return std::ldexp(1.0, std::max(exponent - 1, 1 - bias()) - fraction_bits);
  }
};
constexpr Format kBinary16{"binary16", 10, 5}, kBfloat16{"bfloat16", 7, 8};

// The format's positive finite values, in pattern order (which is their order).
std::vector<double> magnitudes(const Format& format) {
  std::vector<double> values(format.largest_pattern() + 1u);
  for (unsigned p = 0; p < values.size(); ++p) values[p] = format.value(static_cast<uint16_t>(p));
  return values;
}

// x rounded into the format: to nearest (ties to the even pattern), toward zero, down or up. Real
// is double, or long double (64 significant bits on x86-64) for 64-bit integers.
enum class Rounding { nearest, toward_zero, down, up };
template <typename Real>
uint16_t round_into(const Format& format, const std::vector<double>& table, Real x, Rounding r) {
  if (std::isnan(x)) return 0x7FFF;  // CUDA's canonical NaN
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const Real m = std::fabs(x);
  const unsigned last = format.largest_pattern();
  // lower: the largest pattern at or below m; upper: the smallest at or above (infinity past the
  // largest value).
  unsigned lower = last, upper = format.infinity();
  if (m <= table[last]) {
    upper = static_cast<unsigned>(std::lower_bound(table.begin(), table.end(), m) - table.begin());
    lower = table[upper] == m ? upper : upper - 1;
  }
  const bool away_from_zero = r == Rounding::up ? !sign : r == Rounding::down ? sign != 0 : false;
  unsigned pattern = away_from_zero ? upper : lower;
  if (std::isinf(m)) {
    pattern = format.infinity();  // exact in every direction
  } else if (r == Rounding::nearest) {
    const double gap = table[last] - table[last - 1];
    if (m > table[last]) {  // a tie with the next (infinite) value goes to infinity too
      pattern = m >= table[last] + gap / 2 ? format.infinity() : last;
    } else if (lower != upper) {
      const Real below = m - table[lower], above = table[upper] - m;
      pattern = below < above ? lower : above < below ? upper : (lower % 2 == 0 ? lower : upper);
    }
  }
  return static_cast<uint16_t>(sign | pattern);
}

// |got - exact| in ulps of the format at exact. A result of the wrong kind (a NaN for a number, a
// number for a NaN) is an infinite error; an infinity where the exact value rounds to infinity is
// none, and one where it does not counts as the next value past the largest.
double error_in_ulps(const Format& format, double got, double exact) {
  if (std::isnan(exact) || std::isnan(got))
    return std::isnan(exact) && std::isnan(got) ? 0 : kInfinity;
  const double largest = format.largest(), top_ulp = format.ulp_at(largest);
  if (std::isinf(got)) {
    if (std::fabs(exact) >= largest + top_ulp / 2 && std::signbit(got) == std::signbit(exact))
      return 0;
    got = std::copysign(largest + top_ulp, got);
  }
  if (std::isinf(exact)) return kInfinity;
  return std::fabs(got - exact) / format.ulp_at(std::fabs(exact));
}

// One function: its name, its reference in double, and whether it is correctly rounded on every
// target (then its bits must be the reference's, rounded to nearest).
struct Function {
  const char* name;
  double (*reference)(double);
  bool correctly_rounded;
};
// In the order of half_math.cu's each_function.
const Function kMathFunctions[kFunctions] = {
    {"hsqrt", [](double x) { return std::sqrt(x); }, true},
    {"hrsqrt", [](double x) { return 1 / std::sqrt(x); }, false},
    {"hrcp", [](double x) { return 1 / x; }, true},
    {"hexp", [](double x) { return std::exp(x); }, false},
    {"hexp2", [](double x) { return std::exp2(x); }, false},
    {"hexp10", [](double x) { return std::pow(10.0, x); }, false},
    {"hlog", [](double x) { return std::log(x); }, false},
    {"hlog2", [](double x) { return std::log2(x); }, false},
    {"hlog10", [](double x) { return std::log10(x); }, false},
    {"hsin", [](double x) { return std::sin(x); }, false},
    {"hcos", [](double x) { return std::cos(x); }, false},
    {"hceil", [](double x) { return std::ceil(x); }, true},
    {"hfloor", [](double x) { return std::floor(x); }, true},
    {"htrunc", [](double x) { return std::trunc(x); }, true},
    {"hrint", [](double x) { return std::nearbyint(x); }, true},
    {"htanh", [](double x) { return std::tanh(x); }, false},
    {"htanh_approx", [](double x) { return std::tanh(x); }, false},
};

// CUDA documents these functions as computed "in round-to-nearest-even mode": 0.5 ulp. anygpu
// computes them in float and rounds once, so a result may be off the correctly rounded one where
// the exact value lies within the float function's error of a midpoint: a few float ulps, 2^-13
// of a binary16 ulp (2^-16 of a bfloat16 one) each. The bound allows 16 of them; a function
// computed any less precisely (a 16-bit approximation, a wrong function) is 0.1 ulp or more off.
constexpr double kBound = 0.5 + 16.0 / 8192;

class HalfMathTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
  TestModule module{device};

  void launch(const char* kernel, int n, void** params, unsigned block = 64) {
    ASSERT_AG(agLaunchKernel(module.function(kernel),
                             (static_cast<unsigned>(n) + block - 1) / block, 1, 1, block, 1, 1, 0,
                             nullptr, params, nullptr));
  }

  // Every 16-bit pattern through each function and its pair form on the device; the results
  // checked and the largest errors printed.
  template <typename T, typename T2>
  void check_every_pattern(const Format& format, const char* kernel) {
    int n = 65536;
    std::vector<T> x(n);
    for (int i = 0; i < n; ++i) std::memcpy(&x[i], &i, sizeof(T));  // pattern i (little-endian)
    DeviceBuffer<T> dx(device, x), dout(device, static_cast<size_t>(kFunctions) * n);
    DeviceBuffer<T2> dpairs(device, static_cast<size_t>(kFunctions) * n);
    void* params[] = {dx.param(), dout.param(), dpairs.param(), &n};
    launch(kernel, n, params);
    const std::vector<T> out = dout.download();
    const std::vector<T2> pairs = dpairs.download();
    const std::vector<double> table = magnitudes(format);

    for (int f = 0; f < kFunctions; ++f) {
      const Function& function = kMathFunctions[f];
      double largest = 0;
      int worst = 0, not_nearest = 0, failures = 0;
      for (int i = 0; i < n; ++i) {
        const uint16_t input = static_cast<uint16_t>(i);
        const uint16_t got = bits(out[kFunctions * i + f]);
        const double exact = function.reference(format.value(input));
        const uint16_t nearest = round_into(format, table, exact, Rounding::nearest);
        const double error = error_in_ulps(format, format.value(got), exact);
        if (got != nearest) ++not_nearest;
        if (error > largest) largest = error, worst = i;
        // Correctly rounded functions give the nearest bits; the others within the bound, and
        // exactly the reference's zeros and infinities (their signs are CUDA's special cases:
        // hsin(-0) = -0, hrsqrt(-0) = -inf, hlog(0) = -inf, hexp(-inf) = +0).
        const bool exact_kind = exact == 0 || std::isinf(exact);
        const bool ok = function.correctly_rounded || exact_kind ? got == nearest : error <= kBound;
        if (!ok && ++failures <= 5)
          ADD_FAILURE() << format.name << " " << function.name << "(" << format.value(input)
                        << ", bits 0x" << std::hex << input << ") gave 0x" << got
                        << ", the reference rounds to 0x" << nearest << std::dec << " (exact "
                        << std::setprecision(17) << exact << ", error " << error << " ulp)";
        // The pair form: lane by lane the scalar function, bit for bit.
        const T2 pair = pairs[kFunctions * i + f];
        const uint16_t low = bits(pair.x), high = bits(pair.y);
        if (low != got || high != bits(out[kFunctions * (n - 1 - i) + f]))
          if (++failures <= 5)
            ADD_FAILURE() << format.name << " h2" << function.name + 1 << " of pair " << i
                          << " differs from " << function.name << " in its lanes";
      }
      std::cout << "half math (" << device_test_name(::testing::TestParamInfo<int>(GetParam(), 0))
                << "): " << std::left << std::setw(12) << function.name << std::right << " "
                << format.name << ": largest error " << std::fixed << std::setprecision(4)
                << largest << " ulp at 0x" << std::hex << worst << std::dec << " (bound "
                << (function.correctly_rounded ? 0.5 : kBound) << "), " << not_nearest
                << " of 65536 not the nearest\n"
                << std::defaultfloat;
      EXPECT_EQ(0, failures) << format.name << " " << function.name;
    }
  }
};

TEST_P(HalfMathTest, HalfFunctionsOnEveryPattern) {
  check_every_pattern<__half, __half2>(kBinary16, "_Z9half_mathPK6__halfPS_P7__half2i");
}

TEST_P(HalfMathTest, Bfloat16FunctionsOnEveryPattern) {
  check_every_pattern<__nv_bfloat16, __nv_bfloat162>(
      kBfloat16, "_Z9bf16_mathPK13__nv_bfloat16PS_P14__nv_bfloat162i");
}

// The 16-bit values at and between each other: for each finite pattern p of the format (every
// `stride`-th), its value and the values a quarter, half and three quarters of the way to the next
// one, and one float ulp either side of the value, with both signs.
void add_between_values(const Format& format, unsigned stride, std::vector<float>& in) {
  for (unsigned p = 0; p < format.largest_pattern(); p += stride) {
    const float value = static_cast<float>(format.value(static_cast<uint16_t>(p)));
    const float next = static_cast<float>(format.value(static_cast<uint16_t>(p + 1)));
    const float gap = next - value;  // exact: both have at most 8 or 11 significant bits
    for (const float x : {value, value + gap / 4, value + gap / 2, value + 3 * gap / 4,
                          std::nextafter(value, 0.0f), std::nextafter(value, next)}) {
      in.push_back(x);
      in.push_back(-x);
    }
  }
}

TEST_P(HalfMathTest, DirectedRoundingsAreExact) {
  std::vector<float> in = {0.0f,
                           -0.0f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN(),
                           65504.0f,
                           -65504.0f,
                           65519.0f,
                           -65519.0f,
                           65520.0f,
                           -65520.0f,
                           1e5f,
                           -1e5f,
                           1e-10f,  // below binary16's smallest subnormal (2^-24)
                           -1e-10f,
                           0x1p-25f,
                           -0x1p-25f,
                           0x1.8p-25f,
                           3e38f,
                           -3e38f,
                           std::numeric_limits<float>::max(),
                           -std::numeric_limits<float>::max(),
                           std::numeric_limits<float>::denorm_min(),  // below bfloat16's (2^-133)
                           -std::numeric_limits<float>::denorm_min(),
                           std::numeric_limits<float>::min(),
                           0x1.fffffcp-127f};
  add_between_values(kBinary16, 1, in);
  add_between_values(kBfloat16, 3, in);
  int n = static_cast<int>(in.size());
  // The double inputs: each float moved by 2^-40 of itself, down, not at all or up. On a float
  // lying halfway between two binary16 values the move decides the rounding, which going
  // through float would lose (a tie, then to even).
  std::vector<double> wide(n);
  for (int i = 0; i < n; ++i)
    wide[i] = in[i] * (1 + std::ldexp(static_cast<double>(i % 3 - 1), -40));
  DeviceBuffer<float> din(device, in);
  DeviceBuffer<double> dwide(device, wide);
  DeviceBuffer<unsigned short> dout(device, static_cast<size_t>(kRoundings) * n);
  void* params[] = {din.param(), dwide.param(), dout.param(), &n};
  launch("_Z18directed_roundingsPKfPKdPti", n, params);
  const std::vector<unsigned short> out = dout.download();

  const std::vector<double> half_table = magnitudes(kBinary16), bf16_table = magnitudes(kBfloat16);
  const char* names[kRoundings] = {
      "__float2half_rn",     "__float2half_rz",     "__float2half_rd",     "__float2half_ru",
      "__float2bfloat16_rz", "__float2bfloat16_rd", "__float2bfloat16_ru", "__double2half"};
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    const double x = in[i];
    const uint16_t expected[kRoundings] = {
        round_into(kBinary16, half_table, x, Rounding::nearest),
        round_into(kBinary16, half_table, x, Rounding::toward_zero),
        round_into(kBinary16, half_table, x, Rounding::down),
        round_into(kBinary16, half_table, x, Rounding::up),
        round_into(kBfloat16, bf16_table, x, Rounding::toward_zero),
        round_into(kBfloat16, bf16_table, x, Rounding::down),
        round_into(kBfloat16, bf16_table, x, Rounding::up),
        round_into(kBinary16, half_table, wide[i], Rounding::nearest)};
    for (int k = 0; k < kRoundings; ++k)
      if (out[kRoundings * i + k] != expected[k] && ++failures <= 10)
        ADD_FAILURE() << names[k] << "(" << std::setprecision(17) << (k == 7 ? wide[i] : x)
                      << ") gave 0x" << std::hex << out[kRoundings * i + k] << ", expected 0x"
                      << expected[k];
  }
  EXPECT_EQ(0, failures) << "of " << n << " inputs";

  // Named cases, from IEEE's definitions.
  const auto at = [&](float value, int k) {
    for (int i = 0; i < n; ++i)
      if (std::memcmp(&in[i], &value, sizeof value) == 0) return out[kRoundings * i + k];
    ADD_FAILURE() << "no input " << value;
    return static_cast<unsigned short>(0);
  };
  EXPECT_EQ(0x7BFF, at(1e5f, 1));     // toward zero: the largest finite value, not infinity
  EXPECT_EQ(0x7C00, at(1e5f, 3));     // up: infinity
  EXPECT_EQ(0xFBFF, at(-1e5f, 3));    // up from below the range: -65504
  EXPECT_EQ(0xFC00, at(-1e5f, 2));    // down: -infinity
  EXPECT_EQ(0x0001, at(1e-10f, 3));   // up: the smallest subnormal
  EXPECT_EQ(0x0000, at(1e-10f, 2));   // down: +0
  EXPECT_EQ(0x8001, at(-1e-10f, 2));  // down: minus the smallest subnormal
  EXPECT_EQ(0x8000, at(-1e-10f, 1));  // toward zero: -0
  EXPECT_EQ(0x8000, at(-1e-10f, 3));  // up: -0
  EXPECT_EQ(0x3C00, at(1.0f + 0x1p-12f, 1));
  EXPECT_EQ(0x3C01, at(1.0f + 0x1p-12f, 3));
  EXPECT_EQ(0xBC01, at(-1.0f - 0x1p-12f, 2));
  EXPECT_EQ(0xBC00, at(-1.0f - 0x1p-12f, 3));
  EXPECT_EQ(0x7F7F, at(std::numeric_limits<float>::max(), 4));  // bfloat16 toward zero
  EXPECT_EQ(0x7F80, at(std::numeric_limits<float>::max(), 6));  // bfloat16 up: infinity
  EXPECT_EQ(0x0001, at(std::numeric_limits<float>::denorm_min(), 6));
  EXPECT_EQ(0x8000, at(-std::numeric_limits<float>::denorm_min(), 4));
  EXPECT_EQ(0x7FFF, at(std::numeric_limits<float>::quiet_NaN(), 2));
}

// The shuffles of half_math.cu's half_shuffles, modelled lane by lane on the host: blocks of 32
// threads, each one segment of 32 lanes.
TEST_P(HalfMathTest, WarpShufflesOf16BitTypes) {
  constexpr int kLanes = 32;
  int n = 8 * kLanes;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> value(-100.0f, 100.0f);
  std::vector<__half2> in(n);
  for (__half2& v : in) v = __floats2half2_rn(value(rng), value(rng));
  DeviceBuffer<__half2> din(device, in);
  DeviceBuffer<unsigned> dout(device, static_cast<size_t>(kShuffles) * n);
  void* params[] = {din.param(), dout.param()};
  launch("_Z13half_shufflesPK7__half2Pj", n, params, kLanes);
  const std::vector<unsigned> out = dout.download();

  const auto pair_bits = [](auto p) { return unsigned{bits(p.x)} | unsigned{bits(p.y)} << 16; };
  const auto bf16_pair = [](__half2 v) {
    return __floats2bfloat162_rn(__low2float(v), __high2float(v));
  };
  for (int base = 0; base < n; base += kLanes) {
    // The butterfly sum: each step adds the value `offset` lanes away (by xor) to each lane's own.
    std::vector<__half2> sums(in.begin() + base, in.begin() + base + kLanes);
    for (int offset = 16; offset > 0; offset /= 2) {
      std::vector<__half2> next(kLanes);
      for (int l = 0; l < kLanes; ++l) next[l] = __hadd2(sums[l], sums[l ^ offset]);
      sums = next;
    }
    for (int l = 0; l < kLanes; ++l) {
      const auto lane = [&](int other) { return in[base + other]; };
      const unsigned expected[kShuffles] = {
          pair_bits(lane((l + 3) % kLanes)),
          bits(__low2half(lane(l >= 1 ? l - 1 : l))),
          bits(__high2bfloat16(bf16_pair(lane(l + 2 < kLanes ? l + 2 : l)))),
          pair_bits(bf16_pair(lane(l ^ 1))),
          bits(__low2half(lane(l & ~7))),
          pair_bits(sums[l])};
      for (int k = 0; k < kShuffles; ++k)
        ASSERT_EQ(expected[k], out[kShuffles * (base + l) + k])
            << "shuffle " << k << " in lane " << l << " of the block at " << base;
    }
  }
}

// The four roundings of the integer conversions, by their names' suffixes.
constexpr Rounding kIntegerRoundings[4] = {Rounding::nearest, Rounding::toward_zero, Rounding::down,
                                           Rounding::up};
constexpr const char* kSuffixes[4] = {"_rn", "_rz", "_rd", "_ru"};

TEST_P(HalfMathTest, IntegersToBothFormatsInEveryRounding) {
  // Every integer up to past binary16's range, each side; the powers of two and their neighbours
  // (where the 64-bit types round); the ends of each type; and random 64-bit values.
  std::vector<long long> in;
  for (long long v = -70000; v <= 70000; ++v) in.push_back(v);
  // In unsigned arithmetic (2^63 and its neighbours wrap, as their bit patterns should).
  for (int k = 17; k < 64; ++k)
    for (long long d = -3; d <= 3; ++d) {
      const unsigned long long p = 1ull << k, step = static_cast<unsigned long long>(d);
      // p, -p, a tie between two values at 8 or 11 bits, and a value between two of them
      for (const unsigned long long v :
           {p + step, 0 - p + step, p + p / 2 + step, p + (p >> 8) + step})
        in.push_back(static_cast<long long>(v));
    }
  for (long long v : {std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max(),
                      -1ll, 4294967295ll, 2147483647ll, -2147483648ll})
    in.push_back(v);
  std::mt19937_64 rng(5);
  for (int k = 0; k < 20000; ++k) in.push_back(static_cast<long long>(rng() >> (rng() % 64)));
  int n = static_cast<int>(in.size());
  DeviceBuffer<long long> din(device, in);
  DeviceBuffer<unsigned short> dout(device, static_cast<size_t>(48) * n);
  void* params[] = {din.param(), dout.param(), &n};
  launch("_Z13from_integersPKxPti", n, params);
  const std::vector<unsigned short> out = dout.download();

  const std::vector<double> half_table = magnitudes(kBinary16), bf16_table = magnitudes(kBfloat16);
  const char* types[6] = {"int", "uint", "short", "ushort", "ll", "ull"};
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    const long long v = in[i];
    // The value each type's C cast gives, exactly (long double holds 64 bits).
    const long double as_type[6] = {static_cast<long double>(static_cast<int>(v)),
                                    static_cast<long double>(static_cast<unsigned int>(v)),
                                    static_cast<long double>(static_cast<short>(v)),
                                    static_cast<long double>(static_cast<unsigned short>(v)),
                                    static_cast<long double>(v),
                                    static_cast<long double>(static_cast<unsigned long long>(v))};
    for (int format = 0; format < 2; ++format)
      for (int type = 0; type < 6; ++type)
        for (int r = 0; r < 4; ++r) {
          const uint16_t expected =
              format == 0 ? round_into(kBinary16, half_table, as_type[type], kIntegerRoundings[r])
                          : round_into(kBfloat16, bf16_table, as_type[type], kIntegerRoundings[r]);
          const uint16_t got = out[48 * i + 24 * format + 4 * type + r];
          if (got != expected && ++failures <= 10)
            ADD_FAILURE() << "__" << types[type] << "2" << (format ? "bfloat16" : "half")
                          << kSuffixes[r] << "(" << std::setprecision(20) << as_type[type]
                          << ") gave 0x" << std::hex << got << ", expected 0x" << expected
                          << std::dec;
        }
  }
  EXPECT_EQ(0, failures) << "of " << n << " inputs";
  // Named cases: 65505 toward zero is 65504 (0x7BFF), up infinity; 2^64 - 1 in bfloat16 up is
  // 2^64 (0x5F80), toward zero the value below it (0x5F7F).
  const auto at = [&](long long v, int k) {
    for (int i = 0; i < n; ++i)
      if (in[i] == v) return out[48 * i + k];
    ADD_FAILURE() << "no input " << v;
    return static_cast<unsigned short>(0);
  };
  EXPECT_EQ(0x7BFF, at(65505, 1));
  EXPECT_EQ(0x7C00, at(65505, 3));
  EXPECT_EQ(0xFC00, at(-65505, 2));
  EXPECT_EQ(0x5F80, at(-1, 44 + 3));
  EXPECT_EQ(0x5F7F, at(-1, 44 + 1));
  EXPECT_EQ(0x6C00, at(4097, 1));  // 4096: binary16 holds even integers there
  EXPECT_EQ(0x6C01, at(4097, 3));
}

// The reference for one 16-bit value to an integer type in a rounding: the value rounded to an
// integer, NaN to `nan_result`, then clamped to [lowest, highest].
long double integer_reference(double value, Rounding r, long double lowest, long double highest,
                              long double nan_result) {
  if (std::isnan(value)) return nan_result;
  const double rounded = r == Rounding::nearest       ? std::nearbyint(value)
                         : r == Rounding::toward_zero ? std::trunc(value)
                         : r == Rounding::down        ? std::floor(value)
                                                      : std::ceil(value);
  return std::min<long double>(std::max<long double>(rounded, lowest), highest);
}

TEST_P(HalfMathTest, BothFormatsToEveryIntegerTypeInEveryRounding) {
  DeviceBuffer<long long> dout(device, static_cast<size_t>(52) * 65536);
  void* params[] = {dout.param()};
  launch("_Z11to_integersPx", 65536, params);
  const std::vector<long long> out = dout.download();
  struct Type {
    const char* name;
    long double lowest, highest, nan_result;
    bool is_unsigned;
  };
  const long double two63 = std::ldexp(1.0L, 63);
  const Type types[8] = {{"int", -2147483648.0L, 2147483647.0L, 0, false},
                         {"uint", 0, 4294967295.0L, 0, true},
                         {"short", -32768, 32767, 0, false},
                         {"ushort", 0, 65535, 0, true},
                         {"ll", -two63, two63 - 1, -two63, false},
                         {"ull", 0, 2 * two63 - 1, two63, true},
                         {"char", -128, 127, 0, false},
                         {"uchar", 0, 255, 0, true}};
  int failures = 0;
  for (int format = 0; format < 2; ++format) {
    const Format& f = format ? kBfloat16 : kBinary16;
    for (int p = 0; p < 65536; ++p) {
      const double value = f.value(static_cast<uint16_t>(p));
      for (int k = 0; k < 26; ++k) {
        const int type = k < 24 ? k / 4 : 6 + (k - 24);
        const Rounding r = k < 24 ? kIntegerRoundings[k % 4] : Rounding::toward_zero;
        const Type& t = types[type];
        const long double expected = integer_reference(value, r, t.lowest, t.highest, t.nan_result);
        const long long bits = out[52 * p + 26 * format + k];
        // The kernel stored each result as a long long: the unsigned ones by their bits.
        long double got = static_cast<long double>(bits);
        if (t.is_unsigned)
          got = type == 5 ? static_cast<long double>(static_cast<unsigned long long>(bits))
                          : static_cast<long double>(bits & 0xFFFFFFFFll);
        if (got != expected && ++failures <= 10)
          ADD_FAILURE() << (format ? "__bfloat162" : "__half2") << t.name
                        << (k < 24 ? kSuffixes[k % 4] : "_rz") << "(" << value << ", bits 0x"
                        << std::hex << p << std::dec << ") gave " << got << ", expected "
                        << expected;
      }
    }
  }
  EXPECT_EQ(0, failures);
}

TEST_P(HalfMathTest, ConversionsBetweenTheFormatsRoundToNearest) {
  DeviceBuffer<unsigned short> dout(device, 2 * 65536);
  void* params[] = {dout.param()};
  launch("_Z15between_formatsPt", 65536, params);
  const std::vector<unsigned short> out = dout.download();
  const std::vector<double> half_table = magnitudes(kBinary16), bf16_table = magnitudes(kBfloat16);
  int failures = 0;
  for (int p = 0; p < 65536; ++p) {
    const uint16_t to_bf16 = round_into(
        kBfloat16, bf16_table, kBinary16.value(static_cast<uint16_t>(p)), Rounding::nearest);
    const uint16_t to_half = round_into(
        kBinary16, half_table, kBfloat16.value(static_cast<uint16_t>(p)), Rounding::nearest);
    if ((out[2 * p] != to_bf16 || out[2 * p + 1] != to_half) && ++failures <= 10)
      ADD_FAILURE() << "pattern 0x" << std::hex << p << ": to bfloat16 0x" << out[2 * p]
                    << " (expected 0x" << to_bf16 << "), to binary16 0x" << out[2 * p + 1]
                    << " (expected 0x" << to_half << ")" << std::dec;
  }
  EXPECT_EQ(0, failures);
}

TEST_P(HalfMathTest, AtomicAddsOf16BitTypesLoseNothing) {
  constexpr int kBlocks = 8, kThreads = 128, kAll = kBlocks * kThreads;
  DeviceBuffer<__half> h(device, std::vector<__half>(4, __float2half(0.0f)));
  DeviceBuffer<__nv_bfloat16> b(device, std::vector<__nv_bfloat16>(2, __float2bfloat16(0.0f)));
  DeviceBuffer<__half2> h2(device, std::vector<__half2>(1, __float2half2_rn(0.0f)));
  DeviceBuffer<__nv_bfloat162> b2(device, std::vector<__nv_bfloat162>(1, __float2bfloat162_rn(0)));
  DeviceBuffer<unsigned short> old_h(device, kAll), old_b(device, kAll);
  DeviceBuffer<unsigned> block_out(device, 4 * kBlocks);
  void* params[] = {h.param(),     b.param(),     h2.param(),       b2.param(),
                    old_h.param(), old_b.param(), block_out.param()};
  ASSERT_AG(agLaunchKernel(module.function("_Z10atomics_16P6__halfP13__nv_bfloat16P7__half2P14__"
                                           "nv_bfloat162PtS7_Pj"),
                           kBlocks, 1, 1, kThreads, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<__half> hs = h.download();
  const std::vector<__nv_bfloat16> bs = b.download();
  EXPECT_EQ(512.0f, __half2float(hs[0]));
  EXPECT_EQ(512.0f, __half2float(hs[1]));
  EXPECT_EQ(1024.0f, __half2float(hs[2]));
  EXPECT_EQ(0.0f, __half2float(hs[3])) << "the neighbour of h[2] in its word was written";
  EXPECT_EQ(256.0f, __bfloat162float(bs[0]));
  EXPECT_EQ(256.0f, __bfloat162float(bs[1]));
  const __half2 sum2 = h2.download()[0];
  EXPECT_EQ(1024.0f, __low2float(sum2));
  EXPECT_EQ(2048.0f, __high2float(sum2));
  const __nv_bfloat162 bsum2 = b2.download()[0];
  EXPECT_EQ(256.0f, __low2float(bsum2));
  EXPECT_EQ(-256.0f, __high2float(bsum2));
  // The values the adds replaced: each counter's 0, 1, 2, ... once each.
  const std::vector<unsigned short> olds_h = old_h.download(), olds_b = old_b.download();
  for (int counter = 0; counter < 2; ++counter) {
    std::vector<float> seen_h, seen_b;
    for (int g = counter; g < kAll; g += 2) {
      seen_h.push_back(__half2float(__ushort_as_half(olds_h[g])));
      if (g < 512) seen_b.push_back(__bfloat162float(__ushort_as_bfloat16(olds_b[g])));
    }
    std::sort(seen_h.begin(), seen_h.end());
    std::sort(seen_b.begin(), seen_b.end());
    for (size_t k = 0; k < seen_h.size(); ++k)
      ASSERT_EQ(static_cast<float>(k), seen_h[k]) << "__half counter " << counter;
    for (size_t k = 0; k < seen_b.size(); ++k)
      ASSERT_EQ(static_cast<float>(k), seen_b[k]) << "__nv_bfloat16 counter " << counter;
  }
  const std::vector<unsigned> per_block = block_out.download();
  for (int block = 0; block < kBlocks; ++block) {
    EXPECT_EQ(64.0f, __half2float(__ushort_as_half(per_block[4 * block])));
    EXPECT_EQ(64.0f, __half2float(__ushort_as_half(per_block[4 * block + 1])));
    EXPECT_EQ(128.0f, __bfloat162float(__ushort_as_bfloat16(per_block[4 * block + 2])));
    EXPECT_EQ(256.0f, __bfloat162float(__ushort_as_bfloat16(per_block[4 * block + 3])));
  }
}

TEST_P(HalfMathTest, AtomicAddsOf16BitTypesUnderContention) {
  DeviceBuffer<__half> h(device, std::vector<__half>(2, __float2half(0.0f)));
  DeviceBuffer<__nv_bfloat162> b2(device, std::vector<__nv_bfloat162>(1, __float2bfloat162_rn(0)));
  int rounds = 128;
  void* params[] = {h.param(), b2.param(), &rounds};
  ASSERT_AG(agLaunchKernel(module.function("_Z17atomics_16_cancelP6__halfP14__nv_bfloat162i"), 64,
                           1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<__half> hs = h.download();
  const __nv_bfloat162 pair = b2.download()[0];
  EXPECT_EQ(0.0f, __half2float(hs[0])) << "an update to the __half was lost";
  EXPECT_EQ(0.0f, __half2float(hs[1])) << "an update to the __half was lost";
  EXPECT_EQ(0.0f, __low2float(pair)) << "an update to the pair was lost";
  EXPECT_EQ(0.0f, __high2float(pair)) << "an update to the pair was lost";
}

TEST_P(HalfMathTest, ReluComplexAndMaskFormsOfPairs) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  const float specials[] = {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(), 1.0f, -1.0f};
  const auto some = [&](int i) { return i % 7 == 0 ? specials[(i / 7) % 5] : value(rng); };
  int n = 4096;
  std::vector<__half2> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = __floats2half2_rn(some(i), some(i + 1));
    b[i] = __floats2half2_rn(some(i + 2), some(i + 3));
    c[i] = __floats2half2_rn(some(i + 4), some(i + 5));
  }
  // A fused result of -0 (-0 * 1 + -0): relu makes it +0.
  a[0] = __floats2half2_rn(-0.0f, 1.0f);
  b[0] = __floats2half2_rn(1.0f, -1.0f);
  c[0] = __floats2half2_rn(-0.0f, -0.5f);
  DeviceBuffer<__half2> da(device, a), db(device, b), dc(device, c);
  DeviceBuffer<unsigned> dout(device, static_cast<size_t>(9) * n);
  void* params[] = {da.param(), db.param(), dc.param(), dout.param(), &n};
  launch("_Z11pair_extrasPK7__half2S1_S1_Pji", n, params);
  const std::vector<unsigned> out = dout.download();

  const auto pair_bits = [](auto p) { return unsigned{bits(p.x)} | unsigned{bits(p.y)} << 16; };
  // relu of a fused result: NaN the canonical NaN, anything with the sign bit +0.
  const auto relu = [](uint16_t r, uint16_t infinity) -> unsigned {
    if ((r & 0x7FFFu) > infinity) return 0x7FFF;
    return (r & 0x8000u) ? 0 : r;
  };
  const auto mask = [](bool low, bool high) {
    return (low ? 0xFFFFu : 0u) | (high ? 0xFFFF0000u : 0u);
  };
  const auto to_bf16 = [](__half2 v) {
    return __floats2bfloat162_rn(__low2float(v), __high2float(v));
  };
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    const float ax = __low2float(a[i]), ay = __high2float(a[i]);
    const float bx = __low2float(b[i]), by = __high2float(b[i]);
    const __nv_bfloat162 fa = to_bf16(a[i]), fb = to_bf16(b[i]), fc = to_bf16(c[i]);
    // The complex multiply-add in CUDA's order of fused steps, each checked by the host's __hfma
    // (tests/unit/half_test.cpp checks that against exact results).
    const __half2 cm(__hfma(__hneg(a[i].y), b[i].y, __hfma(a[i].x, b[i].x, c[i].x)),
                     __hfma(a[i].y, b[i].x, __hfma(a[i].x, b[i].y, c[i].y)));
    const __nv_bfloat162 fcm(__hfma(__hneg(fa.y), fb.y, __hfma(fa.x, fb.x, fc.x)),
                             __hfma(fa.y, fb.x, __hfma(fa.x, fb.y, fc.y)));
    const float fax = __low2float(fa), fay = __high2float(fa);
    const float fbx = __low2float(fb), fby = __high2float(fb);
    const unsigned expected[9] = {
        mask(ax < bx, ay < by),
        mask(!(ax != ax || bx != bx) ? ax == bx : true, !(ay != ay || by != by) ? ay == by : true),
        relu(bits(__hfma(a[i].x, b[i].x, c[i].x)), 0x7C00) |
            relu(bits(__hfma(a[i].y, b[i].y, c[i].y)), 0x7C00) << 16,
        pair_bits(cm),
        mask(!(fax < fbx), !(fay < fby)),
        relu(bits(__hfma(fa.x, fb.x, fc.x)), 0x7F80) | relu(bits(__hfma(fa.y, fb.y, fc.y)), 0x7F80)
                                                           << 16,
        pair_bits(fcm),
        pair_bits(__nv_bfloat162(fa.y, fa.y)) ^ pair_bits(__nv_bfloat162(fb.x, fb.x)),
        pair_bits(c[i]) + pair_bits(a[i])};
    for (int k = 0; k < 9; ++k)
      if (out[9 * i + k] != expected[k] && ++failures <= 10)
        ADD_FAILURE() << "result " << k << " of pair " << i << ": 0x" << std::hex << out[9 * i + k]
                      << ", expected 0x" << expected[k] << std::dec;
  }
  EXPECT_EQ(0, failures);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, HalfMathTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
