// CUDA's atomic functions (kernels/cuda_atomics.cpp) on every device present: every overload in
// every form against a host reference run on plain memory, and many threads on the same counters,
// whose final values and returned old values the host derives.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <numeric>

#include "cuda_atomics.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

static_assert(sizeof(ag_atomic_slots) == 128, "no padding: the slots are compared as bytes");

// CUDA's semantics, one thread, plain memory. The value is not deduced, as in CUDA.
namespace reference {
template <typename T>
struct same {
  using type = T;
};
template <typename T>
using value_t = typename same<T>::type;
#define AG_REFERENCE(name, expression)  \
  template <typename T>                 \
  T name(T* p, value_t<T> v) {          \
    const T old = *p;                   \
    *p = static_cast<T>(expression);    \
    return old;                         \
  }                                     \
  template <typename T>                 \
  T name##_block(T* p, value_t<T> v) {  \
    return name(p, v);                  \
  }                                     \
  template <typename T>                 \
  T name##_system(T* p, value_t<T> v) { \
    return name(p, v);                  \
  }
AG_REFERENCE(atomicAdd, old + v)
AG_REFERENCE(atomicSub, old - v)
AG_REFERENCE(atomicExch, v)
AG_REFERENCE(atomicMin, v < old ? v : old)
AG_REFERENCE(atomicMax, v > old ? v : old)
AG_REFERENCE(atomicAnd, old& v)
AG_REFERENCE(atomicOr, old | v)
AG_REFERENCE(atomicXor, old ^ v)
AG_REFERENCE(atomicInc, old >= v ? 0 : old + 1)
AG_REFERENCE(atomicDec, old == 0 || old > v ? v : old - 1)
template <typename T>
T atomicCAS(T* p, value_t<T> compare, value_t<T> v) {
  const T old = *p;
  if (old == compare) *p = v;
  return old;
}
template <typename T>
T atomicCAS_block(T* p, value_t<T> compare, value_t<T> v) {
  return atomicCAS(p, compare, v);
}
template <typename T>
T atomicCAS_system(T* p, value_t<T> compare, value_t<T> v) {
  return atomicCAS(p, compare, v);
}
}  // namespace reference

std::vector<ag_test_ull> reference_olds(ag_atomic_slots* s) {
  using namespace reference;
  std::vector<ag_test_ull> olds;
#define AG_RECORD(expression) olds.push_back(ag_atomic_bits(expression));
  AG_ATOMIC_STEPS(AG_RECORD, s)
#undef AG_RECORD
  return olds;
}

// `count` applications of CUDA's atomicInc (inc) or atomicDec from 0: the old values.
std::vector<unsigned> wrap_sequence(unsigned count, unsigned limit, bool inc) {
  std::vector<unsigned> olds;
  unsigned value = 0;
  for (unsigned k = 0; k < count; ++k) {
    olds.push_back(value);
    if (inc)
      value = value >= limit ? 0 : value + 1;
    else
      value = value == 0 || value > limit ? limit : value - 1;
  }
  olds.push_back(value);  // the final value last
  return olds;
}

std::vector<unsigned> iota_of(unsigned count) {
  std::vector<unsigned> values(count);
  std::iota(values.begin(), values.end(), 0u);
  return values;
}

// Column k of the n x 4 returned values, sorted.
std::vector<unsigned> sorted_column(const std::vector<unsigned>& returned, unsigned k) {
  std::vector<unsigned> column;
  for (size_t i = k; i < returned.size(); i += 4) column.push_back(returned[i]);
  std::sort(column.begin(), column.end());
  return column;
}

class AtomicsTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
  TestModule module{device};
};

