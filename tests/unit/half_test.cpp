// anygpu/half.h on the host: the conversions against references computed another way (every
// binary16 bit pattern; float -> 16 bits against the nearest representable value found by search),
// the hard rounding cases by name, and the arithmetic against double precision rounded once.
#include <anygpu/half.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// The value of a binary16 pattern from its definition.
double half_value(uint16_t h) {
  const int sign = h >> 15, field = (h >> 10) & 31, fraction = h & 1023;
  double magnitude;
  if (field == 31)
    magnitude = fraction ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else if (field == 0)
    magnitude = std::ldexp(fraction, -24);
  else
    magnitude = std::ldexp(1024 + fraction, field - 25);
  return sign ? -magnitude : magnitude;
}
double bf16_value(uint16_t b) {
  return float_of(static_cast<uint32_t>(b) << 16);
}

// The values of the positive finite patterns 0..largest_finite of a format, in order.
std::vector<double> positive_values(double (*value)(uint16_t), uint16_t largest_finite) {
  std::vector<double> values(largest_finite + 1u);
  for (uint32_t p = 0; p <= largest_finite; ++p) values[p] = value(static_cast<uint16_t>(p));
  return values;
}

// Round x to nearest even among the finite values (a table from positive_values); from the
// largest finite value plus half its last gap on (where the next value would be), infinity.
// beyond: where the exact value lies when x is a rounded result (the sign of exact - x), which
// decides a tie.
uint16_t nearest(double x, const std::vector<double>& values, uint16_t infinity, double beyond) {
  if (std::isnan(x)) return 0x7FFF;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double m = std::fabs(x);
  const size_t last = values.size() - 1;
  if (m >= values[last] + (values[last] - values[last - 1]) / 2) return sign | infinity;
  // lo: the largest pattern whose value is <= m
  const size_t lo =
      static_cast<size_t>(std::upper_bound(values.begin(), values.end(), m) - values.begin()) - 1;
  if (lo == last) return static_cast<uint16_t>(sign | lo);
  const double below = m - values[lo], above = values[lo + 1] - m;
  const double toward_larger = std::signbit(x) ? -beyond : beyond;
  const size_t pick = below < above       ? lo
                      : above < below     ? lo + 1
                      : toward_larger > 0 ? lo + 1
                      : toward_larger < 0 ? lo
                      : (lo & 1)          ? lo + 1
                                          : lo;
  return static_cast<uint16_t>(sign | pick);
}
uint16_t nearest_half(double x, double beyond = 0) {
  static const std::vector<double> values = positive_values(half_value, 0x7BFF);
  return nearest(x, values, 0x7C00, beyond);
}
uint16_t nearest_bf16(double x, double beyond = 0) {
  static const std::vector<double> values = positive_values(bf16_value, 0x7F7F);
  return nearest(x, values, 0x7F80, beyond);
}

// x*y + z as a double and the error of that double (Knuth's two-sum; x*y is exact in double for
// 16-bit operands), so that the reference rounds the exact value.
double fma_and_error(double x, double y, double z, double* error) {
  const double product = x * y, sum = product + z;
  const double z_part = sum - product;
  *error = std::isfinite(sum) ? (product - (sum - z_part)) + (z - z_part) : 0.0;
  return sum;
}

bool is_half_nan(uint16_t h) {
  return (h & 0x7FFF) > 0x7C00;
}

TEST(HalfConversions, EveryHalfToFloatIsExact) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float f = __half2float(__ushort_as_half(static_cast<uint16_t>(h)));
    const double expected = half_value(static_cast<uint16_t>(h));
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(f)) << std::hex << h;
      continue;
    }
    ASSERT_EQ(expected, static_cast<double>(f)) << std::hex << h;
    ASSERT_EQ(std::signbit(expected), std::signbit(f)) << std::hex << h;
  }
}

TEST(HalfConversions, EveryHalfSurvivesTheRoundTrip) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const __half original = __ushort_as_half(static_cast<uint16_t>(h));
    const uint16_t back = __half_as_ushort(__float2half(__half2float(original)));
    if (is_half_nan(static_cast<uint16_t>(h)))
      ASSERT_EQ(0x7FFF, back) << std::hex << h;  // CUDA's canonical NaN
    else
      ASSERT_EQ(h, back) << std::hex << h;
    ASSERT_EQ(is_half_nan(static_cast<uint16_t>(h)) ? 0x7FFF : h,
              __half_as_ushort(__double2half(half_value(static_cast<uint16_t>(h)))))
        << std::hex << h;
  }
}

