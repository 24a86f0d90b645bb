// The HIP backend's error paths, through the test driver: a chosen runtime call fails with a
// chosen hipError_t, and the anygpu call surfaces the mapped ag_result with the native name in the
// detail, hands out nothing, changes nothing it was given, and leaves no runtime object behind.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>

#include "driver_failure_fixture.h"
#include "hip_driver_access.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

// What one test case's call works with; set up before the failure is armed.
struct Fixture : DriverFailureObjects {
  ag_device other = nullptr;  // the second HIP device: calls on it set the current device
  void* pinned = nullptr;
  std::function<ag_result()> reuse;  // a destroy case: a call on the destroyed handle
};

using FailureCase = DriverFailureCase<Fixture>;

// Each call the HIP backend makes, failing with a result HIP gives for it.
const FailureCase kCases[] = {
    {"hipMalloc", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY, failure_calls::mem_alloc},
    {"hipHostMalloc", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc_host},
    {"hipMallocManaged", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc_managed},
    {"hipMemPrefetchAsync", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_prefetch},
    {"hipMemAdvise", 101, "hipErrorInvalidDevice", AG_ERROR_INVALID_DEVICE,
     failure_calls::mem_advise},
    {"hipFree", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE, failure_calls::mem_free},
    {"hipHostFree", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemFreeHost(f.device, f.pinned); }},
    {"hipMemGetInfo", 3, "hipErrorNotInitialized", AG_ERROR_NOT_INITIALIZED,
     failure_calls::mem_get_info},
    {"hipMemcpyHtoD", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::memcpy_htod},
    {"hipMemcpyDtoH", 700, "hipErrorIllegalAddress", AG_ERROR_LAUNCH_FAILED,
     failure_calls::memcpy_dtoh},
    {"hipMemcpyDtoD", 17, "hipErrorInvalidDevicePointer", AG_ERROR_INVALID_ADDRESS,
     [](Fixture& f) { return agMemcpyDtoD(f.device, f.buffer, f.buffer, 16); }},
    {"hipMemcpyHtoDAsync", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemcpyHtoDAsync(f.buffer, f.host, sizeof f.host, f.stream); }},
    {"hipMemcpyDtoHAsync", 700, "hipErrorIllegalAddress", AG_ERROR_LAUNCH_FAILED,
     failure_calls::memcpy_dtoh_async},
    {"hipMemcpyDtoDAsync", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemcpyDtoDAsync(f.buffer, f.buffer, 16, f.stream); }},
    {"hipMemcpy2D", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE, failure_calls::memcpy_2d},
    {"hipMemcpy2DAsync", 700, "hipErrorIllegalAddress", AG_ERROR_LAUNCH_FAILED,
     failure_calls::memcpy_2d_async},
    {"hipMemPoolCreate", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_pool_create},
    {"hipMemPoolSetAttribute", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_pool_create},
    {"hipMallocFromPoolAsync", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc_async},
    {"hipFreeAsync", 700, "hipErrorIllegalAddress", AG_ERROR_LAUNCH_FAILED,
     failure_calls::mem_free_async},
    {"hipMemPoolTrimTo", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_pool_trim},
    {"hipMemPoolSetAttribute", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     failure_calls::mem_pool_set_release_threshold},
    {"hipMemPoolGetAttribute", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_pool_get_usage},
    {"hipDeviceCanAccessPeer", 101, "hipErrorInvalidDevice", AG_ERROR_INVALID_DEVICE,
     failure_calls::can_access_peer},
    {"hipDeviceEnablePeerAccess", 217, "hipErrorPeerAccessUnsupported", AG_ERROR_BACKEND_FAILURE,
     failure_calls::enable_peer_access},
    {"hipDeviceDisablePeerAccess", 101, "hipErrorInvalidDevice", AG_ERROR_INVALID_DEVICE,
     failure_calls::disable_peer_access},
    {"hipMemcpyPeer", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::memcpy_peer},
    {"hipMemcpyPeerAsync", 700, "hipErrorIllegalAddress", AG_ERROR_LAUNCH_FAILED,
     failure_calls::memcpy_peer_async},
    {"hipMemsetD8", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE, failure_calls::memset_d8},
    {"hipMemsetD8Async", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::memset_d8_async},
    {"hipStreamCreateWithFlags", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::stream_create},
    {"hipStreamGetPriority", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     failure_calls::stream_create_from_native},
    {"hipStreamSynchronize", 719, "hipErrorLaunchFailure", AG_ERROR_LAUNCH_FAILED,
     failure_calls::stream_synchronize},
    {"hipStreamQuery", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     failure_calls::stream_query},
    {"hipStreamWaitEvent", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) {
       EXPECT_AG(agEventRecord(f.start, f.stream));
       return agStreamWaitEvent(f.stream, f.start, 0);
     }},
    {"hipStreamCreateWithPriority", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::stream_create_with_priority},
    {"hipDeviceGetStreamPriorityRange", 101, "hipErrorInvalidDevice", AG_ERROR_INVALID_DEVICE,
     failure_calls::stream_create_with_priority},
    {"hipStreamAddCallback", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     failure_calls::launch_host_func},
    {"hipEventCreateWithFlags", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::event_create},
    {"hipEventRecord", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     failure_calls::event_record},
    {"hipEventSynchronize", 719, "hipErrorLaunchFailure", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) {
       EXPECT_AG(agEventRecord(f.start, f.stream));
       return agEventSynchronize(f.start);
     }},
    {"hipEventQuery", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) {
       EXPECT_AG(agEventRecord(f.start, f.stream));
       return agEventQuery(f.start);
     }},
    {"hipEventElapsedTime", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::event_elapsed_time},
    {"hipModuleLoadData", 200, "hipErrorInvalidImage", AG_ERROR_INVALID_IMAGE,
     failure_calls::module_load_data},
    {"hipModuleLoadData", 209, "hipErrorNoBinaryForGpu", AG_ERROR_NO_BINARY_FOR_DEVICE,
     failure_calls::module_load_data},
    {"hipModuleGetFunction", 500, "hipErrorNotFound", AG_ERROR_NOT_FOUND,
     failure_calls::module_get_function},
    {"hipFuncGetAttribute", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     failure_calls::module_get_function},
    {"hipModuleOccupancyMaxActiveBlocksPerMultiprocessor", 400, "hipErrorInvalidHandle",
     AG_ERROR_INVALID_HANDLE, failure_calls::occupancy_max_active_blocks},
    {"hipModuleOccupancyMaxPotentialBlockSize", 400, "hipErrorInvalidHandle",
     AG_ERROR_INVALID_HANDLE, failure_calls::occupancy_max_potential_block_size},
    {"hipModuleLaunchKernel", 701, "hipErrorLaunchOutOfResources", AG_ERROR_INVALID_CONFIGURATION,
     failure_calls::launch},
    {"hipModuleLaunchKernel", 719, "hipErrorLaunchFailure", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return launch_saxpy(f, 256, nullptr); }},
    {"hipDeviceSynchronize", 719, "hipErrorLaunchFailure", AG_ERROR_LAUNCH_FAILED,
     failure_calls::device_synchronize},
    // Every call first asks for the thread's current device...
    {"hipGetDevice", 101, "hipErrorInvalidDevice", AG_ERROR_INVALID_DEVICE,
     failure_calls::stream_synchronize},
    // ... and sets it when it is another one.
    {"hipSetDevice", 101, "hipErrorInvalidDevice", AG_ERROR_INVALID_DEVICE,
     [](Fixture& f) {
       void* p = nullptr;
       ag_result r = agMemAlloc(f.other, 1024, &p);
       EXPECT_EQ(nullptr, p);
       return r;
     }},
};

