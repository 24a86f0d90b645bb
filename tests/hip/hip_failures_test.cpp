// The HIP backend's error paths, through the test driver: a chosen runtime call fails with a
// chosen hipError_t, and the anygpu call surfaces the mapped ag_result with the native name in the
// detail, hands out nothing, changes nothing it was given, and leaves no runtime object behind.
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <utility>

#include "hip_driver_access.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

// What one test case's call works with; set up before the failure is armed.
struct Fixture {
  ag_device device = nullptr;
  ag_device other = nullptr;  // the second HIP device: calls on it set the current device
  ag_stream stream = nullptr;
  ag_event start = nullptr, end = nullptr;
  ag_module module = nullptr;
  ag_function saxpy = nullptr;
  void* buffer = nullptr;
  void* pinned = nullptr;
  float host[256] = {};
  std::function<ag_result()> reuse;  // a destroy case: a call on the destroyed handle
};

struct FailureCase {
  const char* driver_call;
  int hip_result;
  const char* hip_name;
  ag_result expected;
  std::function<ag_result(Fixture&)> call;
};

// GoogleTest prints a case by its runtime call, not as bytes.
void PrintTo(const FailureCase& c, std::ostream* out) {
  *out << c.driver_call << " -> " << c.hip_name;
}

std::string case_name(const ::testing::TestParamInfo<FailureCase>& info) {
  return std::string(info.param.driver_call) + "_" + std::to_string(info.param.hip_result);
}

// Each call the HIP backend makes, failing with a result HIP gives for it.
const FailureCase kCases[] = {
    {"hipMalloc", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       void* p = nullptr;
       ag_result r = agMemAlloc(f.device, 1024, &p);
       EXPECT_EQ(nullptr, p);
       return r;
     }},
    {"hipHostMalloc", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       void* p = nullptr;
       ag_result r = agMemAllocHost(f.device, 1024, &p);
       EXPECT_EQ(nullptr, p);
       return r;
     }},
    {"hipFree", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemFree(f.device, f.buffer); }},
    {"hipHostFree", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemFreeHost(f.device, f.pinned); }},
    {"hipMemGetInfo", 3, "hipErrorNotInitialized", AG_ERROR_NOT_INITIALIZED,
     [](Fixture& f) {
       size_t free_bytes = 0, total = 0;
       return agMemGetInfo(f.device, &free_bytes, &total);
     }},
    {"hipMemcpyHtoD", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemcpyHtoD(f.device, f.buffer, f.host, sizeof f.host); }},
    {"hipMemcpyDtoH", 700, "hipErrorIllegalAddress", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agMemcpyDtoH(f.device, f.host, f.buffer, sizeof f.host); }},
    {"hipMemcpyDtoD", 17, "hipErrorInvalidDevicePointer", AG_ERROR_INVALID_ADDRESS,
     [](Fixture& f) { return agMemcpyDtoD(f.device, f.buffer, f.buffer, 16); }},
    {"hipMemcpyHtoDAsync", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemcpyHtoDAsync(f.buffer, f.host, sizeof f.host, f.stream); }},
    {"hipMemcpyDtoHAsync", 700, "hipErrorIllegalAddress", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agMemcpyDtoHAsync(f.host, f.buffer, sizeof f.host, f.stream); }},
    {"hipMemcpyDtoDAsync", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemcpyDtoDAsync(f.buffer, f.buffer, 16, f.stream); }},
    {"hipMemsetD8", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemsetD8(f.device, f.buffer, 0, sizeof f.host); }},
    {"hipMemsetD8Async", 1, "hipErrorInvalidValue", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemsetD8Async(f.buffer, 0, sizeof f.host, f.stream); }},
    {"hipStreamCreateWithFlags", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       ag_stream s = nullptr;
       ag_result r = agStreamCreate(f.device, 0, &s);
       EXPECT_EQ(nullptr, s);
       return r;
     }},
    {"hipStreamSynchronize", 719, "hipErrorLaunchFailure", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agStreamSynchronize(f.stream); }},
    {"hipStreamQuery", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) { return agStreamQuery(f.stream); }},
    {"hipStreamWaitEvent", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) {
       EXPECT_AG(agEventRecord(f.start, f.stream));
       return agStreamWaitEvent(f.stream, f.start, 0);
     }},
    {"hipEventCreateWithFlags", 2, "hipErrorOutOfMemory", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       ag_event e = nullptr;
       ag_result r = agEventCreate(f.device, 0, &e);
       EXPECT_EQ(nullptr, e);
       return r;
     }},
    {"hipEventRecord", 400, "hipErrorInvalidHandle", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) { return agEventRecord(f.start, f.stream); }},
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
     [](Fixture& f) {
       EXPECT_AG(agEventRecord(f.start, f.stream));
       EXPECT_AG(agEventRecord(f.end, f.stream));
       EXPECT_AG(agEventSynchronize(f.end));
       float ms = -1;
       ag_result r = agEventElapsedTime(&ms, f.start, f.end);
       EXPECT_EQ(-1, ms);
       return r;
     }},
    {"hipModuleLoadData", 200, "hipErrorInvalidImage", AG_ERROR_INVALID_IMAGE,
     [](Fixture& f) {
       ag_module m = nullptr;
       ag_result r = agModuleLoadData(f.device, anygpu_image_test_kernels,
                                      anygpu_image_test_kernels_size, &m);
       EXPECT_EQ(nullptr, m);
       return r;
     }},
    {"hipModuleLoadData", 209, "hipErrorNoBinaryForGpu", AG_ERROR_NO_BINARY_FOR_DEVICE,
     [](Fixture& f) {
       ag_module m = nullptr;
       ag_result r = agModuleLoadData(f.device, anygpu_image_test_kernels,
                                      anygpu_image_test_kernels_size, &m);
       EXPECT_EQ(nullptr, m);
       return r;
     }},
    {"hipModuleGetFunction", 500, "hipErrorNotFound", AG_ERROR_NOT_FOUND,
     [](Fixture& f) {
       ag_function fn = nullptr;
       ag_result r = agModuleGetFunction(f.module, "vector_add", &fn);
       EXPECT_EQ(nullptr, fn);
       return r;
     }},
    {"hipModuleLaunchKernel", 701, "hipErrorLaunchOutOfResources", AG_ERROR_INVALID_CONFIGURATION,
     [](Fixture& f) {
       int n = 256;
       float a = 2;
       void* params[] = {&n, &a, &f.buffer, &f.buffer};
       return agLaunchKernel(f.saxpy, 1, 1, 1, 256, 1, 1, 0, f.stream, params, nullptr);
     }},
    {"hipModuleLaunchKernel", 719, "hipErrorLaunchFailure", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) {
       int n = 256;
       float a = 2;
       void* params[] = {&n, &a, &f.buffer, &f.buffer};
       return agLaunchKernel(f.saxpy, 1, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr);
     }},
    {"hipDeviceSynchronize", 719, "hipErrorLaunchFailure", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agDeviceSynchronize(f.device); }},
    // Every call first asks for the thread's current device...
    {"hipGetDevice", 101, "hipErrorInvalidDevice", AG_ERROR_INVALID_DEVICE,
     [](Fixture& f) { return agStreamSynchronize(f.stream); }},
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