// Every float whose upper 20 bits are anything and lower 12 bits are a few patterns that put it on,
// next to, and between the rounding boundaries of both formats: against the search.
TEST(HalfConversions, FloatToHalfAndBf16RoundToNearestEven) {
  const uint32_t lows[] = {0x000, 0x001, 0x7FF, 0x800, 0x801, 0xFFF, 0x1000 - 2, 0x3FF, 0x400};
  for (uint32_t high = 0; high < (1u << 20); ++high)
    for (uint32_t low : lows) {
      const uint32_t u = (high << 12) | (low & 0xFFF);
      const float f = float_of(u);
      ASSERT_EQ(nearest_half(f), __half_as_ushort(__float2half_rn(f))) << std::hex << u;
      ASSERT_EQ(nearest_bf16(f), __bfloat16_as_ushort(__float2bfloat16_rn(f))) << std::hex << u;
    }
}

TEST(HalfConversions, TrickyValuesByName) {
  const struct {
    double value;
    uint16_t half;
  } cases[] = {
      {1.0, 0x3C00},
      {1.0 + 0x1p-11, 0x3C00},            // tie between 1 and 1 + 2^-10: even
      {1.0 + 3 * 0x1p-11, 0x3C02},        // tie, odd below: up
      {1.0 + 0x1p-11 + 0x1p-40, 0x3C01},  // just above the tie (a float would make it a tie)
      {65504.0, 0x7BFF},                  // the largest half
      {65519.99, 0x7BFF},                 // below the overflow threshold
      {65520.0, 0x7C00},                  // the threshold: a tie that goes to infinity
      {1e10, 0x7C00},                     // overflow
      {-1e10, 0xFC00},                    //
      {0x1p-24, 0x0001},                  // the smallest subnormal
      {0x1p-25, 0x0000},                  // half of it: a tie, to even zero
      {0x1p-25 + 0x1p-40, 0x0001},        // above the tie
      {-0x1p-25, 0x8000},                 // negative zero
      {3 * 0x1p-25, 0x0002},              // 1.5 subnormal units: to even 2
      {0x1p-14 - 0x1p-25, 0x0400},        // rounds up into the smallest normal
      {6.1e-5, 0x03FF},                   // a subnormal near the top
      {0.0, 0x0000},
      {-0.0, 0x8000},
      {std::numeric_limits<double>::infinity(), 0x7C00},
      {-std::numeric_limits<double>::infinity(), 0xFC00},
      {std::numeric_limits<double>::quiet_NaN(), 0x7FFF},
      {1e-300, 0x0000},  // far below the smallest subnormal
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.half, __half_as_ushort(__double2half(c.value))) << c.value;
    const float f = static_cast<float>(c.value);
    if (static_cast<double>(f) == c.value || std::isnan(c.value)) {
      EXPECT_EQ(c.half, __half_as_ushort(__float2half(f))) << c.value;
    }
  }
  EXPECT_EQ(0x7FFF, __bfloat16_as_ushort(__float2bfloat16(std::nanf(""))));
  EXPECT_EQ(0x7F80, __bfloat16_as_ushort(__float2bfloat16(3.4e38f)));        // above the last bf16
  EXPECT_EQ(0x3F80, __bfloat16_as_ushort(__double2bfloat16(1.0 + 0x1p-8)));  // tie
  EXPECT_EQ(0x3F81, __bfloat16_as_ushort(__double2bfloat16(1.0 + 0x1p-8 + 0x1p-30)));  // above
  EXPECT_EQ(0x0001, __bfloat16_as_ushort(__float2bfloat16(float_of(0x00008001))));     // subnormal
  EXPECT_EQ(0x7BFF, __half_as_ushort(__half(65504)));
  EXPECT_EQ(0x7C00, __half_as_ushort(__int2half_rn(65520)));
  EXPECT_EQ(0x6C00, __half_as_ushort(__uint2half_rn(4096)));
  EXPECT_EQ(0xE800, __half_as_ushort(__int2half_rn(-2049)));  // tie between 2048 and 2050: even
  EXPECT_EQ(0x6802, __half_as_ushort(__int2half_rn(2051)));   // tie: up to the even 2052
}

TEST(HalfConversions, ToIntegersTruncateAndSaturate) {
  EXPECT_EQ(2, __half2int_rz(__float2half(2.75f)));
  EXPECT_EQ(-2, __half2int_rz(__float2half(-2.75f)));
  EXPECT_EQ(0, __half2int_rz(__ushort_as_half(0x7E00)));  // NaN
  EXPECT_EQ(0u, __half2uint_rz(__float2half(-3.0f)));
  EXPECT_EQ(32767, __half2short_rz(__float2half(60000.0f)));
  EXPECT_EQ(2147483647, __bfloat162int_rz(__float2bfloat16(1e20f)));
}