// The destroy calls. anygpu's handle is gone whatever the backend answers (shim/api_*.cpp remove
// it first, so that racing destroys cannot both reach the runtime); what the runtime failed to
// destroy stays the runtime's.
const FailureCase kDestroyCases[] = {
    {"hipStreamDestroy", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) {
       ag_stream stream = std::exchange(f.stream, nullptr);
       f.reuse = [stream] { return agStreamQuery(stream); };
       return agStreamDestroy(stream);
     }},
};

// The same for events and modules, whose backend wrappers (HipEvent, HipModule with its copy of
// the code object) must be freed even when the runtime refuses: the handle is gone either way
// (LeakSanitizer would report a kept wrapper).
const FailureCase kWrappedDestroyCases[] = {
    {"hipEventDestroy", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) {
       ag_event event = std::exchange(f.end, nullptr);
       f.reuse = [event] { return agEventQuery(event); };
       return agEventDestroy(event);
     }},
    {"hipModuleUnload", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) {
       ag_module module = std::exchange(f.module, nullptr);
       f.reuse = [module] {
         ag_function function = nullptr;
         return agModuleGetFunction(module, "saxpy", &function);
       };
       return agModuleUnload(module);
     }},
};

// Runtime objects the destroy cases left with the runtime, for the fixtures' leak check.
long left_with_the_runtime = 0;

