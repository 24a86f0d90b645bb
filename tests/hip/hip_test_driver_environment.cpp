// Linked into test programs that run on the HIP test driver (tests/drivers/hip): before main (and
// so before anygpu initialises or GoogleTest lists the devices) it points anygpu's HIP backend at
// the driver and the driver at the host build of the test kernels, with the device count and
// gcnArchName the program was built for. Values already in the environment win.
#include <anygpu/anygpu.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

struct HipTestDriverEnvironment {
  HipTestDriverEnvironment() {
    setenv("ANYGPU_HIP_LIBRARY", ANYGPU_TEST_HIP_DRIVER_PATH, 0);
    setenv("ANYGPU_HIP_TEST_KERNELS", ANYGPU_TEST_KERNELS_PATH, 0);
#ifdef ANYGPU_TEST_HIP_DEVICE_COUNT
    setenv("ANYGPU_HIP_TEST_DEVICE_COUNT", ANYGPU_TEST_HIP_DEVICE_COUNT, 0);
#endif
#ifdef ANYGPU_TEST_HIP_ARCH
    setenv("ANYGPU_HIP_TEST_ARCH", ANYGPU_TEST_HIP_ARCH, 0);
#endif
    // The suites run on the HIP devices; the CPU device stays for references.
    setenv("ANYGPU_TEST_DEVICES", "hip", 0);
  }
};

const HipTestDriverEnvironment environment;

}  // namespace

// Without this the parameterized suites would have no device and prove nothing.
TEST(HipTestDriverEnvironment, BackendIsAvailable) {
  int count = 0;
  ASSERT_EQ(AG_SUCCESS, agBackendGetCount(&count));
  for (int index = 0; index < count; ++index) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(AG_SUCCESS, agBackendGetInfo(index, &info));
    if (info.kind != AG_BACKEND_HIP) continue;
    EXPECT_TRUE(info.available) << info.reason;
    EXPECT_GE(info.device_count, 1);
    EXPECT_EQ(std::string(ANYGPU_TEST_HIP_DRIVER_PATH), info.library);
    return;
  }
  FAIL() << "no HIP backend listed";
}
