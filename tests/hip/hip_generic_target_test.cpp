// AMD's generic targets: a gfx1101 device whose runtime is HIP 6.4 (which loads code object v6)
// runs a bundle's gfx11-generic code object, and prefers a gfx1101 one where the bundle has both;
// the HIP rules take a generic code object only for a processor of its family and only from a
// runtime that loads it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "anygpu_image_hip_generic_and_gfx1101.h"
#include "anygpu_image_hip_generic_only.h"
#include "hip_driver_access.h"
#include "loaders/hip/hip_code_rules.h"
#include "shim/code_object/amdgpu_target.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

// The test driver reads its runtime version when anygpu loads it, after static initialisation.
const bool kHip64 = [] {
  setenv("ANYGPU_HIP_TEST_RUNTIME_VERSION", "60400000", 1);
  return true;
}();

class HipGenericTargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.hip_device();
    ASSERT_NE(nullptr, device) << "no HIP device from the test driver";
    if (!ANYGPU_TEST_HAVE_AMDGPU)
      GTEST_SKIP() << "this build makes no AMD code objects (clang-19, lld-19 or ROCm's ocml.bc "
                      "missing at configure time)";
  }
  void TearDown() override { EXPECT_EQ(0, driver.live_objects()) << "a test leaked"; }

  // Loads `image`, runs vector_add from it and checks the sums; returns the target loaded.
  std::string run_vector_add(const void* image, size_t size) {
    ag_module module = nullptr;
    EXPECT_AG(agModuleLoadData(device, image, size, &module));
    if (!module) return "";
    const std::string target = driver.last_target();
    std::vector<float> left(500), right(500, 2.0f);
    for (int k = 0; k < 500; ++k) left[k] = static_cast<float>(k);
    DeviceBuffer<float> da(device, left), db(device, right), dc(device, 500);
    int n = 500;
    void* params[] = {&n, da.param(), db.param(), dc.param()};
    ag_function function = nullptr;
    EXPECT_AG(agModuleGetFunction(module, "vector_add", &function));
    EXPECT_AG(agLaunchKernel(function, 2, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
    const std::vector<float> sums = dc.download();
    for (int k = 0; k < 500; ++k) EXPECT_EQ(k + 2.0f, sums[k]) << k;
    EXPECT_AG(agModuleUnload(module));
    return target;
  }

  HipDriverAccess driver;
  ag_device device = nullptr;
};

TEST_F(HipGenericTargetTest, RunsTheGenericCodeObjectOfItsFamily) {
  EXPECT_EQ("gfx11-generic",
            run_vector_add(anygpu_image_hip_generic_only, anygpu_image_hip_generic_only_size));
}

TEST_F(HipGenericTargetTest, PrefersTheCodeObjectOfItsOwnProcessor) {
  EXPECT_EQ("gfx1101", run_vector_add(anygpu_image_hip_generic_and_gfx1101,
                                      anygpu_image_hip_generic_and_gfx1101_size));
}

anygpu::CodeTarget amd_code(const char* target_id) {
  anygpu::CodeTarget code;
  code.format = anygpu::CodeObjectFormat::amdgpu_code_object;
  EXPECT_TRUE(anygpu::parse_amdgpu_target(target_id, &code.amdgpu)) << target_id;
  return code;
}

TEST(HipGenericTargetRules, AGenericCodeObjectFitsItsFamilyOnARuntimeThatLoadsIt) {
  const auto v6 = anygpu::hip::make_code_rules({"gfx1101", 6});
  const auto v5 = anygpu::hip::make_code_rules({"gfx1101", 0});
  EXPECT_TRUE(v6->fit(amd_code("gfx11-generic")).fits());
  EXPECT_FALSE(v5->fit(amd_code("gfx11-generic")).fits()) << "a runtime before HIP 6.4";
  EXPECT_FALSE(v6->fit(amd_code("gfx12-generic")).fits()) << "another family";
  EXPECT_FALSE(v6->fit(amd_code("gfx10-3-generic")).fits());
  EXPECT_TRUE(v6->fit(amd_code("gfx1101")).better_than(v6->fit(amd_code("gfx11-generic"))));
  EXPECT_NE(std::string::npos, v6->needs().find("gfx11-generic")) << v6->needs();
  EXPECT_EQ(std::string::npos, v5->needs().find("generic")) << v5->needs();
  // Features: a device with xnack off takes a generic code object stating xnack- or nothing.
  const auto xnack_off = anygpu::hip::make_code_rules({"gfx906:xnack-", 6});
  EXPECT_TRUE(xnack_off->fit(amd_code("gfx9-generic:xnack-")).fits());
  EXPECT_TRUE(xnack_off->fit(amd_code("gfx9-generic")).fits());
  EXPECT_FALSE(xnack_off->fit(amd_code("gfx9-generic:xnack+")).fits());
  // gfx90a has no generic target in LLVM 19.
  EXPECT_FALSE(anygpu::hip::make_code_rules({"gfx90a", 6})->fit(amd_code("gfx9-generic")).fits());
}

TEST(HipGenericTargetRules, EachProcessorsGenericTarget) {
  EXPECT_EQ("gfx11-generic", anygpu::amdgpu_generic_processor("gfx1101"));
  EXPECT_EQ("gfx11-generic", anygpu::amdgpu_generic_processor("gfx1151"));
  EXPECT_EQ("gfx12-generic", anygpu::amdgpu_generic_processor("gfx1201"));
  EXPECT_EQ("gfx10-3-generic", anygpu::amdgpu_generic_processor("gfx1032"));
  EXPECT_EQ("gfx10-1-generic", anygpu::amdgpu_generic_processor("gfx1010"));
  EXPECT_EQ("gfx9-generic", anygpu::amdgpu_generic_processor("gfx906"));
  EXPECT_EQ("", anygpu::amdgpu_generic_processor("gfx908"));
  EXPECT_EQ("", anygpu::amdgpu_generic_processor("gfx942"));
}

}  // namespace
}  // namespace anygpu_test
