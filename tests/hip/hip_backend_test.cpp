// The HIP backend through the test driver (two devices, HIP 6.2): what it reports, which device
// its calls act on, how it treats the application's current device, and which code object the
// runtime is given.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "hip_driver_access.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

class HipBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.hip_device(0);
    second = driver.hip_device(1);
    ASSERT_NE(nullptr, device) << "no HIP device from the test driver";
    ASSERT_NE(nullptr, second) << "the test driver was to have two devices";
    live_before = driver.live_objects();
  }
  void TearDown() override { EXPECT_EQ(live_before, driver.live_objects()) << "a test leaked"; }

  HipDriverAccess driver;
  ag_device device = nullptr, second = nullptr;
  long live_before = 0;
};

TEST_F(HipBackendTest, DevicesCarryTheRuntimesProperties) {
  for (int index = 0; index < 2; ++index) {
    ag_device_properties p{};
    p.struct_size = sizeof p;
    ASSERT_AG(agDeviceGetProperties(driver.hip_device(index), &p));
    EXPECT_EQ(AG_BACKEND_HIP, p.backend);
    EXPECT_EQ("anygpu HIP test device " + std::to_string(index), p.name);
    EXPECT_STREQ("AMD", p.vendor);
    // gcnArchName, features included, from HIP 6's properties layout.
    EXPECT_STREQ("gfx90a:sramecc+:xnack-", p.architecture);
    EXPECT_EQ(64, p.warp_size);
    EXPECT_EQ(104, p.compute_units);
    EXPECT_EQ(1024, p.max_threads_per_block);
    EXPECT_EQ(1024, p.max_block_dim[2]);
    EXPECT_EQ(65536, p.max_grid_dim[1]);
    EXPECT_EQ(64u * 1024, p.shared_memory_per_block);
    EXPECT_EQ(uint64_t{16} << 30, p.total_memory);
    // The fields appended to the first version, from the runtime's attributes.
    EXPECT_EQ(0x63, p.pci_bus_id);
    EXPECT_EQ(1700000, p.clock_rate_khz);
    EXPECT_EQ(4096, p.memory_bus_width_bits);
    EXPECT_EQ(65536, p.registers_per_block);
    EXPECT_EQ(64u * 1024, p.shared_memory_per_block_optin);
    EXPECT_EQ(uint64_t{8} << 20, p.l2_cache_bytes);
    EXPECT_EQ(1, p.managed_memory);
    EXPECT_EQ(1, p.host_functions);
    EXPECT_GT(p.driver_version, 0);
  }
  EXPECT_EQ(nullptr, driver.hip_device(2));
  // A GPU is the best device: ordinal 0.
  ag_device first = nullptr;
  ASSERT_AG(agDeviceGet(0, &first));
  EXPECT_EQ(device, first);
  EXPECT_GE(driver.calls("hipGetDevicePropertiesR0600"), 2);
}