class HipFailureTest : public DriverFailureTest<HipDriverAccess, AG_BACKEND_HIP, Fixture> {
 protected:
  void set_up_more() override {
    f.other = driver.hip_device(1);
    ASSERT_NE(nullptr, f.other) << "the test driver was to have two devices";
    ASSERT_AG(agMemAllocHost(f.device, sizeof f.host, &f.pinned));
  }
  // The common check, and the detail's form: "<call> failed: ", "<name> (<result>)".
  void fail_and_check(const FailureCase& c) {
    const std::string detail = DriverFailureTest::fail_and_check(c);
    EXPECT_NE(std::string::npos, detail.find(std::string(c.driver_call) + " failed: ")) << detail;
    EXPECT_NE(std::string::npos, detail.find(std::string(c.native_name) + " (" +
                                             std::to_string(c.native_result) + ")"))
        << detail;
  }
  void tear_down_more() override {
    if (f.pinned) {
      EXPECT_AG(agMemFreeHost(f.device, f.pinned));
    }
  }
  void after_tear_down() override {
    EXPECT_EQ(left_with_the_runtime, driver.live_objects())
        << "the fixture left runtime objects behind";
  }
};

TEST_P(HipFailureTest, SurfacesAsTheMappedResultWithTheNativeName) {
  fail_and_check(GetParam());
  // Nothing was created, and nothing given was destroyed: a failed free leaves the allocation with
  // the application (the fixture frees it after).
  EXPECT_EQ(live_before, driver.live_objects()) << "a failure leaked or lost a runtime object";
  // The failure was one call: the objects still work.
  driver.clear_failures();
  EXPECT_AG(agStreamSynchronize(f.stream));
  EXPECT_AG(agMemsetD8(f.device, f.buffer, 1, sizeof f.host));
  // The thread's current device is what it was (0) whatever failed.
  EXPECT_EQ(0, driver.current_device());
}

INSTANTIATE_TEST_SUITE_P(RuntimeCalls, HipFailureTest, ::testing::ValuesIn(kCases),
                         DriverFailureCaseName());

using HipDestroyFailureTest = HipFailureTest;

TEST_P(HipDestroyFailureTest, SurfacesAsTheMappedResultAndTheHandleIsGone) {
  fail_and_check(GetParam());
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, f.reuse()) << "the handle outlived its destroy";
  // The runtime's object is still alive there, and nothing else changed.
  EXPECT_EQ(live_before, driver.live_objects());
  ++left_with_the_runtime;
  driver.clear_failures();
  if (f.stream) {
    EXPECT_AG(agStreamSynchronize(f.stream));
  }
}

INSTANTIATE_TEST_SUITE_P(RuntimeCalls, HipDestroyFailureTest, ::testing::ValuesIn(kDestroyCases),
                         DriverFailureCaseName());
INSTANTIATE_TEST_SUITE_P(WrapperFreed, HipDestroyFailureTest,
                         ::testing::ValuesIn(kWrappedDestroyCases), DriverFailureCaseName());

}  // namespace
}  // namespace anygpu_test
