// anygpu inside a program that owns CUDA objects, through the test driver (two devices): the
// device's native handle is its primary context, a stream the application made there runs
// anygpu's work and stays the application's, and a stream of another context is refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_driver_access.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

using namespace anygpu::cuda;

class CudaNativeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.cuda_device(0);
    ASSERT_NE(nullptr, device) << "no CUDA device from the test driver";
  }
  // A stream made as the application would: in `device`'s primary context, made current for it.
  CUstream application_stream(int device_index, int priority = 0) {
    CUcontext primary = driver.retain_primary_context(device_index);
    const CUcontext previous = driver.current_context();
    driver.set_current_context(primary);
    CUstream stream = nullptr;
    auto create = driver.function<PFN_cuStreamCreateWithPriority>("cuStreamCreateWithPriority");
    EXPECT_EQ(CUDA_SUCCESS, create(&stream, CU_STREAM_NON_BLOCKING, priority));
    driver.set_current_context(previous);
    return stream;
  }
  // Destroys it as the application would; CUDA_ERROR_INVALID_HANDLE had anygpu destroyed it.
  void destroy_application_stream(int device_index, CUstream stream) {
    const CUcontext previous = driver.current_context();
    driver.set_current_context(driver.retain_primary_context(device_index));
    EXPECT_EQ(CUDA_SUCCESS, driver.function<PFN_cuStreamQuery>("cuStreamQuery")(stream));
    EXPECT_EQ(CUDA_SUCCESS, driver.function<PFN_cuStreamDestroy_v2>("cuStreamDestroy_v2")(stream));
    driver.set_current_context(previous);
    driver.release_primary_context(device_index);  // this function's retain
    driver.release_primary_context(device_index);  // application_stream's
  }

  CudaDriverAccess driver;
  ag_device device = nullptr;
};

TEST_F(CudaNativeTest, DeviceHandleIsTheDeviceAndItsPrimaryContext) {
  for (int index = 0; index < 2; ++index) {
    ag_native_device native{};
    native.struct_size = sizeof native;
    ASSERT_AG(agDeviceGetNativeHandle(driver.cuda_device(index), &native));
    EXPECT_EQ(AG_BACKEND_CUDA, native.backend);
    EXPECT_EQ(index, native.ordinal);
    EXPECT_EQ(driver.retain_primary_context(index), native.context);
    driver.release_primary_context(index);
  }
}

TEST_F(CudaNativeTest, ApplicationStreamRunsAnygpusWorkAndStaysTheApplications) {
  const long live_before = driver.live_objects();
  CUstream stream = application_stream(0, -3);
  ag_stream adopted = nullptr;
  ASSERT_AG(agStreamCreateFromNative(device, stream, 0, &adopted));
  void* native = nullptr;
  EXPECT_AG(agStreamGetNativeHandle(adopted, &native));
  EXPECT_EQ(static_cast<void*>(stream), native);
  int priority = 0;
  EXPECT_AG(agStreamGetPriority(adopted, &priority));
  EXPECT_EQ(-3, priority);

  expect_fill_round_trip(device, adopted, adopted, 0xc0ffeeu);
  EXPECT_AG(agStreamDestroy(adopted));
  destroy_application_stream(0, stream);
  EXPECT_EQ(live_before, driver.live_objects());
}

TEST_F(CudaNativeTest, StreamOfAnotherContextIsRefused) {
  CUstream other = application_stream(1);
  ag_stream adopted = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agStreamCreateFromNative(device, other, 0, &adopted));
  EXPECT_NE(std::string::npos, last_detail().find("primary context")) << last_detail();
  EXPECT_EQ(nullptr, adopted);
  // On its own device it is accepted.
  ASSERT_AG(agStreamCreateFromNative(driver.cuda_device(1), other, 0, &adopted));
  EXPECT_AG(agStreamDestroy(adopted));
  destroy_application_stream(1, other);
}

TEST_F(CudaNativeTest, StreamTheDriverDoesNotKnowIsRefused) {
  int not_a_stream = 0;
  ag_stream adopted = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agStreamCreateFromNative(device, &not_a_stream, 0, &adopted));
  EXPECT_NE(std::string::npos, last_detail().find("cuStreamGetCtx")) << last_detail();
  EXPECT_EQ(nullptr, adopted);
}

}  // namespace
}  // namespace anygpu_test
