// Linked into test programs that run on the CUDA test driver: before main (and so before anygpu
// initialises or GoogleTest lists the devices) it points anygpu's CUDA backend at the driver and
// the driver at the host build of the test kernels. Values already in the environment win.
#include <anygpu/anygpu.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

struct CudaTestDriverEnvironment {
  CudaTestDriverEnvironment() {
    setenv("ANYGPU_CUDA_LIBRARY", ANYGPU_TEST_CUDA_DRIVER_PATH, 0);
    setenv("ANYGPU_CUDA_TEST_KERNELS", ANYGPU_TEST_KERNELS_PATH, 0);
#ifdef ANYGPU_TEST_CUDA_DEVICE_COUNT
    setenv("ANYGPU_CUDA_TEST_DEVICE_COUNT", ANYGPU_TEST_CUDA_DEVICE_COUNT, 0);
#endif
    // The suites run on the CUDA devices; the CPU device stays for references.
    setenv("ANYGPU_TEST_DEVICES", "cuda", 0);
  }
};

const CudaTestDriverEnvironment environment;

}  // namespace

// Without this the parameterized suites would have no device and prove nothing.
TEST(CudaTestDriver, BackendIsAvailable) {
  int count = 0;
  ASSERT_EQ(AG_SUCCESS, agBackendGetCount(&count));
  for (int index = 0; index < count; ++index) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(AG_SUCCESS, agBackendGetInfo(index, &info));
    if (info.kind != AG_BACKEND_CUDA) continue;
    EXPECT_TRUE(info.available) << info.reason;
    EXPECT_GE(info.device_count, 1);
    EXPECT_EQ(std::string(ANYGPU_TEST_CUDA_DRIVER_PATH), info.library);
    return;
  }
  FAIL() << "no CUDA backend listed";
}
