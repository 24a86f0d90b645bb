// A Level Zero device without 32-lane sub-groups: the test driver offering 8 and 16 lanes only
// (ANYGPU_L0_TEST_SUBGROUP_SIZES, set before main). Its warp size is 16; an image whose kernels use
// warp functions (which anygpu_add_kernels and the run-time compiler pin to 32 lanes) is refused
// when it is loaded, naming the kernel and the sizes, before the driver sees it; a program without
// warp functions loads and runs.
#include <cstdlib>
#include <string>
#include <vector>

#include "test_driver_control.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

[[maybe_unused]] const int kSizes = setenv("ANYGPU_L0_TEST_SUBGROUP_SIZES", "8,16", 1);

const char* kSaxpy = R"(
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

const char* kWarpSum = R"(
__global__ void warp_sum(const float* in, float* out) {
  float v = in[threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(~0u, v, offset);
  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v;
}
)";

class LevelZeroNarrowSubgroups : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.device(AG_BACKEND_LEVEL_ZERO);
    ASSERT_NE(nullptr, device);
  }

  // `source` compiled for the device through the C API.
  std::vector<unsigned char> compile(const char* source, const char* name) {
    ag_program program = nullptr;
    std::vector<unsigned char> image;
    EXPECT_AG(agProgramCreate(source, name, 0, nullptr, nullptr, &program));
    if (!program) return image;
    size_t size = 0;
    if (agProgramCompile(program, device, 0, nullptr) == AG_SUCCESS &&
        agProgramGetImage(program, nullptr, &size) == AG_SUCCESS) {
      image.resize(size);
      EXPECT_AG(agProgramGetImage(program, image.data(), &size));
    }
    EXPECT_AG(agProgramDestroy(program));
    return image;
  }

  TestDriverControl driver{ANYGPU_TEST_DRIVER_PATH, "anygpu_l0_test"};
  ag_device device = nullptr;
};

TEST_F(LevelZeroNarrowSubgroups, WarpSizeIsTheWidestSubgroup) {
  ag_device_properties properties{};
  properties.struct_size = sizeof properties;
  ASSERT_AG(agDeviceGetProperties(device, &properties));
  EXPECT_EQ(16, properties.warp_size);
}

TEST_F(LevelZeroNarrowSubgroups, AnImageWithWarpFunctionsIsRefusedAtLoad) {
  const long objects = driver.live_objects(), creates = driver.calls("zeModuleCreate");
  ag_module module = nullptr;
  EXPECT_EQ(
      AG_ERROR_NO_BINARY_FOR_DEVICE,
      agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size, &module));
  EXPECT_EQ(nullptr, module);
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("requires sub-groups of 32 lanes")) << detail;
  EXPECT_NE(std::string::npos, detail.find("offers sub-group sizes 8, 16")) << detail;
  EXPECT_NE(std::string::npos, detail.find("kernel '")) << detail;
  EXPECT_EQ(creates, driver.calls("zeModuleCreate"));
  EXPECT_EQ(objects, driver.live_objects());
}

TEST_F(LevelZeroNarrowSubgroups, ARunTimeCompiledWarpKernelIsRefusedAtLoad) {
  const std::vector<unsigned char> image = compile(kWarpSum, "warp_sum.cu");
  ASSERT_FALSE(image.empty()) << last_detail();
  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE,
            agModuleLoadData(device, image.data(), image.size(), &module));
  EXPECT_NE(std::string::npos, last_detail().find("kernel '_Z8warp_sumPKfPf' of this SPIR-V image "
                                                  "requires sub-groups of 32 lanes"))
      << last_detail();
}

TEST_F(LevelZeroNarrowSubgroups, AProgramWithoutWarpFunctionsLoadsAndRuns) {
  const std::vector<unsigned char> image = compile(kSaxpy, "saxpy.cu");
  ASSERT_FALSE(image.empty()) << last_detail();
  ag_module module = nullptr;
  ASSERT_AG(agModuleLoadData(device, image.data(), image.size(), &module));
  ag_function function = nullptr;
  ASSERT_AG(agModuleGetFunction(module, "_Z5saxpyifPKfPf", &function));
  int n = 100;
  float a = 2.0f;
  DeviceBuffer<float> x(device, std::vector<float>(n, 3.0f)),
      y(device, std::vector<float>(n, 1.0f));
  void* params[] = {&n, &a, x.param(), y.param()};
  ASSERT_AG(agLaunchKernel(function, 2, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  for (float v : y.download()) ASSERT_EQ(7.0f, v);
  EXPECT_AG(agModuleUnload(module));
}

}  // namespace
