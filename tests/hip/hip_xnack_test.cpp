// Selection by target id, end to end, on a device whose gcnArchName is gfx90a:xnack+ (the HIP 6.2
// test driver): of a bundle's gfx90a code objects the runtime is given the xnack+ one, else the
// one that leaves xnack unstated, never the xnack- one; and the kernel it holds runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hip_bundle_support.h"
#include "hip_driver_access.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

class HipXnackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.hip_device();
    ASSERT_NE(nullptr, device) << "no HIP device from the test driver";
    ag_device_properties p{};
    p.struct_size = sizeof p;
    ASSERT_AG(agDeviceGetProperties(device, &p));
    ASSERT_STREQ("gfx90a:xnack+", p.architecture);
    on = test_kernels_code_object("gfx90a", '+');
    off = test_kernels_code_object("gfx90a", '-');
    any = test_kernels_code_object("gfx90a");
    if (any.empty()) GTEST_SKIP() << "this build has no gfx90a code object (no AMD kernels)";
  }
  void TearDown() override { EXPECT_EQ(0, driver.live_objects()) << "a test leaked"; }

  // Loads `bundle`, checks that the runtime was given the code object for `expected` and that its
  // saxpy kernel computes y = 2 x + y.
  void expect_loaded_and_run(const std::vector<unsigned char>& bundle, const char* expected) {
    ag_module module = nullptr;
    ASSERT_AG(agModuleLoadData(device, bundle.data(), bundle.size(), &module));
    EXPECT_EQ(expected, driver.last_target());
    ag_function saxpy = nullptr;
    ASSERT_AG(agModuleGetFunction(module, "saxpy", &saxpy));
    std::vector<float> x(512), y(512, 1.0f);
    for (int i = 0; i < 512; ++i) x[i] = static_cast<float>(i);
    DeviceBuffer<float> dx(device, x), dy(device, y);
    int n = 512;
    float a = 2;
    void* params[] = {&n, &a, dx.param(), dy.param()};
    ASSERT_AG(agLaunchKernel(saxpy, 2, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
    const std::vector<float> result = dy.download();
    for (int i = 0; i < 512; ++i) ASSERT_EQ(2.0f * i + 1, result[i]) << i;
    EXPECT_AG(agModuleUnload(module));
  }

  HipDriverAccess driver;
  ag_device device = nullptr;
  std::vector<unsigned char> on, off, any;
};

TEST_F(HipXnackTest, GetsTheXnackOnCodeObject) {
  expect_loaded_and_run(amd_bundle({off, on}), "gfx90a:xnack+");
  expect_loaded_and_run(amd_bundle({on, off}), "gfx90a:xnack+");
}

TEST_F(HipXnackTest, AnExactMatchRanksAboveAnUnstatedXnack) {
  expect_loaded_and_run(amd_bundle({any, on, off}), "gfx90a:xnack+");
}

TEST_F(HipXnackTest, GetsTheAnyXnackCodeObjectOverTheXnackOffOne) {
  expect_loaded_and_run(amd_bundle({off, any}), "gfx90a");
  // The test kernels' own bundle holds gfx90a with xnack unstated.
  expect_loaded_and_run(
      std::vector<unsigned char>(anygpu_image_test_kernels,
                                 anygpu_image_test_kernels + anygpu_image_test_kernels_size),
      "gfx90a");
}

TEST_F(HipXnackTest, NeverTheXnackOffCodeObject) {
  const std::vector<unsigned char> bundle = amd_bundle({off});
  const long loads = driver.calls("hipModuleLoadData");
  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE,
            agModuleLoadData(device, bundle.data(), bundle.size(), &module));
  EXPECT_EQ(nullptr, module);
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("gfx90a:xnack-")) << detail;  // what the image holds
  EXPECT_NE(std::string::npos, detail.find("gfx90a:xnack+")) << detail;  // what the device needs
  EXPECT_EQ(loads, driver.calls("hipModuleLoadData")) << "the runtime was asked anyway";
  // Nor when it comes alone: the runtime is not asked to load it.
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE,
            agModuleLoadData(device, off.data(), off.size(), &module));
  EXPECT_EQ(loads, driver.calls("hipModuleLoadData"));
}

}  // namespace
}  // namespace anygpu_test
