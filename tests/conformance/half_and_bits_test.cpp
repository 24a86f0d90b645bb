// The kernels of tests/cuda_sources/half_and_bits.cu on every device present (the CPU, and the
// CUDA, HIP and Level Zero test drivers in their suites): 16-bit floating point and CUDA's integer
// intrinsics, each result compared bit for bit with the host. The 16-bit reference is anygpu/half.h
// on the host (checked against independent references in tests/unit/half_test.cpp); the integer
// reference is written here from CUDA's documentation, bit by bit.
#include <anygpu/half.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

constexpr int kHalfOps = 16, kBf16Ops = 8, kIntOps = 24;

unsigned blocks_for(int n, unsigned block) {
  return (static_cast<unsigned>(n) + block - 1) / block;
}

uint16_t bits(__half h) {
  return __half_as_ushort(h);
}
uint16_t bits(__nv_bfloat16 h) {
  return __bfloat16_as_ushort(h);
}

// Operands of every kind: normal, subnormal, zero, infinity, NaN.
std::vector<__half> random_halves(std::mt19937& rng, int n) {
  std::vector<__half> values(n);
  for (int i = 0; i < n; ++i) {
    uint16_t b = static_cast<uint16_t>(rng());
    if (i % 7 == 0) b &= 0x83FF;                                       // subnormal or zero
    if (i % 31 == 0) b = (b & 0x8000) | 0x7C00;                        // infinity
    if (i % 37 == 0) b = 0x7E00;                                       // NaN
    if (i % 5 == 1) b = static_cast<uint16_t>((b & 0x83FF) | 0x3C00);  // [1, 2)
    values[i] = __ushort_as_half(b);
  }
  return values;
}

class HalfAndBitsTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
  TestModule module{device};

  void launch(const char* kernel, int n, void** params) {
    ASSERT_AG(agLaunchKernel(module.function(kernel), blocks_for(n, 64), 1, 1, 64, 1, 1, 0, nullptr,
                             params, nullptr));
  }
};

TEST_P(HalfAndBitsTest, HalfArithmeticMatchesTheHost) {
  std::mt19937 rng(1);
  int n = 3000;
  const std::vector<__half> a = random_halves(rng, n), b = random_halves(rng, n),
                            c = random_halves(rng, n);
  DeviceBuffer<__half> da(device, a), db(device, b), dc(device, c), dout(device, kHalfOps * n);
  void* params[] = {da.param(), db.param(), dc.param(), dout.param(), &n};
  launch("_Z15half_arithmeticPK6__halfS1_S1_PS_i", n, params);
  const std::vector<__half> out = dout.download();
  for (int i = 0; i < n; ++i) {
    const __half x = a[i], y = b[i], z = c[i];
    __half acc = x;
    acc -= y;
    acc /= z;
    const __half expected[kHalfOps] = {__hadd(x, y),
                                       __hsub(x, y),
                                       __hmul(x, y),
                                       __hdiv(x, y),
                                       __hfma(x, y, z),
                                       __hneg(x),
                                       __habs(y),
                                       __hmax(x, y),
                                       __hmin(x, y),
                                       __hmax_nan(x, y),
                                       __hadd_sat(x, y),
                                       __hadd(__hmul(x, y), z),
                                       acc,
                                       __float2half(__half2float(x) * 3.0f),
                                       __hfma_sat(x, y, z),
                                       __hneg(y)};
    for (int op = 0; op < kHalfOps; ++op)
      ASSERT_EQ(bits(expected[op]), bits(out[kHalfOps * i + op]))
          << "operation " << op << " of " << std::hex << bits(x) << " " << bits(y) << " "
          << bits(z);
  }
}

TEST_P(HalfAndBitsTest, HalfComparisonsMatchTheHost) {
  std::mt19937 rng(2);
  int n = 2000;
  std::vector<__half> a = random_halves(rng, n), b = random_halves(rng, n);
  for (int i = 0; i < n; i += 3) b[i] = a[i];  // equal pairs too
  DeviceBuffer<__half> da(device, a), db(device, b);
  DeviceBuffer<unsigned> dout(device, n);
  void* params[] = {da.param(), db.param(), dout.param(), &n};
  launch("_Z16half_comparisonsPK6__halfS1_Pji", n, params);
  const std::vector<unsigned> out = dout.download();
  for (int i = 0; i < n; ++i) {
    const __half x = a[i], y = b[i];
    // From the values as floats (exact), as C++ compares them; u = unordered (a NaN).
    const float fx = __half2float(x), fy = __half2float(y);
    const unsigned u = std::isnan(fx) || std::isnan(fy);
    const unsigned expected = (fx == fy) << 0 | (fx != fy && !u) << 1 | (fx < fy) << 2 |
                              (fx <= fy) << 3 | (fx > fy) << 4 | (fx >= fy) << 5 |
                              (fx == fy || u) << 6 | (fx != fy) << 7 | (fx < fy || u) << 8 |
                              (fx <= fy || u) << 9 | (fx > fy || u) << 10 | (fx >= fy || u) << 11 |
                              (fx == fy) << 12 | (fx != fy) << 13 | (fx < fy) << 14 |
                              (fx >= fy) << 15 | std::isnan(fx) << 16 | std::isinf(fx) << 17;
    ASSERT_EQ(expected, out[i]) << std::hex << bits(x) << " " << bits(y);
  }
}

