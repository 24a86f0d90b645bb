// Function attributes, the dynamic shared memory opt-in and occupancy on every device: what
// agFunctionGetAttributes says holds at launch, agFunctionSetMaxDynamicShared moves the launch
// limit both ways, and the two occupancy answers agree with each other.
#include <anygpu/anygpu.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class FunctionAttributesTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    properties.struct_size = sizeof properties;
    ASSERT_AG(agDeviceGetProperties(device, &properties));
  }

  ag_function_attributes attributes_of(ag_function f) {
    ag_function_attributes a{};
    a.struct_size = sizeof a;
    EXPECT_AG(agFunctionGetAttributes(f, &a));
    return a;
  }

  // reverse_blocks over n floats in blocks of `block` with `shared` bytes of dynamic shared
  // memory; checks the result when the launch succeeds.
  ag_result reverse(unsigned block, unsigned shared) {
    int n = 1000;
    std::vector<float> data(n);
    std::iota(data.begin(), data.end(), 0.0f);
    DeviceBuffer<float> d(device, data);
    void* params[] = {&n, d.param()};
    const ag_result r = agLaunchKernel(reverse_blocks, (n + block - 1) / block, 1, 1, block, 1, 1,
                                       shared, nullptr, params, nullptr);
    const std::vector<float> out = d.download();
    for (int i = 0; i < n; ++i) {
      const int base = i / block * block;
      const int count = std::min<int>(block, n - base);
      const float expected = r == AG_SUCCESS ? data[base + count - 1 - (i - base)] : data[i];
      EXPECT_EQ(expected, out[i]) << "element " << i;
      if (expected != out[i]) break;
    }
    return r;
  }

  ag_device device = device_at(GetParam());
  ag_device_properties properties{};
  TestModule module{device};
  ag_function reverse_blocks = module.function("reverse_blocks");
};

TEST_P(FunctionAttributesTest, DescribeWhatALaunchMayAskFor) {
  for (const char* name : {"saxpy", "reverse_blocks", "transpose_shared"}) {
    SCOPED_TRACE(name);
    const ag_function_attributes a = attributes_of(module.function(name));
    EXPECT_GE(a.max_threads_per_block, 1);
    EXPECT_LE(a.max_threads_per_block, properties.max_threads_per_block);
    EXPECT_LE(a.static_shared_bytes, properties.shared_memory_per_block);
    EXPECT_EQ(properties.shared_memory_per_block - a.static_shared_bytes,
              a.max_dynamic_shared_bytes);
    EXPECT_GE(a.registers_per_thread, 0);
    EXPECT_GE(a.binary_version, 0);
  }
  // The largest block and all of the dynamic shared memory it reports launch.
  const ag_function_attributes a = attributes_of(reverse_blocks);
  const unsigned block = std::min(a.max_threads_per_block, properties.max_block_dim[0]);
  EXPECT_AG(reverse(block, static_cast<unsigned>(a.max_dynamic_shared_bytes)));
}

TEST_P(FunctionAttributesTest, LaunchBeyondTheFunctionsLimitsIsRefused) {
  const ag_function_attributes a = attributes_of(reverse_blocks);
  const unsigned too_much = static_cast<unsigned>(a.max_dynamic_shared_bytes) + 16;
  EXPECT_EQ(AG_ERROR_INVALID_CONFIGURATION, reverse(64, too_much));
  EXPECT_NE(std::string::npos, last_detail().find("agFunctionSetMaxDynamicShared"))
      << last_detail();
  if (a.max_threads_per_block < properties.max_block_dim[0]) {
    EXPECT_EQ(AG_ERROR_INVALID_CONFIGURATION,
              reverse(static_cast<unsigned>(a.max_threads_per_block) + 1, 0));
  }
}