class HipFailureTest : public ::testing::TestWithParam<FailureCase> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    f.device = driver.hip_device(0);
    f.other = driver.hip_device(1);
    ASSERT_NE(nullptr, f.device) << "no HIP device from the test driver";
    ASSERT_NE(nullptr, f.other) << "the test driver was to have two devices";
    ASSERT_AG(agStreamCreate(f.device, 0, &f.stream));
    ASSERT_AG(agEventCreate(f.device, 0, &f.start));
    ASSERT_AG(agEventCreate(f.device, 0, &f.end));
    ASSERT_AG(agModuleLoadData(f.device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                               &f.module));
    ASSERT_AG(agModuleGetFunction(f.module, "saxpy", &f.saxpy));
    ASSERT_AG(agMemAlloc(f.device, sizeof f.host, &f.buffer));
    ASSERT_AG(agMemAllocHost(f.device, sizeof f.host, &f.pinned));
    live_before = driver.live_objects();
  }

  // Arms the case's failure, makes its call, and checks the result and the detail.
  void fail_and_check(const FailureCase& c) {
    const long calls_before = driver.calls(c.driver_call);
    driver.fail(c.driver_call, c.hip_result);
    EXPECT_EQ(c.expected, c.call(f)) << last_detail();
    EXPECT_GT(driver.calls(c.driver_call), calls_before) << "the runtime call was never made";
    const std::string detail = last_detail();
    EXPECT_NE(std::string::npos, detail.find(std::string(c.driver_call) + " failed: ")) << detail;
    EXPECT_NE(std::string::npos,
              detail.find(std::string(c.hip_name) + " (" + std::to_string(c.hip_result) + ")"))
        << detail;
  }
  void TearDown() override {
    driver.clear_failures();
    if (f.pinned) {
      EXPECT_AG(agMemFreeHost(f.device, f.pinned));
    }
    if (f.buffer) {
      EXPECT_AG(agMemFree(f.device, f.buffer));
    }
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
    EXPECT_EQ(left_with_the_runtime, driver.live_objects())
        << "the fixture left runtime objects behind";
  }

  HipDriverAccess driver;
  Fixture f;
  long live_before = 0;
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

INSTANTIATE_TEST_SUITE_P(RuntimeCalls, HipFailureTest, ::testing::ValuesIn(kCases), case_name);

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
                         case_name);
INSTANTIATE_TEST_SUITE_P(WrapperFreed, HipDestroyFailureTest,
                         ::testing::ValuesIn(kWrappedDestroyCases), case_name);

}  // namespace
}  // namespace anygpu_test