TEST(HalfTypes, LayoutsAreCudas) {
  EXPECT_EQ(2u, sizeof(__half));
  EXPECT_EQ(2u, alignof(__half));
  EXPECT_EQ(4u, sizeof(__half2));
  EXPECT_EQ(4u, alignof(__half2));
  EXPECT_EQ(2u, sizeof(__nv_bfloat16));
  EXPECT_EQ(4u, sizeof(__nv_bfloat162));
  EXPECT_EQ(4u, alignof(__nv_bfloat162));
  EXPECT_TRUE(std::is_trivially_copyable<__half2>::value);
  const __half2 pair = __floats2half2_rn(1.0f, -2.0f);
  uint16_t raw[2];
  std::memcpy(raw, &pair, sizeof raw);
  EXPECT_EQ(0x3C00, raw[0]);  // x is the lower half
  EXPECT_EQ(0xC000, raw[1]);
}

// Random operands of every kind (normal, subnormal, zero, infinity, NaN), each operation against
// double precision rounded once: binary16 sums and products are exact in double, a double
// quotient rounds again innocuously (53 >= 2 * 11 + 2 bits), and fma is rounded from the sum and
// its exact error.
uint16_t random_half(std::mt19937& rng) {
  const uint16_t bits = static_cast<uint16_t>(rng());
  switch (rng() % 8) {
    case 0:
      return bits & 0x83FF;  // subnormal or zero
    case 1:
      return (bits & 0x8000) | 0x7C00 | (rng() % 4 == 0 ? 0x200 : 0);  // infinity or NaN
    case 2:
      return (bits & 0x83FF) | 0x3C00;  // [1, 2)
    default:
      return bits;
  }
}

void expect_half(double exact, __half got, const char* what, uint16_t a, uint16_t b, uint16_t c,
                 double beyond = 0) {
  const uint16_t expected = nearest_half(exact, beyond);
  const uint16_t actual = __half_as_ushort(got);
  if (is_half_nan(expected)) {
    ASSERT_TRUE(is_half_nan(actual)) << what << std::hex << " " << a << " " << b << " " << c;
  } else {
    ASSERT_EQ(expected, actual) << what << std::hex << " " << a << " " << b << " " << c;
  }
}

TEST(HalfArithmetic, CorrectlyRoundedAgainstDouble) {
  std::mt19937 rng(20);
  for (int i = 0; i < 400000; ++i) {
    const uint16_t a = random_half(rng), b = random_half(rng), c = random_half(rng);
    const __half x = __ushort_as_half(a), y = __ushort_as_half(b), z = __ushort_as_half(c);
    const double dx = half_value(a), dy = half_value(b), dz = half_value(c);
    expect_half(dx + dy, __hadd(x, y), "add", a, b, c);
    expect_half(dx - dy, __hsub(x, y), "sub", a, b, c);
    expect_half(dx * dy, __hmul(x, y), "mul", a, b, c);
    expect_half(dx / dy, __hdiv(x, y), "div", a, b, c);
    double error = 0;
    const double fused = fma_and_error(dx, dy, dz, &error);
    expect_half(fused, __hfma(x, y, z), "fma", a, b, c, error);
    // The operators round the product, then the sum.
    expect_half(half_value(nearest_half(dx * dy)) + dz, x * y + z, "operators", a, b, c);
  }
}

// Quotients and fused products on both sides of each rounding tie: the cases a rounding of the
// float result would get wrong.
TEST(HalfArithmetic, TiesOfDivisionAndFma) {
  for (uint16_t b = 0x3C00; b < 0x4000; b = static_cast<uint16_t>(b + 7))
    for (uint16_t a = 0x3C00; a < 0x4400; a = static_cast<uint16_t>(a + 3)) {
      const double q = half_value(a) / half_value(b);
      ASSERT_EQ(nearest_half(q), __half_as_ushort(__hdiv(__ushort_as_half(a), __ushort_as_half(b))))
          << std::hex << a << " / " << b;
    }
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20; minus 2^-20 would be exact; each c moves it around a tie.
  const __half one_ulp = __ushort_as_half(0x3C01);
  for (uint16_t c = 0x0000; c < 0x1400; ++c)
    for (uint16_t sign : {0, 0x8000}) {
      const uint16_t cc = static_cast<uint16_t>(c | sign);
      double error = 0;
      const double fused =
          fma_and_error(half_value(0x3C01), half_value(0x3C01), half_value(cc), &error);
      ASSERT_EQ(nearest_half(fused, error),
                __half_as_ushort(__hfma(one_ulp, one_ulp, __ushort_as_half(cc))))
          << std::hex << cc;
    }
}

