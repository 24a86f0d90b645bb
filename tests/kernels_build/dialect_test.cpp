// The dialect's math and atomics (kernels/dialect_math.cpp, kernels/dialect_atomics.cpp) on every
// device present, against host references: IEEE operations and atomics exactly, transcendental
// functions within a relative tolerance (their GPU forms are approximations:
// docs/kernel-dialect.md).
#include <math.h>

#include <cstdint>

#include "dialect_math.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

// Where the GPU approximations hold (0 < x < 8, away from tan's poles).
const std::vector<float> kInputs = {0.25f, 0.5f, 1.0f, 2.5f, 3.75f, 7.0f};
constexpr float kRelativeTolerance = 2e-5f;

struct MathResults {
  std::vector<float> floats;
  std::vector<double> doubles;
};

MathResults host_references() {
  MathResults results;
  for (const float x : kInputs) {
#define AG_REFERENCE_FLOAT(expression) results.floats.push_back(expression);
#define AG_REFERENCE_DOUBLE(expression) results.doubles.push_back(expression);
    AG_DIALECT_MATH_EXACT_FLOAT(AG_REFERENCE_FLOAT)
    AG_DIALECT_MATH_APPROXIMATE_FLOAT(AG_REFERENCE_FLOAT)
    AG_DIALECT_MATH_EXACT_DOUBLE(AG_REFERENCE_DOUBLE)
  }
  return results;
}

class DialectTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
  TestModule module{device};
};

TEST_P(DialectTest, MathMatchesTheHost) {
  int n = static_cast<int>(kInputs.size());
  DeviceBuffer<float> in(device, kInputs), floats(device, n * ag_dialect_math_float_count);
  DeviceBuffer<double> doubles(device, n * ag_dialect_math_double_count);
  void* params[] = {&n, in.param(), floats.param(), doubles.param()};
  ASSERT_AG(agLaunchKernel(module.function("dialect_math"), 1, 1, 1, 64, 1, 1, 0, nullptr, params,
                           nullptr));
  const MathResults expected = host_references();
  const std::vector<float> results = floats.download();
  for (size_t k = 0; k < results.size(); ++k) {
    const size_t function = k % ag_dialect_math_float_count;
    const float tolerance = function < ag_dialect_math_exact_float_count
                                ? 0.0f
                                : kRelativeTolerance * fabsf(expected.floats[k]) + 1e-6f;
    EXPECT_NEAR(expected.floats[k], results[k], tolerance)
        << "float function " << function << " (dialect_math.h order) of "
        << kInputs[k / ag_dialect_math_float_count];
  }
  EXPECT_EQ(expected.doubles, doubles.download());
}

TEST_P(DialectTest, AtomicsOnGlobalAndSharedMemory) {
  const unsigned blocks = 37, block = 64, n = blocks * block;
  DeviceBuffer<int> ints(device, std::vector<int>{0, 0, 0, 0, 41});
  DeviceBuffer<unsigned> uints(device, std::vector<unsigned>(4, 0));
  DeviceBuffer<uint64_t> wide(device, std::vector<uint64_t>{0});
  DeviceBuffer<float> floats(device, std::vector<float>{0});
  DeviceBuffer<double> doubles(device, std::vector<double>{0});
  void* params[] = {ints.param(), uints.param(), wide.param(), floats.param(), doubles.param()};
  ASSERT_AG(agLaunchKernel(module.function("dialect_atomics"), blocks, 1, 1, block, 1, 1, 0,
                           nullptr, params, nullptr));
  const int count = static_cast<int>(n);
  EXPECT_EQ((std::vector<int>{-2 * count, count - 1, 1 - count, 42, 41}), ints.download());
  const std::vector<unsigned> u = uints.download();
  EXPECT_EQ(n, u[0]) << "threads counted in shared memory";
  EXPECT_EQ(7u, u[1]);
  EXPECT_TRUE(u[2] >= 1 && u[2] <= n) << u[2];
  EXPECT_EQ(1u, u[3]) << "compare-and-swaps that won";
  EXPECT_EQ(uint64_t{n} << 32, wide.download()[0]);
  EXPECT_EQ(n * 0.5f, floats.download()[0]);  // exact: every partial sum is a multiple of 0.5
  EXPECT_EQ(n * 0.25, doubles.download()[0]);
}

INSTANTIATE_TEST_SUITE_P(Devices, DialectTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