// Raising the limit lets a launch use more than the device's default; lowering it refuses what
// the default allowed. A value above the opt-in limit is refused and changes nothing.
TEST_P(FunctionAttributesTest, SetMaxDynamicSharedMovesTheLaunchLimit) {
  const ag_function_attributes before = attributes_of(reverse_blocks);
  // Its own default: the device's less its static shared memory (a 33 x 32 float tile on GPUs).
  const ag_function_attributes other_before = attributes_of(module.function("transpose_shared"));
  const uint64_t optin = properties.shared_memory_per_block_optin - before.static_shared_bytes;

  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agFunctionSetMaxDynamicShared(reverse_blocks, optin + 1));
  EXPECT_NE(std::string::npos, last_detail().find("opt in")) << last_detail();
  EXPECT_EQ(before.max_dynamic_shared_bytes,
            attributes_of(reverse_blocks).max_dynamic_shared_bytes);

  ASSERT_AG(agFunctionSetMaxDynamicShared(reverse_blocks, 256));
  EXPECT_EQ(256u, attributes_of(reverse_blocks).max_dynamic_shared_bytes);
  EXPECT_AG(reverse(64, 256));
  EXPECT_EQ(AG_ERROR_INVALID_CONFIGURATION, reverse(64, 257));

  ASSERT_AG(agFunctionSetMaxDynamicShared(reverse_blocks, optin));
  EXPECT_EQ(optin, attributes_of(reverse_blocks).max_dynamic_shared_bytes);
  EXPECT_AG(reverse(64, static_cast<unsigned>(optin)));
  if (optin > before.max_dynamic_shared_bytes) {
    // Beyond the device's default: what CUDA programs opt in to on an H200.
    EXPECT_AG(reverse(128, static_cast<unsigned>(before.max_dynamic_shared_bytes) + 1024));
  }
  // Another function of the module keeps its own limit.
  EXPECT_EQ(other_before.max_dynamic_shared_bytes,
            attributes_of(module.function("transpose_shared")).max_dynamic_shared_bytes);
}

TEST_P(FunctionAttributesTest, OccupancyAnswersAgree) {
  const ag_function_attributes a = attributes_of(reverse_blocks);
  for (int block : {1, 32, 64, 256, a.max_threads_per_block}) {
    if (block > a.max_threads_per_block) continue;
    SCOPED_TRACE("block " + std::to_string(block));
    int blocks = -1;
    ASSERT_AG(agOccupancyMaxActiveBlocksPerMultiprocessor(reverse_blocks, block,
                                                          block * sizeof(float), &blocks));
    EXPECT_GE(blocks, 1);  // a launchable block always fits one compute unit
  }
  for (int limit : {0, 100, 256, 1}) {
    SCOPED_TRACE("limit " + std::to_string(limit));
    int min_grid = -1, block = -1, blocks = -1;
    ASSERT_AG(agOccupancyMaxPotentialBlockSize(reverse_blocks, 1024, limit, &min_grid, &block));
    EXPECT_GE(block, 1);
    EXPECT_LE(block, a.max_threads_per_block);
    if (limit > 0) {
      EXPECT_LE(block, limit);
    }
    ASSERT_AG(agOccupancyMaxActiveBlocksPerMultiprocessor(reverse_blocks, block, 1024, &blocks));
    EXPECT_EQ(blocks * properties.compute_units, min_grid);
    // No other size keeps more threads resident.
    for (int other = 1;
         other <= (limit > 0 ? std::min(limit, a.max_threads_per_block) : a.max_threads_per_block);
         other += other < 64 ? 31 : 64) {
      int other_blocks = 0;
      ASSERT_AG(
          agOccupancyMaxActiveBlocksPerMultiprocessor(reverse_blocks, other, 1024, &other_blocks));
      EXPECT_LE(other_blocks * other, blocks * block) << "block size " << other;
    }
  }
  // The potential block size launches.
  int min_grid = 0, block = 0;
  ASSERT_AG(agOccupancyMaxPotentialBlockSize(reverse_blocks, 0, 0, &min_grid, &block));
  EXPECT_AG(reverse(static_cast<unsigned>(std::min(block, properties.max_block_dim[0])),
                    static_cast<unsigned>(block) * sizeof(float)));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, FunctionAttributesTest,
                         ::testing::ValuesIn(all_device_ordinals()), device_test_name);

}  // namespace
