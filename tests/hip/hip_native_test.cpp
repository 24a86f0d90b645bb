// anygpu inside a program that owns HIP streams, through the test driver (two devices): the
// device's native handle is its ordinal, a stream the application made on the device runs
// anygpu's work and stays the application's, and a stream of another device, or one HIP does not
// know, is refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hip_driver_access.h"
#include "loaders/hip/hip_api.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

using namespace anygpu::hip;

class HipNativeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.hip_device(0);
    ASSERT_NE(nullptr, device) << "no HIP device from the test driver";
  }
  // A stream made as the application would, with `device_index` current.
  hipStream_t application_stream(int device_index, int priority = 0) {
    const int previous = driver.current_device();
    driver.set_current_device(device_index);
    hipStream_t stream = nullptr;
    auto create = driver.function<PFN_hipStreamCreateWithPriority>("hipStreamCreateWithPriority");
    EXPECT_EQ(hipSuccess, create(&stream, hipStreamNonBlocking, priority));
    driver.set_current_device(previous);
    return stream;
  }
  // Destroys it as the application would; hipErrorInvalidHandle had anygpu destroyed it.
  void destroy_application_stream(hipStream_t stream) {
    EXPECT_EQ(hipSuccess, driver.function<PFN_hipStreamQuery>("hipStreamQuery")(stream));
    EXPECT_EQ(hipSuccess, driver.function<PFN_hipStreamDestroy>("hipStreamDestroy")(stream));
  }

  HipDriverAccess driver;
  ag_device device = nullptr;
};

TEST_F(HipNativeTest, DeviceHandleIsTheOrdinal) {
  for (int index = 0; index < 2; ++index) {
    ag_native_device native{};
    native.struct_size = sizeof native;
    ASSERT_AG(agDeviceGetNativeHandle(driver.hip_device(index), &native));
    EXPECT_EQ(AG_BACKEND_HIP, native.backend);
    EXPECT_EQ(index, native.ordinal);
    EXPECT_EQ(nullptr, native.context);
  }
}

TEST_F(HipNativeTest, ApplicationStreamRunsAnygpusWorkAndStaysTheApplications) {
  const long live_before = driver.live_objects();
  hipStream_t stream = application_stream(0, -1);
  ag_stream adopted = nullptr;
  ASSERT_AG(agStreamCreateFromNative(device, stream, 0, &adopted));
  void* native = nullptr;
  EXPECT_AG(agStreamGetNativeHandle(adopted, &native));
  EXPECT_EQ(static_cast<void*>(stream), native);
  int priority = 0;
  EXPECT_AG(agStreamGetPriority(adopted, &priority));
  EXPECT_EQ(-1, priority);

  expect_fill_round_trip(device, adopted, adopted, 0xbeefu);
  EXPECT_AG(agStreamDestroy(adopted));
  destroy_application_stream(stream);
  EXPECT_EQ(live_before, driver.live_objects());
}

TEST_F(HipNativeTest, StreamOfAnotherDeviceIsRefused) {
  hipStream_t other = application_stream(1);
  ag_stream adopted = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agStreamCreateFromNative(device, other, 0, &adopted));
  EXPECT_NE(std::string::npos, last_detail().find("HIP device 1")) << last_detail();
  EXPECT_EQ(nullptr, adopted);
  ASSERT_AG(agStreamCreateFromNative(driver.hip_device(1), other, 0, &adopted));
  EXPECT_AG(agStreamDestroy(adopted));
  destroy_application_stream(other);
}

TEST_F(HipNativeTest, StreamHipDoesNotKnowIsRefused) {
  int not_a_stream = 0;
  ag_stream adopted = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agStreamCreateFromNative(device, &not_a_stream, 0, &adopted));
  EXPECT_NE(std::string::npos, last_detail().find("hipGetStreamDeviceId")) << last_detail();
  EXPECT_EQ(nullptr, adopted);
  // The same answer when the runtime's call fails.
  hipStream_t stream = application_stream(0);
  driver.fail("hipGetStreamDeviceId", 400);
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agStreamCreateFromNative(device, stream, 0, &adopted));
  EXPECT_EQ(nullptr, adopted);
  destroy_application_stream(stream);
}

}  // namespace
}  // namespace anygpu_test
