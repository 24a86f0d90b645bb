// The Level Zero backend's error paths, through the real loader and the test driver: a chosen
// driver call fails with a chosen ze_result_t, and the anygpu call surfaces the mapped ag_result
// with the native name in the detail, hands out nothing, and leaves no driver object behind.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>

#include "level_zero_test_driver_control.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

// The test driver the loader loaded (RTLD_NOLOAD: the same copy), after anygpu initialised.
class LevelZeroDriverAccess {
 public:
  LevelZeroDriverAccess() {
    agInit(0);
    handle_ = dlopen(ANYGPU_TEST_LEVEL_ZERO_DRIVER_PATH, RTLD_NOW | RTLD_NOLOAD);
  }
  bool loaded() const { return handle_ != nullptr; }
  void fail(const char* function, uint32_t result, int nth = 1) const {
    auto fn = reinterpret_cast<anygpu_l0_test_fail_fn>(dlsym(handle_, "anygpu_l0_test_fail"));
    ASSERT_EQ(0, fn(function, result, nth)) << function;
  }
  void clear_failures() const {
    reinterpret_cast<anygpu_l0_test_clear_failures_fn>(
        dlsym(handle_, "anygpu_l0_test_clear_failures"))();
  }
  long live_objects() const {
    return reinterpret_cast<anygpu_l0_test_live_objects_fn>(
        dlsym(handle_, "anygpu_l0_test_live_objects"))();
  }
  long calls(const char* function) const {
    return reinterpret_cast<anygpu_l0_test_calls_fn>(dlsym(handle_, "anygpu_l0_test_calls"))(
        function);
  }
  ag_device device() const {
    int count = 0;
    if (agDeviceGetCount(&count) != AG_SUCCESS) return nullptr;
    for (int i = 0; i < count; ++i) {
      ag_device device = nullptr;
      ag_device_properties properties{};
      properties.struct_size = sizeof properties;
      if (agDeviceGet(i, &device) == AG_SUCCESS &&
          agDeviceGetProperties(device, &properties) == AG_SUCCESS &&
          properties.backend == AG_BACKEND_LEVEL_ZERO)
        return device;
    }
    return nullptr;
  }

 private:
  void* handle_ = nullptr;
};

struct Fixture {
  ag_device device = nullptr;
  ag_stream stream = nullptr;
  ag_event start = nullptr, end = nullptr;
  ag_module module = nullptr;
  ag_function saxpy = nullptr;
  void* buffer = nullptr;
  float host[256] = {};
};

struct FailureCase {
  const char* driver_call;
  uint32_t ze_result;
  const char* ze_name;
  ag_result expected;
  std::function<ag_result(Fixture&)> call;
  const char* detail_also = nullptr;  // more the detail must say
};

void PrintTo(const FailureCase& c, std::ostream* out) {
  *out << c.driver_call << " -> " << c.ze_name;
}

std::string case_name(const ::testing::TestParamInfo<FailureCase>& info) {
  return std::string(info.param.driver_call) + "_" + std::to_string(info.param.ze_result);
}

ag_result launch_saxpy(Fixture& f, unsigned block) {
  int n = 256;
  float a = 2.0f;
  void* x = f.buffer;
  void* y = f.buffer;
  void* params[] = {&n, &a, &x, &y};
  return agLaunchKernel(f.saxpy, 256 / block, 1, 1, block, 1, 1, 0, f.stream, params, nullptr);
}

const FailureCase kCases[] = {
    {"zeMemAllocDevice", 0x70000003, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       void* p = nullptr;
       ag_result r = agMemAlloc(f.device, 1024, &p);
       EXPECT_EQ(nullptr, p);
       return r;
     }},
    {"zeMemAllocHost", 0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       void* p = nullptr;
       ag_result r = agMemAllocHost(f.device, 1024, &p);
       EXPECT_EQ(nullptr, p);
       return r;
     }},
    {"zeCommandListAppendMemoryCopy", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST",
     AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agMemcpyHtoD(f.device, f.buffer, f.host, sizeof f.host); }},
    {"zeCommandListAppendMemoryFill", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT",
     AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemsetD8Async(f.buffer, 0, sizeof f.host, f.stream); }},
    {"zeCommandListCreateImmediate", 0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY",
     AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       ag_stream s = nullptr;
       ag_result r = agStreamCreate(f.device, 0, &s);
       EXPECT_EQ(nullptr, s);
       return r;
     }},
    // The stream's own event, made after its command list: the list must not leak.
    {"zeEventCreate", 0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       ag_stream s = nullptr;
       ag_result r = agStreamCreate(f.device, 0, &s);
       EXPECT_EQ(nullptr, s);
       return r;
     }},
    {"zeEventPoolCreate", 0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       ag_event e = nullptr;
       ag_result r = agEventCreate(f.device, 0, &e);
       EXPECT_EQ(nullptr, e);
       return r;
     }},
    // After its pool: the pool must not leak.
    {"zeEventCreate", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) {
       ag_event e = nullptr;
       ag_result r = agEventCreate(f.device, 0, &e);
       EXPECT_EQ(nullptr, e);
       return r;
     }},
    {"zeModuleCreate", 0x70000004, "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE", AG_ERROR_INVALID_IMAGE,
     [](Fixture& f) {
       ag_module m = nullptr;
       ag_result r = agModuleLoadData(f.device, anygpu_image_test_kernels,
                                      anygpu_image_test_kernels_size, &m);
       EXPECT_EQ(nullptr, m);
       return r;
     },
     "build log: error: injected build failure"},
    {"zeKernelCreate", 0x78000011, "ZE_RESULT_ERROR_INVALID_KERNEL_NAME", AG_ERROR_NOT_FOUND,
     [](Fixture& f) {
       ag_function fn = nullptr;
       ag_result r = agModuleGetFunction(f.module, "mixed_params", &fn);
       EXPECT_EQ(nullptr, fn);
       return r;
     },
     "mixed_params"},
    {"zeKernelSetGroupSize", 0x78000013, "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION",
     AG_ERROR_INVALID_CONFIGURATION, [](Fixture& f) { return launch_saxpy(f, 64); }},
    {"zeKernelSetArgumentValue", 0x78000016, "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE",
     AG_ERROR_INVALID_VALUE, [](Fixture& f) { return launch_saxpy(f, 64); }},
    {"zeCommandListAppendLaunchKernel", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST",
     AG_ERROR_LAUNCH_FAILED, [](Fixture& f) { return launch_saxpy(f, 64); }},
    {"zeEventHostSynchronize", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) {
       EXPECT_AG(launch_saxpy(f, 64));
       return agStreamSynchronize(f.stream);
     }},
    {"zeEventQueryKernelTimestamp", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST",
     AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) {
       EXPECT_AG(agEventRecord(f.start, f.stream));
       EXPECT_AG(launch_saxpy(f, 64));
       EXPECT_AG(agEventRecord(f.end, f.stream));
       EXPECT_AG(agStreamSynchronize(f.stream));
       float ms = 0;
       return agEventElapsedTime(&ms, f.start, f.end);
     }},
};

