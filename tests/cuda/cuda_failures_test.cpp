// The CUDA backend's error paths, through the test driver: a chosen driver call fails with a
// chosen CUresult, and the anygpu call surfaces the mapped ag_result with the native name in the
// detail, hands out nothing, and leaves no driver object behind.
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cuda_driver_access.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

// What one test case's call works with; set up before the failure is armed.
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
  int cuda_result;
  const char* cuda_name;
  ag_result expected;
  std::function<ag_result(Fixture&)> call;
};

// GoogleTest prints a case by its driver call, not as bytes.
void PrintTo(const FailureCase& c, std::ostream* out) {
  *out << c.driver_call << " -> " << c.cuda_name;
}

std::string case_name(const ::testing::TestParamInfo<FailureCase>& info) {
  return std::string(info.param.driver_call) + "_" + std::to_string(info.param.cuda_result);
}

const FailureCase kCases[] = {
    {"cuMemAlloc_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       void* p = nullptr;
       ag_result r = agMemAlloc(f.device, 1024, &p);
       EXPECT_EQ(nullptr, p);
       return r;
     }},
    {"cuMemAllocHost_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       void* p = nullptr;
       ag_result r = agMemAllocHost(f.device, 1024, &p);
       EXPECT_EQ(nullptr, p);
       return r;
     }},
    {"cuMemFree_v2", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemFree(f.device, f.buffer); }},
    {"cuMemGetInfo_v2", 3, "CUDA_ERROR_NOT_INITIALIZED", AG_ERROR_NOT_INITIALIZED,
     [](Fixture& f) {
       size_t free_bytes = 0, total = 0;
       return agMemGetInfo(f.device, &free_bytes, &total);
     }},
    {"cuMemcpyHtoD_v2", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemcpyHtoD(f.device, f.buffer, f.host, sizeof f.host); }},
    {"cuMemcpyDtoH_v2", 700, "CUDA_ERROR_ILLEGAL_ADDRESS", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agMemcpyDtoH(f.device, f.host, f.buffer, sizeof f.host); }},
    {"cuMemcpyDtoHAsync_v2", 700, "CUDA_ERROR_ILLEGAL_ADDRESS", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agMemcpyDtoHAsync(f.host, f.buffer, sizeof f.host, f.stream); }},
    {"cuMemsetD8_v2", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) { return agMemsetD8(f.device, f.buffer, 0, sizeof f.host); }},
    {"cuStreamCreate", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       ag_stream s = nullptr;
       ag_result r = agStreamCreate(f.device, 0, &s);
       EXPECT_EQ(nullptr, s);
       return r;
     }},
    {"cuStreamSynchronize", 719, "CUDA_ERROR_LAUNCH_FAILED", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agStreamSynchronize(f.stream); }},
    {"cuStreamQuery", 400, "CUDA_ERROR_INVALID_HANDLE", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) { return agStreamQuery(f.stream); }},
    {"cuEventCreate", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     [](Fixture& f) {
       ag_event e = nullptr;
       ag_result r = agEventCreate(f.device, 0, &e);
       EXPECT_EQ(nullptr, e);
       return r;
     }},
    {"cuEventRecord", 400, "CUDA_ERROR_INVALID_HANDLE", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) { return agEventRecord(f.start, f.stream); }},
    {"cuEventElapsedTime", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     [](Fixture& f) {
       EXPECT_AG(agEventRecord(f.start, f.stream));
       EXPECT_AG(agEventRecord(f.end, f.stream));
       EXPECT_AG(agEventSynchronize(f.end));
       float ms = -1;
       ag_result r = agEventElapsedTime(&ms, f.start, f.end);
       EXPECT_EQ(-1, ms);
       return r;
     }},
    {"cuModuleLoadDataEx", 200, "CUDA_ERROR_INVALID_IMAGE", AG_ERROR_INVALID_IMAGE,
     [](Fixture& f) {
       ag_module m = nullptr;
       ag_result r = agModuleLoadData(f.device, anygpu_image_test_kernels,
                                      anygpu_image_test_kernels_size, &m);
       EXPECT_EQ(nullptr, m);
       return r;
     }},
    {"cuModuleGetFunction", 500, "CUDA_ERROR_NOT_FOUND", AG_ERROR_NOT_FOUND,
     [](Fixture& f) {
       ag_function fn = nullptr;
       ag_result r = agModuleGetFunction(f.module, "vector_add", &fn);
       EXPECT_EQ(nullptr, fn);
       return r;
     }},
    {"cuLaunchKernel", 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", AG_ERROR_INVALID_CONFIGURATION,
     [](Fixture& f) {
       int n = 256;
       float a = 2;
       void* params[] = {&n, &a, &f.buffer, &f.buffer};
       return agLaunchKernel(f.saxpy, 1, 1, 1, 256, 1, 1, 0, f.stream, params, nullptr);
     }},
    {"cuCtxSynchronize", 719, "CUDA_ERROR_LAUNCH_FAILED", AG_ERROR_LAUNCH_FAILED,
     [](Fixture& f) { return agDeviceSynchronize(f.device); }},
    {"cuCtxGetCurrent", 201, "CUDA_ERROR_INVALID_CONTEXT", AG_ERROR_INVALID_HANDLE,
     [](Fixture& f) { return agStreamSynchronize(f.stream); }},
};

class CudaFailureTest : public ::testing::TestWithParam<FailureCase> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    f.device = driver.cuda_device();
    ASSERT_NE(nullptr, f.device) << "no CUDA device from the test driver";
    ASSERT_AG(agStreamCreate(f.device, 0, &f.stream));
    ASSERT_AG(agEventCreate(f.device, 0, &f.start));
    ASSERT_AG(agEventCreate(f.device, 0, &f.end));
    ASSERT_AG(agModuleLoadData(f.device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                               &f.module));
    ASSERT_AG(agModuleGetFunction(f.module, "saxpy", &f.saxpy));
    ASSERT_AG(agMemAlloc(f.device, sizeof f.host, &f.buffer));
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

  CudaDriverAccess driver;
  Fixture f;
  long live_before = 0;
};

TEST_P(CudaFailureTest, SurfacesAsTheMappedResultWithTheNativeName) {
  const FailureCase& c = GetParam();
  const long calls_before = driver.calls(c.driver_call);
  driver.fail(c.driver_call, c.cuda_result);
  EXPECT_EQ(c.expected, c.call(f)) << last_detail();
  EXPECT_GT(driver.calls(c.driver_call), calls_before) << "the driver call was never made";
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find(c.driver_call)) << detail;
  EXPECT_NE(std::string::npos, detail.find(c.cuda_name)) << detail;
  // A failed free leaves the allocation with the application; everything else created nothing.
  const long expected_live = live_before;
  EXPECT_EQ(expected_live, driver.live_objects()) << "a failure leaked a driver object";
  // The failure was one call: the same operation works again.
  driver.clear_failures();
  if (std::string(c.driver_call) != "cuMemFree_v2") {
    EXPECT_AG(agStreamSynchronize(f.stream));
  }
}

INSTANTIATE_TEST_SUITE_P(DriverCalls, CudaFailureTest, ::testing::ValuesIn(kCases), case_name);

}  // namespace
}  // namespace anygpu_test