// __half2 and __half kernel arguments by value, from the host.
TEST_P(HalfAndBitsTest, Half2ArgumentsAndBuffers) {
  int n = 1000;
  std::vector<__half2> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = __floats2half2_rn(0.125f * i, -0.5f * (i % 17));
    y[i] = __floats2half2_rn(1.0f / (i + 1), static_cast<float>(i % 9));
  }
  __half2 alpha = __floats2half2_rn(1.5f, -0.75f);
  __half beta = __float2half(0.3f);
  DeviceBuffer<__half2> dx(device, x), dy(device, y);
  void* params[] = {dx.param(), dy.param(), &alpha, &beta, &n};
  launch("_Z11half2_axpbyPK7__half2PS_S_6__halfi", n, params);
  const std::vector<__half2> out = dy.download();
  for (int i = 0; i < n; ++i) {
    const __half2 expected = __hfma2(alpha, x[i], __hmul2(__half2half2(beta), y[i]));
    ASSERT_EQ(bits(expected.x), bits(out[i].x)) << "element " << i;
    ASSERT_EQ(bits(expected.y), bits(out[i].y)) << "element " << i;
  }
}

TEST_P(HalfAndBitsTest, ConversionsMatchTheHost) {
  std::mt19937 rng(3);
  std::vector<float> in;
  const float named[] = {0.0f,
                         -0.0f,
                         1.0f,
                         65504.0f,
                         65519.0f,
                         65520.0f,
                         1e-8f,
                         2.98e-8f,
                         6.1e-5f,
                         3.0e38f,
                         -1e30f,
                         1.00048828125f,
                         std::numeric_limits<float>::infinity(),
                         std::nanf("")};
  in.assign(std::begin(named), std::end(named));
  while (in.size() < 4000) {
    const uint32_t u = rng();
    float f;
    std::memcpy(&f, &u, sizeof f);
    in.push_back(f);
  }
  int n = static_cast<int>(in.size());
  DeviceBuffer<float> din(device, in), dback(device, 2 * in.size());
  DeviceBuffer<unsigned short> dhalf(device, in.size()), dbf16(device, in.size());
  void* params[] = {din.param(), dhalf.param(), dbf16.param(), dback.param(), &n};
  launch("_Z11conversionsPKfPtS1_Pfi", n, params);
  const std::vector<unsigned short> half_bits = dhalf.download(), bf16_bits = dbf16.download();
  const std::vector<float> back = dback.download();
  for (int i = 0; i < n; ++i) {
    const __half h = __float2half_rn(in[i]);
    const __nv_bfloat16 b = __float2bfloat16(in[i]);
    ASSERT_EQ(bits(h), half_bits[i]) << in[i];
    ASSERT_EQ(bits(b), bf16_bits[i]) << in[i];
    const float expected_back = __half2float(h) + 1.0f - 1.0f;
    const float expected_bf16 = __bfloat162float(b);
    if (std::isnan(expected_back))
      ASSERT_TRUE(std::isnan(back[2 * i])) << in[i];
    else
      ASSERT_EQ(expected_back, back[2 * i]) << in[i];
    if (std::isnan(expected_bf16))
      ASSERT_TRUE(std::isnan(back[2 * i + 1])) << in[i];
    else
      ASSERT_EQ(expected_bf16, back[2 * i + 1]) << in[i];
  }
}