TEST(HalfArithmetic, ComparisonsAndMaxMin) {
  const __half one = __float2half(1.0f), two = __float2half(2.0f), nan = __ushort_as_half(0x7E00);
  const __half pos_zero = __ushort_as_half(0x0000), neg_zero = __ushort_as_half(0x8000);
  EXPECT_TRUE(__hlt(one, two));
  EXPECT_FALSE(__hlt(one, nan));
  EXPECT_TRUE(__hltu(one, nan));
  EXPECT_FALSE(__hne(one, nan));
  EXPECT_TRUE(__hneu(one, nan));
  EXPECT_TRUE(one != nan);
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(pos_zero == neg_zero);
  EXPECT_EQ(0x4000, __half_as_ushort(__hmax(one, two)));
  EXPECT_EQ(0x3C00, __half_as_ushort(__hmax(one, nan)));  // a NaN loses
  EXPECT_EQ(0x3C00, __half_as_ushort(__hmin(nan, one)));
  EXPECT_EQ(0x7FFF, __half_as_ushort(__hmax(nan, nan)));
  EXPECT_EQ(0x7FFF, __half_as_ushort(__hmax_nan(one, nan)));
  EXPECT_EQ(0x0000, __half_as_ushort(__hmax(neg_zero, pos_zero)));
  EXPECT_EQ(0x8000, __half_as_ushort(__hmin(pos_zero, neg_zero)));
  EXPECT_EQ(1, __hisinf(__ushort_as_half(0x7C00)));
  EXPECT_EQ(-1, __hisinf(__ushort_as_half(0xFC00)));
  EXPECT_TRUE(__hisnan(nan));
  EXPECT_EQ(0x3C00, __half_as_ushort(__hadd_sat(one, two)));
  EXPECT_EQ(0x0000, __half_as_ushort(__hsub_sat(one, two)));
  EXPECT_EQ(0x0000, __half_as_ushort(__hadd_sat(nan, one)));
  const __half2 p = __floats2half2_rn(1.0f, 3.0f), q = __floats2half2_rn(2.0f, 3.0f);
  const __half2 le = __hle2(p, q), lt = __hlt2(p, q);
  EXPECT_EQ(0x3C00, __half_as_ushort(le.x));
  EXPECT_EQ(0x3C00, __half_as_ushort(le.y));
  EXPECT_EQ(0x3C00, __half_as_ushort(lt.x));
  EXPECT_EQ(0x0000, __half_as_ushort(lt.y));
  EXPECT_TRUE(__hble2(p, q));
  EXPECT_FALSE(__hblt2(p, q));
}

// bfloat16: + - * / and fma against double rounded once, operands and results within float's
// normal range (below it the float step rounds too: half_formats.h).
TEST(Bfloat16Arithmetic, CorrectlyRoundedAgainstDouble) {
  std::mt19937 rng(16);
  auto random_bf16 = [&rng]() {
    const uint16_t sign = rng() % 2 ? 0x8000 : 0;
    return static_cast<uint16_t>(sign | ((rng() % 116 + 70) << 7) | (rng() & 0x7F));
  };
  for (int i = 0; i < 300000; ++i) {
    const uint16_t a = random_bf16(), b = random_bf16(), c = random_bf16();
    const __nv_bfloat16 x = __ushort_as_bfloat16(a), y = __ushort_as_bfloat16(b),
                        z = __ushort_as_bfloat16(c);
    const double dx = bf16_value(a), dy = bf16_value(b), dz = bf16_value(c);
    ASSERT_EQ(nearest_bf16(dx + dy), __bfloat16_as_ushort(__hadd(x, y))) << a << " " << b;
    ASSERT_EQ(nearest_bf16(dx - dy), __bfloat16_as_ushort(__hsub(x, y))) << a << " " << b;
    ASSERT_EQ(nearest_bf16(dx * dy), __bfloat16_as_ushort(__hmul(x, y))) << a << " " << b;
    ASSERT_EQ(nearest_bf16(dx / dy), __bfloat16_as_ushort(__hdiv(x, y))) << a << " " << b;
    double error = 0;
    const double fused = fma_and_error(dx, dy, dz, &error);
    ASSERT_EQ(nearest_bf16(fused, error), __bfloat16_as_ushort(__hfma(x, y, z)))
        << a << " " << b << " " << c;
  }
}

}  // namespace
