// A gfx1100 device (RDNA 3, wave32) on the HIP 5.3 test driver, which has no hipGetProcAddress and
// fills HIP 5's hipDeviceProp_t: the backend finds everything with dlsym and reads gcnArchName at
// that layout's offset; a bundle with a gfx1100 code object runs it, and one without gets
// AG_ERROR_NO_BINARY_FOR_DEVICE naming what it holds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hip_bundle_support.h"
#include "hip_driver_access.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

class HipGfx1100Test : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.hip_device();
    ASSERT_NE(nullptr, device) << "no HIP device from the test driver";
  }
  void TearDown() override { EXPECT_EQ(0, driver.live_objects()) << "a test leaked"; }

  HipDriverAccess driver;
  ag_device device = nullptr;
};

TEST_F(HipGfx1100Test, TheDeviceIsReadThroughHip5sInterfaces) {
  ag_device_properties p{};
  p.struct_size = sizeof p;
  ASSERT_AG(agDeviceGetProperties(device, &p));
  EXPECT_STREQ("gfx1100", p.architecture);
  EXPECT_EQ(32, p.warp_size);
  EXPECT_EQ(-1, driver.calls("hipGetProcAddress")) << "a HIP 5 runtime has none";
  EXPECT_EQ(-1, driver.calls("hipGetDevicePropertiesR0600"));
  EXPECT_GE(driver.calls("hipGetDeviceProperties"), 1);
}

TEST_F(HipGfx1100Test, RunsTheBundlesGfx1100CodeObject) {
  if (test_kernels_code_object("gfx1100").empty())
    GTEST_SKIP() << "this build has no gfx1100 code object (no AMD kernels)";
  TestModule module(device);
  EXPECT_EQ("gfx1100", driver.last_target());
  std::vector<float> a(1000), b(1000);
  for (int i = 0; i < 1000; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(3 * i);
  }
  DeviceBuffer<float> da(device, a), db(device, b), dc(device, 1000);
  int n = 1000;
  void* params[] = {&n, da.param(), db.param(), dc.param()};
  ASSERT_AG(agLaunchKernel(module.function("vector_add"), 4, 1, 1, 256, 1, 1, 0, nullptr, params,
                           nullptr));
  const std::vector<float> c = dc.download();
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(4.0f * i, c[i]) << i;
}

TEST_F(HipGfx1100Test, ABundleWithoutGfx1100NamesWhatItHolds) {
  const std::vector<std::vector<unsigned char>> held = {test_kernels_code_object("gfx90a", '+'),
                                                        test_kernels_code_object("gfx90a", '-'),
                                                        test_kernels_code_object("gfx942")};
  for (const auto& code : held)
    if (code.empty()) GTEST_SKIP() << "this build has no gfx90a or gfx942 code object";
  const std::vector<unsigned char> bundle = amd_bundle(held);
  const long loads = driver.calls("hipModuleLoadData");
  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE,
            agModuleLoadData(device, bundle.data(), bundle.size(), &module));
  EXPECT_EQ(nullptr, module);
  const std::string detail = last_detail();
  for (const char* name : {"gfx90a:xnack+", "gfx90a:xnack-", "gfx942"})
    EXPECT_NE(std::string::npos, detail.find(name)) << name << " not named: " << detail;
  EXPECT_NE(std::string::npos, detail.find("gfx1100")) << detail;
  EXPECT_EQ(loads, driver.calls("hipModuleLoadData")) << "the runtime was asked anyway";
}

}  // namespace
}  // namespace anygpu_test
