// Linked into test programs that run on one of anygpu's test drivers (anygpu_use_test_driver in
// test_driver_environment.cmake): before main (and so before anygpu initialises or GoogleTest lists
// the devices) it points anygpu's backend at the driver and the driver at the host build of the
// test kernels, with the device count and architecture the program was built for. The variables'
// names and values are compile definitions. Values already in the environment win.
#include <anygpu/anygpu.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

struct TestDriverEnvironment {
  TestDriverEnvironment() {
    setenv(ANYGPU_TEST_DRIVER_LIBRARY_VARIABLE, ANYGPU_TEST_DRIVER_PATH, 0);
    setenv(ANYGPU_TEST_DRIVER_KERNELS_VARIABLE, ANYGPU_TEST_KERNELS_PATH, 0);
#ifdef ANYGPU_TEST_DRIVER_DEVICE_COUNT
    setenv(ANYGPU_TEST_DRIVER_DEVICE_COUNT_VARIABLE, ANYGPU_TEST_DRIVER_DEVICE_COUNT, 0);
#endif
#ifdef ANYGPU_TEST_DRIVER_ARCH
    setenv(ANYGPU_TEST_DRIVER_ARCH_VARIABLE, ANYGPU_TEST_DRIVER_ARCH, 0);
#endif
    // The suites run on the driver's devices; the CPU device stays for references.
    setenv("ANYGPU_TEST_DEVICES", ANYGPU_TEST_DRIVER_DEVICES, 0);
  }
};

const TestDriverEnvironment environment;

}  // namespace

// Without this the parameterized suites would have no device and prove nothing.
TEST(ANYGPU_TEST_DRIVER_SUITE, BackendIsAvailable) {
  int count = 0;
  ASSERT_EQ(AG_SUCCESS, agBackendGetCount(&count));
  for (int index = 0; index < count; ++index) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(AG_SUCCESS, agBackendGetInfo(index, &info));
    if (info.kind != ANYGPU_TEST_DRIVER_BACKEND) continue;
    EXPECT_TRUE(info.available) << info.reason;
#ifdef ANYGPU_TEST_DRIVER_EXACT_DEVICE_COUNT
    EXPECT_EQ(ANYGPU_TEST_DRIVER_EXACT_DEVICE_COUNT, info.device_count);
#else
    EXPECT_GE(info.device_count, 1);
#endif
    EXPECT_EQ(std::string(ANYGPU_TEST_DRIVER_LIBRARY), info.library);
    return;
  }
  FAIL() << "no " << ANYGPU_TEST_DRIVER_DEVICES << " backend listed";
}
