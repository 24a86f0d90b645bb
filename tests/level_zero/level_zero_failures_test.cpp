// The Level Zero backend's error paths, through the real loader and the test driver: a chosen
// driver call fails with a chosen ze_result_t, and the anygpu call surfaces the mapped ag_result
// with the native name in the detail, hands out nothing, and leaves no driver object behind.
#include <gtest/gtest.h>

#include <cstdint>

#include "driver_failure_fixture.h"
#include "test_driver_control.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

// The test driver the loader loaded (RTLD_NOLOAD: the same copy), after anygpu initialised.
class LevelZeroDriverAccess : public TestDriverControl {
 public:
  LevelZeroDriverAccess() : TestDriverControl(ANYGPU_TEST_DRIVER_PATH, "anygpu_l0_test") {}
  ag_device device() const { return TestDriverControl::device(AG_BACKEND_LEVEL_ZERO); }
  using TestDriverControl::device;
};

using Fixture = DriverFailureObjects;
using FailureCase = DriverFailureCase<Fixture, uint32_t>;

const FailureCase kCases[] = {
    {"zeMemAllocDevice", 0x70000003, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc},
    {"zeMemAllocShared", 0x70000003, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc_managed},
    {"zeCommandListAppendMemoryPrefetch", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT",
     AG_ERROR_INVALID_VALUE, failure_calls::mem_prefetch},
    {"zeCommandListAppendMemAdvise", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT",
     AG_ERROR_INVALID_VALUE, failure_calls::mem_advise},
    {"zeMemAllocHost", 0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc_host},
    {"zeCommandListAppendMemoryCopy", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST",
     AG_ERROR_LAUNCH_FAILED, failure_calls::memcpy_htod},
    {"zeCommandListAppendMemoryCopyRegion", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST",
     AG_ERROR_LAUNCH_FAILED, failure_calls::memcpy_2d},
    {"zeCommandListAppendMemoryCopyRegion", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT",
     AG_ERROR_INVALID_VALUE, failure_calls::memcpy_2d_async},
    {"zeCommandListAppendMemoryFill", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT",
     AG_ERROR_INVALID_VALUE, failure_calls::memset_d8_async},
    {"zeCommandListCreateImmediate", 0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY",
     AG_ERROR_OUT_OF_MEMORY, failure_calls::stream_create},
    // The stream's own event, made after its command list: the list must not leak.
    {"zeEventCreate", 0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::stream_create},
    {"zeEventPoolCreate", 0x70000002, "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::event_create},
    // The adopted stream's own event pool: the application's list must not be destroyed.
    {"zeEventPoolCreate", 0x7800000a, "ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT",
     AG_ERROR_INVALID_VALUE, failure_calls::stream_create_from_native},
    {"zeEventCreate", 0x78000007, "ZE_RESULT_ERROR_INVALID_NULL_POINTER", AG_ERROR_INVALID_VALUE,
     failure_calls::stream_create_from_native},
    // After its pool: the pool must not leak.
    {"zeEventCreate", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT", AG_ERROR_INVALID_VALUE,
     failure_calls::event_create},
    {"zeModuleCreate", 0x70000004, "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE", AG_ERROR_INVALID_IMAGE,
     failure_calls::module_load_data, "build log: error: injected build failure"},
    {"zeKernelCreate", 0x78000011, "ZE_RESULT_ERROR_INVALID_KERNEL_NAME", AG_ERROR_NOT_FOUND,
     [](Fixture& f) {
       ag_function fn = nullptr;
       ag_result r = agModuleGetFunction(f.module, "mixed_params", &fn);
       EXPECT_EQ(nullptr, fn);
       return r;
     },
     "mixed_params"},
    {"zeKernelGetProperties", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT",
     AG_ERROR_INVALID_VALUE, failure_calls::module_get_function},
    {"zeKernelSetGroupSize", 0x78000013, "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION",
     AG_ERROR_INVALID_CONFIGURATION, [](Fixture& f) { return launch_saxpy(f, 64); }},
    {"zeKernelSetArgumentValue", 0x78000016, "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE",
     AG_ERROR_INVALID_VALUE, [](Fixture& f) { return launch_saxpy(f, 64); }},
    {"zeCommandListAppendLaunchKernel", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST",
     AG_ERROR_LAUNCH_FAILED, [](Fixture& f) { return launch_saxpy(f, 64); }},
    {"zeCommandListCreateImmediate", 0x70000003, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY",
     AG_ERROR_OUT_OF_MEMORY, failure_calls::stream_create_with_priority},
    {"zeEventPoolCreate", 0x70000003, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY",
     AG_ERROR_OUT_OF_MEMORY, failure_calls::launch_host_func},
    // A host function's first event, after its pool: the pool must not leak.
    {"zeEventCreate", 0x70000003, "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::launch_host_func},
    {"zeCommandListAppendSignalEvent", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST",
     AG_ERROR_LAUNCH_FAILED, failure_calls::launch_host_func},
    // After the signal is in the list: its events must go, and the function must not run.
    {"zeCommandListAppendWaitOnEvents", 0x78000004, "ZE_RESULT_ERROR_INVALID_ARGUMENT",
     AG_ERROR_INVALID_VALUE, failure_calls::launch_host_func},
    {"zeEventHostSynchronize", 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) {
       EXPECT_AG(launch_saxpy(f, 64));
       return agStreamSynchronize(f.stream);
     }},
    // Peers (f.peer: the driver's second device): a failed query answers nothing, and a failed
    // enable enables nothing (the test checks it).
    {"zeDeviceCanAccessPeer", 0x78000005, "ZE_RESULT_ERROR_INVALID_NULL_HANDLE",
     AG_ERROR_INVALID_HANDLE, failure_calls::can_access_peer},
    {"zeDeviceCanAccessPeer", 0x7ffffffe, "ZE_RESULT_ERROR_UNKNOWN", AG_ERROR_BACKEND_FAILURE,
     failure_calls::enable_peer_access},
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

class LevelZeroFailureTest
    : public DriverFailureTest<LevelZeroDriverAccess, AG_BACKEND_LEVEL_ZERO, Fixture, uint32_t> {
 protected:
  // The device's own command list, for synchronous work, is made on first use and kept.
  void set_up_more() override {
    ASSERT_AG(agMemcpyHtoD(f.device, f.buffer, f.host, sizeof f.host));
  }
};

// level_zero_backend_tests runs the driver with two devices: f.peer is the second.
TEST_P(LevelZeroFailureTest, SurfacesAsTheMappedResultWithTheNativeName) {
  fail_and_check(GetParam());
  EXPECT_EQ(live_before, driver.live_objects()) << "a failure leaked a driver object";
  if (f.peer) {
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, agDeviceDisablePeerAccess(f.device, f.peer))
        << "a failed call left peer access enabled";
  }
  // The failure was one call: the stream works again, and the devices are peers again.
  driver.clear_failures();
  EXPECT_AG(launch_saxpy(f, 128));
  EXPECT_AG(agStreamSynchronize(f.stream));
  if (f.peer) {
    int can = -1;
    EXPECT_AG(agDeviceCanAccessPeer(f.device, f.peer, &can));
    EXPECT_EQ(1, can);
  }
}

INSTANTIATE_TEST_SUITE_P(DriverCalls, LevelZeroFailureTest, ::testing::ValuesIn(kCases),
                         DriverFailureCaseName());

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
