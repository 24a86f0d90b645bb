// Managed memory on every device: one pointer that the host writes and reads directly, kernels
// and copies use, prefetch and advice take as ordered hints, and agMemFree frees; and what is not
// managed memory refused by the hints.
#include <anygpu/anygpu.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class ManagedMemoryTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    properties.struct_size = sizeof properties;
    ASSERT_AG(agDeviceGetProperties(device, &properties));
    ASSERT_EQ(1, properties.managed_memory) << "every device here has managed memory";
    ASSERT_AG(agStreamCreate(device, 0, &stream));
  }
  void TearDown() override {
    if (stream) {
      EXPECT_AG(agStreamDestroy(stream));
    }
  }

  ag_device device = device_at(GetParam());
  ag_device_properties properties{};
  ag_stream stream = nullptr;
};

// The host writes x and y in place, saxpy runs on them, the host reads y in place.
TEST_P(ManagedMemoryTest, HostAndKernelsShareOnePointer) {
  int n = 100003;
  float a = 2.5f;
  float* x = nullptr;
  float* y = nullptr;
  ASSERT_AG(agMemAllocManaged(device, n * sizeof(float), AG_MEM_ATTACH_GLOBAL,
                              reinterpret_cast<void**>(&x)));
  ASSERT_AG(agMemAllocManaged(device, n * sizeof(float), AG_MEM_ATTACH_GLOBAL,
                              reinterpret_cast<void**>(&y)));
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 101);
    y[i] = static_cast<float>(i % 7);
  }
  TestModule module(device);
  void* params[] = {&n, &a, &x, &y};
  ASSERT_AG(agLaunchKernel(module.function("saxpy"), (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream,
                           params, nullptr));
  ASSERT_AG(agStreamSynchronize(stream));
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (y[i] != a * static_cast<float>(i % 101) + static_cast<float>(i % 7)) ++wrong;
  EXPECT_EQ(0, wrong) << "elements saxpy left wrong in managed memory";
  EXPECT_AG(agMemFree(device, x));
  EXPECT_AG(agMemFree(device, y));
}

// Copies and fills reach managed memory as device memory; agMemcpy tells its device.
TEST_P(ManagedMemoryTest, CopiesAndFillsTakeIt) {
  constexpr size_t kCount = 4096;
  uint32_t* managed = nullptr;
  ASSERT_AG(agMemAllocManaged(device, kCount * sizeof(uint32_t), AG_MEM_ATTACH_GLOBAL,
                              reinterpret_cast<void**>(&managed)));
  ASSERT_AG(agMemsetD32(device, managed, 0xabcdu, kCount));
  EXPECT_EQ(0xabcdu, managed[0]);
  EXPECT_EQ(0xabcdu, managed[kCount - 1]);
  std::vector<uint32_t> source(kCount), back(kCount);
  for (size_t i = 0; i < kCount; ++i) source[i] = static_cast<uint32_t>(i * 3);
  ASSERT_AG(agMemcpy(managed, source.data(), kCount * sizeof(uint32_t)));  // host to device
  EXPECT_EQ(source[kCount / 2], managed[kCount / 2]);
  DeviceBuffer<uint32_t> plain(device, kCount);
  ASSERT_AG(agMemcpyDtoDAsync(plain.get(), managed, kCount * sizeof(uint32_t), stream));
  ASSERT_AG(agStreamSynchronize(stream));
  EXPECT_EQ(source, plain.download());
  ASSERT_AG(agMemcpyDtoH(device, back.data(), managed, kCount * sizeof(uint32_t)));
  EXPECT_EQ(source, back);
  EXPECT_AG(agMemFree(device, managed));
}

// Prefetch (to the device and back to the host) and every advice, for the device and the host,
// succeed and leave the data as it was.
TEST_P(ManagedMemoryTest, PrefetchAndAdviceAreHintsThatKeepTheData) {
  constexpr size_t kCount = 1 << 16;
  uint32_t* managed = nullptr;
  ASSERT_AG(agMemAllocManaged(device, kCount * sizeof(uint32_t), AG_MEM_ATTACH_GLOBAL,
                              reinterpret_cast<void**>(&managed)));
  for (size_t i = 0; i < kCount; ++i) managed[i] = static_cast<uint32_t>(i ^ 0x5a5a);
  const size_t bytes = kCount * sizeof(uint32_t);
  for (int advice = AG_MEM_ADVISE_SET_READ_MOSTLY; advice <= AG_MEM_ADVISE_UNSET_ACCESSED_BY;
       ++advice) {
    SCOPED_TRACE(advice);
    EXPECT_AG(agMemAdvise(managed, bytes, static_cast<ag_mem_advice>(advice), device));
    EXPECT_AG(agMemAdvise(managed, bytes, static_cast<ag_mem_advice>(advice), nullptr));
  }
  EXPECT_AG(agMemPrefetchAsync(managed, bytes, device, stream));
  EXPECT_AG(agMemsetD32Async(managed + kCount / 2, 7u, kCount / 2, stream));
  EXPECT_AG(agMemPrefetchAsync(managed + 1, bytes / 2, nullptr, stream));  // a part, to the host
  ASSERT_AG(agStreamSynchronize(stream));
  int wrong = 0;
  for (size_t i = 0; i < kCount; ++i)
    if (managed[i] != (i < kCount / 2 ? static_cast<uint32_t>(i ^ 0x5a5a) : 7u)) ++wrong;
  EXPECT_EQ(0, wrong);
  EXPECT_AG(agMemFree(device, managed));
}

// The hints take managed memory only; agMemFreeHost does not free it; a freed block is gone.
TEST_P(ManagedMemoryTest, WhatIsNotManagedIsRefused) {
  void* managed = nullptr;
  ASSERT_AG(agMemAllocManaged(device, 4096, AG_MEM_ATTACH_GLOBAL, &managed));
  DeviceBuffer<char> plain(device, 4096);
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemPrefetchAsync(plain.get(), 4096, device, stream));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS,
            agMemAdvise(plain.get(), 4096, AG_MEM_ADVISE_SET_READ_MOSTLY, device));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemPrefetchAsync(managed, 4097, device, stream));
  EXPECT_NE(std::string::npos, last_detail().find("agMemAllocManaged")) << last_detail();
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemFreeHost(device, managed));
  EXPECT_AG(agMemFree(device, managed));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemFree(device, managed));
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemPrefetchAsync(managed, 16, device, stream));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, ManagedMemoryTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