TEST_F(HipBackendTest, EachCallActsOnItsOwnDevice) {
  void *on_first = nullptr, *on_second = nullptr;
  ASSERT_AG(agMemAlloc(device, 4096, &on_first));
  ASSERT_AG(agMemAlloc(second, 4096, &on_second));
  EXPECT_EQ(0, driver.device_of(on_first));
  EXPECT_EQ(1, driver.device_of(on_second));
  size_t free0 = 0, free1 = 0, total = 0;
  ASSERT_AG(agMemGetInfo(device, &free0, &total));
  ASSERT_AG(agMemGetInfo(second, &free1, &total));
  EXPECT_EQ(free0, free1);  // each device counts only its own allocation
  EXPECT_EQ(total - 4096, free0);
  // A module and a launch on the second device: the runtime refuses a kernel of one device on
  // another device's stream, so this passes only if the backend made device 1 current.
  {
    TestModule module(second);
    ag_function saxpy = module.function("saxpy");
    std::vector<float> x(256, 1.0f), y(256, 2.0f);
    ASSERT_AG(agMemcpyHtoD(second, on_second, x.data(), 1024));
    void* dy = nullptr;
    ASSERT_AG(agMemAlloc(second, 1024, &dy));
    ASSERT_AG(agMemcpyHtoD(second, dy, y.data(), 1024));
    int n = 256;
    float a = 3;
    void* params[] = {&n, &a, &on_second, &dy};
    ASSERT_AG(agLaunchKernel(saxpy, 1, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
    ag_stream stream = nullptr;
    ASSERT_AG(agStreamCreate(second, 0, &stream));
    ASSERT_AG(agLaunchKernel(saxpy, 1, 1, 1, 256, 1, 1, 0, stream, params, nullptr));
    ASSERT_AG(agMemcpyDtoHAsync(y.data(), dy, 1024, stream));
    ASSERT_AG(agStreamSynchronize(stream));
    ASSERT_AG(agStreamDestroy(stream));
    for (float v : y) ASSERT_EQ(8.0f, v);  // 2 + 3 + 3
    ASSERT_AG(agMemFree(second, dy));
  }
  ASSERT_AG(agMemFree(device, on_first));
  ASSERT_AG(agMemFree(second, on_second));
  // The calling thread is back on device 0, where it started.
  EXPECT_EQ(0, driver.current_device());
}

TEST_F(HipBackendTest, TheApplicationsCurrentDeviceIsLeftAlone) {
  driver.set_current_device(1);
  void* pointer = nullptr;
  const long sets_before = driver.calls("hipSetDevice");
  ASSERT_AG(agMemAlloc(device, 4096, &pointer));  // device 0: set for the call, set back after
  EXPECT_EQ(0, driver.device_of(pointer));
  EXPECT_EQ(1, driver.current_device());
  EXPECT_GT(driver.calls("hipSetDevice"), sets_before);
  ASSERT_AG(agMemsetD8(device, pointer, 7, 4096));
  ASSERT_AG(agMemFree(device, pointer));
  EXPECT_EQ(1, driver.current_device());
  // On its own device a call sets nothing.
  const long sets = driver.calls("hipSetDevice");
  ASSERT_AG(agMemAlloc(second, 4096, &pointer));
  ASSERT_AG(agMemFree(second, pointer));
  EXPECT_EQ(sets, driver.calls("hipSetDevice"));
  driver.set_current_device(0);
}

TEST_F(HipBackendTest, AnotherThreadStartsOnDevice0AndStaysThere) {
  int before = -1, after = -1;
  void* pointer = nullptr;
  std::thread worker([&] {
    before = driver.current_device();
    EXPECT_AG(agMemAlloc(second, 4096, &pointer));
    EXPECT_AG(agMemFree(second, pointer));
    after = driver.current_device();
  });
  worker.join();
  EXPECT_EQ(0, before);
  EXPECT_EQ(0, after);
}

TEST_F(HipBackendTest, TheRuntimeGetsTheSelectedCodeObjectAlone) {
  TestModule module(device);
  bool from_bundle = true;
  long bytes = 0;
  // The test bundle's gfx90a entry states no xnack or sramecc: it fits gfx90a:sramecc+:xnack-.
  EXPECT_EQ("gfx90a", driver.last_target(&from_bundle, &bytes));
  EXPECT_FALSE(from_bundle);
  EXPECT_GT(bytes, 0);
  EXPECT_LT(bytes, static_cast<long>(anygpu_image_test_kernels_size));
}

TEST_F(HipBackendTest, FunctionsGetTheirLayoutFromTheSelectedCodeObject) {
  TestModule module(device);
  expect_saxpy_layout(module.function("saxpy"));
}

TEST_F(HipBackendTest, AKernelTheCodeObjectLacksIsNotFound) {
  TestModule module(device);
  ag_function function = nullptr;
  EXPECT_EQ(AG_ERROR_NOT_FOUND, agModuleGetFunction(module.module(), "no_such_kernel", &function));
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("hipErrorNotFound")) << detail;
}

}  // namespace
}  // namespace anygpu_test