TEST_P(AtomicsTest, EveryFunctionInEveryFormMatchesCudaSemantics) {
  const ag_atomic_slots initial = AG_ATOMIC_SLOTS_INITIAL;
  DeviceBuffer<ag_atomic_slots> slots(device, std::vector<ag_atomic_slots>{initial});
  DeviceBuffer<ag_test_ull> olds(device, std::vector<ag_test_ull>(ag_atomic_step_count, 0));
  void* params[] = {slots.param(), olds.param()};
  ASSERT_AG(agLaunchKernel(module.function("cuda_atomics_every_form"), 1, 1, 1, 32, 1, 1, 0,
                           nullptr, params, nullptr));
  ag_atomic_slots expected = initial;
  const std::vector<ag_test_ull> expected_olds = reference_olds(&expected);
  const std::vector<ag_test_ull> got = olds.download();
  for (int k = 0; k < ag_atomic_step_count; ++k)
    EXPECT_EQ(expected_olds[k], got[k]) << "step " << k << " (cuda_atomics.h order: function "
                                        << k / 3 << ", form " << k % 3 << ")";
  const ag_atomic_slots result = slots.download()[0];
  EXPECT_EQ(0, memcmp(&expected, &result, sizeof result)) << "the slots after every step";
  EXPECT_EQ(1, result.us[0]) << "the neighbour of a 16-bit compare-and-swap";
  EXPECT_EQ(7, result.us[3]) << "the neighbour of a 16-bit compare-and-swap";
}