TEST_P(HalfAndBitsTest, Bfloat16ArithmeticMatchesTheHost) {
  std::mt19937 rng(4);
  int n = 2000;
  std::vector<__nv_bfloat162> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    const auto one = [&rng]() {
      const float value = std::ldexp(static_cast<float>(rng() % 20000) - 10000.0f,
                                     static_cast<int>(rng() % 40) - 20);
      return __float2bfloat16(value);
    };
    a[i] = __halves2bfloat162(one(), one());
    b[i] = __halves2bfloat162(one(), one());
  }
  DeviceBuffer<__nv_bfloat162> da(device, a), db(device, b), dout(device, kBf16Ops * n);
  void* params[] = {da.param(), db.param(), dout.param(), &n};
  launch("_Z15bf16_arithmeticPK14__nv_bfloat162S1_PS_i", n, params);
  const std::vector<__nv_bfloat162> out = dout.download();
  for (int i = 0; i < n; ++i) {
    const __nv_bfloat162 x = a[i], y = b[i];
    const __nv_bfloat162 expected[kBf16Ops] = {
        __hadd2(x, y),
        __hsub2(x, y),
        __hmul2(x, y),
        __h2div(x, y),
        __hfma2(x, y, x),
        __hmax2(x, y),
        __halves2bfloat162(__hadd(__low2bfloat16(x), __high2bfloat16(y)),
                           __hneg(__high2bfloat16(x))),
        __floats2bfloat162_rn(__low2float(x) * 0.5f, __high2float(y) + 1.0f)};
    for (int op = 0; op < kBf16Ops; ++op) {
      const __nv_bfloat162 got = out[kBf16Ops * i + op];
      ASSERT_EQ(bits(expected[op].x), bits(got.x)) << "operation " << op << " element " << i;
      ASSERT_EQ(bits(expected[op].y), bits(got.y)) << "operation " << op << " element " << i;
    }
  }
}

// ---------------------------------- integer intrinsics ------------------------------------------
// References from CUDA's definitions, one bit or byte at a time.
int ref_popc(uint64_t x) {
  int count = 0;
  for (int b = 0; b < 64; ++b) count += (x >> b) & 1;
  return count;
}
int ref_clz(uint64_t x, int width) {
  int count = 0;
  for (int b = width - 1; b >= 0 && !((x >> b) & 1); --b) ++count;
  return count;
}
int ref_ffs(uint64_t x, int width) {
  for (int b = 0; b < width; ++b)
    if ((x >> b) & 1) return b + 1;
  return 0;
}
uint64_t ref_brev(uint64_t x, int width) {
  uint64_t r = 0;
  for (int b = 0; b < width; ++b) r |= ((x >> b) & 1) << (width - 1 - b);
  return r;
}
uint32_t ref_byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  const uint8_t input[8] = {uint8_t(x), uint8_t(x >> 8), uint8_t(x >> 16), uint8_t(x >> 24),
                            uint8_t(y), uint8_t(y >> 8), uint8_t(y >> 16), uint8_t(y >> 24)};
  uint32_t r = 0;
  for (int n = 0; n < 4; ++n) r |= uint32_t(input[(s >> (4 * n)) & 7]) << (8 * n);
  return r;
}
// The 64 bits hi:lo shifted bit by bit.
uint32_t ref_funnel(uint32_t lo, uint32_t hi, uint32_t shift, bool left) {
  uint64_t both = (uint64_t(hi) << 32) | lo;
  for (uint32_t k = 0; k < shift; ++k) both = left ? both << 1 : both >> 1;
  return left ? uint32_t(both >> 32) : uint32_t(both);
}
int64_t sign_extend_24(uint32_t x) {
  return (x & 0x800000u) ? int64_t(x & 0xFFFFFFu) - 0x1000000 : int64_t(x & 0xFFFFFFu);
}
// The upper 64 bits of a 128-bit product by schoolbook long multiplication in 16-bit digits.
uint64_t ref_umul64hi(uint64_t x, uint64_t y) {
  uint32_t digits[8] = {};
  for (int i = 0; i < 4; ++i) {
    uint64_t carry = 0;
    for (int j = 0; j < 4; ++j) {
      const uint64_t t =
          digits[i + j] + ((x >> (16 * i)) & 0xFFFF) * ((y >> (16 * j)) & 0xFFFF) + carry;
      digits[i + j] = uint32_t(t & 0xFFFF);
      carry = t >> 16;
    }
    for (int k = i + 4; carry; ++k) {
      const uint64_t t = digits[k] + carry;
      digits[k] = uint32_t(t & 0xFFFF);
      carry = t >> 16;
    }
  }
  uint64_t high = 0;
  for (int d = 7; d >= 4; --d) high = (high << 16) | digits[d];
  return high;
}
int64_t ref_mul64hi(int64_t x, int64_t y) {
  uint64_t high = ref_umul64hi(uint64_t(x), uint64_t(y));
  if (x < 0) high -= uint64_t(y);
  if (y < 0) high -= uint64_t(x);
  return int64_t(high);
}