class LevelZeroFailureTest : public ::testing::TestWithParam<FailureCase> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded()) << "the Level Zero test driver was not loaded";
    f.device = driver.device();
    ASSERT_NE(nullptr, f.device) << "no Level Zero device from the test driver";
    ASSERT_AG(agStreamCreate(f.device, 0, &f.stream));
    ASSERT_AG(agEventCreate(f.device, 0, &f.start));
    ASSERT_AG(agEventCreate(f.device, 0, &f.end));
    ASSERT_AG(agModuleLoadData(f.device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                               &f.module));
    ASSERT_AG(agModuleGetFunction(f.module, "saxpy", &f.saxpy));
    ASSERT_AG(agMemAlloc(f.device, sizeof f.host, &f.buffer));
    // The device's own command list, for synchronous work, is made on first use and kept.
    ASSERT_AG(agMemcpyHtoD(f.device, f.buffer, f.host, sizeof f.host));
    live_before = driver.live_objects();
  }
  void TearDown() override {
    driver.clear_failures();
    if (f.buffer) agMemFree(f.device, f.buffer);
    if (f.module) {
      EXPECT_AG(agModuleUnload(f.module));
    }
    if (f.start) {
      EXPECT_AG(agEventDestroy(f.start));
    }
    if (f.end) {
      EXPECT_AG(agEventDestroy(f.end));
    }
    if (f.stream) {
      EXPECT_AG(agStreamDestroy(f.stream));
    }
  }

  LevelZeroDriverAccess driver;
  Fixture f;
  long live_before = 0;
};

TEST_P(LevelZeroFailureTest, SurfacesAsTheMappedResultWithTheNativeName) {
  const FailureCase& c = GetParam();
  const long calls_before = driver.calls(c.driver_call);
  driver.fail(c.driver_call, c.ze_result);
  EXPECT_EQ(c.expected, c.call(f)) << last_detail();
  EXPECT_GT(driver.calls(c.driver_call), calls_before) << "the driver call was never made";
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find(c.driver_call)) << detail;
  EXPECT_NE(std::string::npos, detail.find(c.ze_name)) << detail;
  if (c.detail_also) {
    EXPECT_NE(std::string::npos, detail.find(c.detail_also)) << detail;
  }
  EXPECT_EQ(live_before, driver.live_objects()) << "a failure leaked a driver object";
  // The failure was one call: the stream works again.
  driver.clear_failures();
  EXPECT_AG(launch_saxpy(f, 128));
  EXPECT_AG(agStreamSynchronize(f.stream));
}

INSTANTIATE_TEST_SUITE_P(DriverCalls, LevelZeroFailureTest, ::testing::ValuesIn(kCases), case_name);

// Each launch sets the kernel's arguments and group size from the SPIR-V's layout: the driver
// sees one zeKernelSetArgumentValue per parameter, the trailing __local one included.
TEST(LevelZeroBackend, LaunchSetsEveryArgumentFromTheSpirvLayout) {
  LevelZeroDriverAccess driver;
  ASSERT_TRUE(driver.loaded());
  Fixture f;
  f.device = driver.device();
  ASSERT_NE(nullptr, f.device);
  ASSERT_AG(agStreamCreate(f.device, 0, &f.stream));
  ASSERT_AG(agModuleLoadData(f.device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                             &f.module));
  ASSERT_AG(agModuleGetFunction(f.module, "saxpy", &f.saxpy));
  int count = 0;
  ASSERT_AG(agFunctionGetParamCount(f.saxpy, &count));
  EXPECT_EQ(4, count);  // the user's parameters; the __local one stays the backend's
  ASSERT_AG(agMemAlloc(f.device, sizeof f.host, &f.buffer));
  const long before = driver.calls("zeKernelSetArgumentValue");
  ASSERT_AG(launch_saxpy(f, 64));
  ASSERT_AG(agStreamSynchronize(f.stream));
  EXPECT_EQ(before + 5, driver.calls("zeKernelSetArgumentValue"));
  EXPECT_AG(agMemFree(f.device, f.buffer));
  EXPECT_AG(agModuleUnload(f.module));
  EXPECT_AG(agStreamDestroy(f.stream));
}

}  // namespace
}  // namespace anygpu_test
