// Stream-ordered allocation on every device: memory allocated and freed in a stream's order, the
// pool handing a freed block out again (on the same stream at once, on another after it waited),
// agMemFree of such memory, and the pools' life: usage, trimming, the release threshold, and
// destroy refused while allocations live. Which block is handed out, and how usage is counted,
// is checked exactly for anygpu's own pool; a driver's pool (CUDA, HIP: the device's
// `stream_ordered_allocation`) follows its own policy and granularity.
#include <anygpu/anygpu.h>

#include <cstdint>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class StreamOrderedTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ag_device_properties properties{};
    properties.struct_size = sizeof properties;
    ASSERT_AG(agDeviceGetProperties(device, &properties));
    own_pool = properties.stream_ordered_allocation == 0;
    ASSERT_AG(agStreamCreate(device, 0, &stream));
    ASSERT_AG(agStreamCreate(device, 0, &other));
  }
  void TearDown() override {
    for (ag_stream s : {stream, other}) {
      if (s) {
        EXPECT_AG(agStreamDestroy(s));
      }
    }
  }
  // Fills `count` words at `p` with `value` on `s`, and copies them back to `out` on it.
  void fill_and_read(uint32_t* p, uint32_t value, size_t count, ag_stream s,
                     std::vector<uint32_t>& out) {
    out.assign(count, ~value);
    EXPECT_AG(agMemsetD32Async(p, value, count, s));
    EXPECT_AG(agMemcpyDtoHAsync(out.data(), p, count * sizeof(uint32_t), s));
  }

  ag_device device = device_at(GetParam());
  ag_stream stream = nullptr, other = nullptr;
  bool own_pool = true;  // anygpu's pool, not the driver's
};

TEST_P(StreamOrderedTest, MemoryIsTheStreamsBetweenAllocationAndFree) {
  constexpr size_t kCount = 1 << 16;
  uint32_t* p = nullptr;
  ASSERT_AG(agMemAllocAsync(reinterpret_cast<void**>(&p), kCount * sizeof(uint32_t), stream));
  ASSERT_NE(nullptr, p);
  std::vector<uint32_t> back;
  fill_and_read(p, 0x600du, kCount, stream, back);
  EXPECT_AG(agMemFreeAsync(p, stream));
  EXPECT_AG(agStreamSynchronize(stream));
  EXPECT_EQ(std::vector<uint32_t>(kCount, 0x600du), back);
  // Freed: no longer memory of the device.
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemsetD32Async(p, 0, kCount, stream));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemFreeAsync(p, stream));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemFree(device, p));
}

// The block freed on a stream serves the next allocation of its size on that stream at once, and
// one on another stream once the free has completed; each user's values are its own.
TEST_P(StreamOrderedTest, FreedBlocksAreHandedOutAgain) {
  constexpr size_t kCount = 4096;
  const size_t bytes = kCount * sizeof(uint32_t);
  void* first = nullptr;
  void* second = nullptr;
  ASSERT_AG(agMemAllocAsync(&first, bytes, stream));
  std::vector<uint32_t> back1, back2;
  fill_and_read(static_cast<uint32_t*>(first), 1u, kCount, stream, back1);
  ASSERT_AG(agMemFreeAsync(first, stream));
  ASSERT_AG(agMemAllocAsync(&second, bytes, stream));
  if (own_pool) {
    EXPECT_EQ(first, second) << "the same stream gets the block back at once";
  }
  fill_and_read(static_cast<uint32_t*>(second), 2u, kCount, stream, back2);
  ASSERT_AG(agMemFreeAsync(second, stream));
  ASSERT_AG(agStreamSynchronize(stream));

  void* third = nullptr;
  std::vector<uint32_t> back3;
  ASSERT_AG(agMemAllocAsync(&third, bytes, other));
  if (own_pool) {
    EXPECT_EQ(first, third) << "another stream gets it once the free has completed";
  }
  fill_and_read(static_cast<uint32_t*>(third), 3u, kCount, other, back3);
  ASSERT_AG(agMemFreeAsync(third, other));
  ASSERT_AG(agStreamSynchronize(other));
  ASSERT_AG(agStreamSynchronize(stream));
  EXPECT_EQ(std::vector<uint32_t>(kCount, 1u), back1);
  EXPECT_EQ(std::vector<uint32_t>(kCount, 2u), back2);
  EXPECT_EQ(std::vector<uint32_t>(kCount, 3u), back3);
}