TEST_P(HalfAndBitsTest, IntegerIntrinsicsMatchCudasDefinitions) {
  std::mt19937 rng(5);
  int n = 3000;
  std::vector<unsigned> u(n), v(n), w(n);
  const unsigned special[] = {0u,          1u,  0x80000000u, 0xFFFFFFFFu, 0x7FFFFFFFu,
                              0x00800000u, 31u, 32u,         33u,         64u};
  for (int i = 0; i < n; ++i) {
    u[i] = i < 10 ? special[i] : rng() >> (rng() % 32);
    v[i] = i < 100 ? special[i % 10] : rng();
    w[i] = i % 3 == 0 ? rng() % 70 : rng();  // shifts below, at and above 32
  }
  DeviceBuffer<unsigned> du(device, u), dv(device, v), dw(device, w), dout(device, kIntOps * n);
  void* params[] = {du.param(), dv.param(), dw.param(), dout.param(), &n};
  launch("_Z18integer_intrinsicsPKjS0_S0_Pji", n, params);
  const std::vector<unsigned> out = dout.download();
  for (int i = 0; i < n; ++i) {
    const uint32_t x = u[i], y = v[i], s = w[i];
    const uint64_t wide = (uint64_t(x) << 32) | y, other = (uint64_t(s) << 32) | (x ^ y);
    const int64_t sx = int32_t(x), sy = int32_t(y);
    const uint64_t reversed = ref_brev(wide, 64), high = ref_umul64hi(wide, other);
    const uint64_t signed_high = uint64_t(ref_mul64hi(int64_t(wide), int64_t(other)));
    const uint32_t expected[kIntOps] = {uint32_t(ref_popc(x)),
                                        uint32_t(ref_clz(x, 32)),
                                        uint32_t(ref_ffs(x, 32)),
                                        uint32_t(ref_brev(x, 32)),
                                        ref_byte_perm(x, y, s),
                                        ref_funnel(x, y, s % 32, true),
                                        ref_funnel(x, y, s < 32 ? s : 32, true),
                                        ref_funnel(x, y, s % 32, false),
                                        ref_funnel(x, y, s < 32 ? s : 32, false),
                                        uint32_t(uint64_t(sign_extend_24(x) * sign_extend_24(y))),
                                        uint32_t(uint64_t(x & 0xFFFFFFu) * (y & 0xFFFFFFu)),
                                        uint32_t(uint64_t(sx * sy) >> 32),
                                        uint32_t((uint64_t(x) * y) >> 32),
                                        uint32_t(sx > sy ? sx - sy : sy - sx) + s,
                                        (x > y ? x - y : y - x) + s,
                                        uint32_t((sx + sy) >> 1),
                                        uint32_t((sx + sy + 1) >> 1),
                                        uint32_t((uint64_t(x) + y) >> 1),
                                        uint32_t((uint64_t(x) + y + 1) >> 1),
                                        uint32_t(ref_popc(wide)) |
                                            uint32_t(ref_clz(wide, 64)) << 8 |
                                            uint32_t(ref_ffs(wide, 64)) << 16,
                                        uint32_t(reversed >> 32) ^ uint32_t(reversed),
                                        uint32_t(high >> 32) ^ uint32_t(high),
                                        uint32_t(signed_high >> 32) ^ uint32_t(signed_high),
                                        uint32_t(ref_popc(s & 0xFFFF)) + 32u * 256u + 0u};
    for (int op = 0; op < kIntOps; ++op)
      ASSERT_EQ(expected[op], out[kIntOps * i + op])
          << "operation " << op << std::hex << " of " << x << " " << y << " " << s;
  }
}

// The same types and intrinsics in the AG_KERNEL dialect (kernels/half_dialect.cpp).
TEST_P(HalfAndBitsTest, DialectKernelWithHalf2AndBitIntrinsics) {
  int n = 777;
  std::vector<__half2> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = __floats2half2_rn(0.01f * i, -3.0f + i % 11);
    y[i] = __floats2half2_rn(static_cast<float>(i % 5), 1.0f / (1 + i));
  }
  __half2 alpha = __floats2half2_rn(-0.7f, 2.5f);
  DeviceBuffer<__half2> dx(device, x), dy(device, y);
  DeviceBuffer<unsigned> dbits(device, n);
  void* params[] = {dx.param(), dy.param(), &alpha, dbits.param(), &n};
  launch("half_dialect_axpy", n, params);
  const std::vector<__half2> out = dy.download();
  const std::vector<unsigned> out_bits = dbits.download();
  for (int i = 0; i < n; ++i) {
    const __half2 expected = __hfma2(alpha, x[i], h2sqrt(__habs2(y[i])));
    ASSERT_EQ(bits(expected.x), bits(out[i].x)) << "element " << i;
    ASSERT_EQ(bits(expected.y), bits(out[i].y)) << "element " << i;
    const uint32_t u = uint32_t(i) * 2654435761u;
    const uint32_t expected_bits = uint32_t(ref_brev(u, 32)) ^
                                   ref_byte_perm(u, uint32_t(n), 0x5140u) ^
                                   uint32_t(ref_clz(u, 32)) ^ uint32_t(ref_ffs(uint32_t(i), 32));
    ASSERT_EQ(expected_bits, out_bits[i]) << "element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, HalfAndBitsTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