TEST_P(AtomicsTest, ManyThreadsOnTheSameCounters) {
  const unsigned blocks = 37, block = 64, n = blocks * block;
  DeviceBuffer<int> ints(device, std::vector<int>{0, 0, 0, -1, 0, 0, 0, 0});
  DeviceBuffer<unsigned> uints(device, std::vector<unsigned>{0, 0, ~0u, 0, 0, 0, ~0u, 0, 0, 0});
  DeviceBuffer<ag_test_ull> ulls(device,
                                 std::vector<ag_test_ull>{0, 0, ~0ull, 0, ~0ull, 0, 0, 0, 0});
  DeviceBuffer<ag_test_ll> lls(device, std::vector<ag_test_ll>{0, -(1ll << 62), 0});
  DeviceBuffer<float> floats(device, std::vector<float>{0.0f, -1.0f});
  DeviceBuffer<double> doubles(device, std::vector<double>{0.0});
  DeviceBuffer<unsigned short> shorts(device, std::vector<unsigned short>{0, 0});
  DeviceBuffer<unsigned> returned(device, std::vector<unsigned>(4 * n, 0));
  DeviceBuffer<unsigned> per_block(device, std::vector<unsigned>(8 * blocks, 0));
  void* params[] = {ints.param(),   uints.param(),    ulls.param(),
                    lls.param(),    floats.param(),   doubles.param(),
                    shorts.param(), returned.param(), per_block.param()};
  ASSERT_AG(agLaunchKernel(module.function("cuda_atomics_contended"), blocks, 1, 1, block, 1, 1, 0,
                           nullptr, params, nullptr));

  unsigned xor_u = 0, xor_i = 0;
  ag_test_ull xor_ull = 0;
  ag_test_ll xor_ll = 0;
  for (unsigned i = 0; i < n; ++i) {
    xor_u ^= i * 40503u;
    xor_i ^= i * 2654435761u;
    xor_ull ^= static_cast<ag_test_ull>(i) << 40 | i;
    xor_ll ^= static_cast<ag_test_ll>(i) << 44;
  }
  const std::vector<unsigned> inc = wrap_sequence(n, 9, true), dec = wrap_sequence(n, 6, false);

  const std::vector<unsigned> u = uints.download();
  EXPECT_EQ(n, u[0]);
  EXPECT_EQ(0u - n, u[1]);
  EXPECT_EQ(5u, u[2]);
  EXPECT_EQ(n - 1, u[3]);
  EXPECT_EQ(inc.back(), u[4]) << "atomicInc wraps at its limit";
  EXPECT_EQ(dec.back(), u[5]) << "atomicDec wraps at 0 and above its limit";
  EXPECT_EQ(0u, u[6]);
  EXPECT_EQ(~0u, u[7]);
  EXPECT_EQ(xor_u, u[8]);
  EXPECT_LT(u[9], n);

  const std::vector<int> s = ints.download();
  const int count = static_cast<int>(n);
  EXPECT_EQ(-3 * count, s[0]);
  EXPECT_EQ(1 - count, s[1]);
  EXPECT_EQ(count - 1, s[2]);
  EXPECT_EQ(INT_MIN, s[3]);
  EXPECT_EQ(INT_MAX, s[4]);
  EXPECT_EQ(static_cast<int>(xor_i), s[5]);
  EXPECT_EQ(count, s[7]) << "compare-and-swap increments";

  const std::vector<ag_test_ull> w = ulls.download();
  EXPECT_EQ(n, w[0]);
  EXPECT_EQ(static_cast<ag_test_ull>(n) << 32, w[1]);
  EXPECT_EQ(1u, w[2]);
  EXPECT_EQ(static_cast<ag_test_ull>(n - 1) << 33, w[3]);
  EXPECT_EQ(0u, w[4]);
  EXPECT_EQ(~0ull, w[5]);
  EXPECT_EQ(xor_ull, w[6]);
  EXPECT_EQ(0u, w[7] & 0xffffffffu);
  EXPECT_LT(w[7] >> 32, n);
  EXPECT_EQ(n, w[8]) << "compare-and-swap increments";

  const std::vector<ag_test_ll> l = lls.download();
  EXPECT_EQ(-(static_cast<ag_test_ll>(n - 1) << 40), l[0]);
  EXPECT_EQ(static_cast<ag_test_ll>(n) - 1001, l[1]);
  EXPECT_EQ(xor_ll, l[2]);

  const std::vector<float> f = floats.download();
  EXPECT_EQ(n * 0.5f, f[0]);  // exact: every partial sum is a multiple of 0.5
  EXPECT_TRUE(f[1] >= 0.0f && f[1] < n && f[1] == static_cast<float>(static_cast<int>(f[1])));
  EXPECT_EQ(n * 0.25, doubles.download()[0]);
  EXPECT_EQ((std::vector<unsigned short>{static_cast<unsigned short>(n),
                                         static_cast<unsigned short>(3 * n)}),
            shorts.download())
      << "two 16-bit compare-and-swap counters in one word";

  const std::vector<unsigned> r = returned.download();
  EXPECT_EQ(iota_of(n), sorted_column(r, 0)) << "atomicAdd returns each old value once";
  EXPECT_EQ(iota_of(n), sorted_column(r, 1)) << "each compare-and-swap ticket once";
  std::vector<unsigned> inc_olds(inc.begin(), inc.end() - 1);
  std::sort(inc_olds.begin(), inc_olds.end());
  EXPECT_EQ(inc_olds, sorted_column(r, 2)) << "atomicInc's old values";
  std::vector<unsigned> chain = sorted_column(r, 3);  // the exchanges' old values and the last
  chain.push_back(static_cast<unsigned>(s[6]));
  std::sort(chain.begin(), chain.end());
  EXPECT_EQ(iota_of(n + 1), chain) << "an exchange chain loses and repeats no value";

  const std::vector<unsigned> b = per_block.download();
  const std::vector<unsigned> wrap = wrap_sequence(block, 4, true);
  ag_test_ull bits = 0;
  for (unsigned t = 0; t < block; ++t) bits |= 1ull << (t % 64);
  for (unsigned k = 0; k < blocks; ++k) {
    const std::vector<unsigned> expected = {block,
                                            wrap.back(),
                                            1,
                                            block - 1,
                                            block - 1,
                                            static_cast<unsigned>(bits),
                                            static_cast<unsigned>(bits >> 32),
                                            block};
    EXPECT_EQ(expected, std::vector<unsigned>(b.begin() + 8 * k, b.begin() + 8 * k + 8))
        << "block " << k << "'s shared counters (block forms)";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, AtomicsTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