TEST_P(StreamOrderedTest, AgMemFreeTakesItAfterWaiting) {
  void* p = nullptr;
  ASSERT_AG(agMemAllocAsync(&p, 1000, stream));
  EXPECT_AG(agMemsetD8Async(p, 9, 1000, stream));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemFreeHost(device, p));
  EXPECT_AG(agMemFree(device, p));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemFreeAsync(p, stream));
}

TEST_P(StreamOrderedTest, PoolsCountTrimAndOutliveTheirAllocations) {
  ag_mem_pool default_pool = nullptr, again = nullptr;
  ASSERT_AG(agDeviceGetDefaultMemPool(device, &default_pool));
  ASSERT_AG(agDeviceGetDefaultMemPool(device, &again));
  EXPECT_EQ(default_pool, again);
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemPoolDestroy(default_pool));

  ag_mem_pool_props props{};
  props.struct_size = sizeof props;
  props.release_threshold = UINT64_MAX;
  ag_mem_pool pool = nullptr;
  ASSERT_AG(agMemPoolCreate(device, &props, &pool));
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_AG(agMemAllocFromPoolAsync(&a, 1000, pool, stream));
  ASSERT_AG(agMemAllocFromPoolAsync(&b, 5000, pool, stream));
  uint64_t used = 0, reserved = 0;
  ASSERT_AG(agMemPoolGetUsage(pool, &used, &reserved));
  EXPECT_GE(used, 6000u);
  EXPECT_GE(reserved, used);
  if (own_pool) {
    EXPECT_EQ(used, reserved);
  }
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemPoolDestroy(pool)) << "allocations are live";
  ASSERT_AG(agMemFreeAsync(a, stream));
  ASSERT_AG(agMemFreeAsync(b, stream));
  ASSERT_AG(agStreamSynchronize(stream));
  ASSERT_AG(agMemPoolGetUsage(pool, &used, &reserved));
  EXPECT_EQ(0u, used);
  EXPECT_GE(reserved, 6000u) << "freed blocks are kept";
  ASSERT_AG(agMemPoolTrimTo(pool, 0));
  ASSERT_AG(agMemPoolGetUsage(pool, &used, &reserved));
  EXPECT_EQ(0u, reserved) << "trimming gave completed blocks back";

  // A larger kept block serves a smaller request, and the counts follow the block.
  ASSERT_AG(agMemAllocFromPoolAsync(&a, 1024, pool, stream));
  ASSERT_AG(agMemFreeAsync(a, stream));
  ASSERT_AG(agMemAllocFromPoolAsync(&b, 600, pool, stream));
  ASSERT_AG(agMemPoolGetUsage(pool, &used, &reserved));
  EXPECT_GE(used, 600u);
  if (own_pool) {
    EXPECT_EQ(a, b);
    EXPECT_EQ(1024u, used);
  }
  ASSERT_AG(agMemFreeAsync(b, stream));
  ASSERT_AG(agStreamSynchronize(stream));
  ASSERT_AG(agMemPoolGetUsage(pool, &used, &reserved));
  EXPECT_EQ(0u, used);
  EXPECT_GE(reserved, 600u) << "freed blocks are kept";
  if (own_pool) {
    EXPECT_EQ(1024u, reserved);
  }
  ASSERT_AG(agMemPoolTrimTo(pool, 0));

  // Threshold 0: a block whose free completed goes back at the next free.
  ASSERT_AG(agMemPoolSetReleaseThreshold(pool, 0));
  ASSERT_AG(agMemAllocFromPoolAsync(&a, 1000, pool, stream));
  ASSERT_AG(agMemAllocFromPoolAsync(&b, 1000, pool, stream));
  ASSERT_AG(agMemFreeAsync(a, stream));
  ASSERT_AG(agStreamSynchronize(stream));
  ASSERT_AG(agMemFreeAsync(b, stream));
  ASSERT_AG(agMemPoolGetUsage(pool, nullptr, &reserved));
  if (own_pool) {
    EXPECT_LE(reserved, 1024u) << "only the block whose free may be pending is kept";
  }
  ASSERT_AG(agStreamSynchronize(stream));
  ASSERT_AG(agMemPoolTrimTo(pool, 0));
  ASSERT_AG(agMemPoolGetUsage(pool, &used, &reserved));
  EXPECT_EQ(0u, used);
  EXPECT_EQ(0u, reserved);
  EXPECT_AG(agMemPoolDestroy(pool));
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agMemPoolTrimTo(pool, 0));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, StreamOrderedTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
