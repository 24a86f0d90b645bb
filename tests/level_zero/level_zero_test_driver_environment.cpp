// Linked into test programs that run on the Level Zero test driver through the real loader: before
// main (and so before anygpu initialises or GoogleTest lists the devices) it makes the loader load
// the test driver as an alternate driver and points the driver at the host build of the test
// kernels. Values already in the environment win.
#include <anygpu/anygpu.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

struct LevelZeroTestDriverEnvironment {
  LevelZeroTestDriverEnvironment() {
    setenv("ZE_ENABLE_ALT_DRIVERS", ANYGPU_TEST_LEVEL_ZERO_DRIVER_PATH, 0);
    setenv("ANYGPU_L0_TEST_KERNELS", ANYGPU_TEST_KERNELS_PATH, 0);
    // The suites run on the Level Zero device; the CPU device stays for references.
    setenv("ANYGPU_TEST_DEVICES", "level_zero", 0);
  }
};

const LevelZeroTestDriverEnvironment environment;

}  // namespace

// Without this the parameterized suites would have no device and prove nothing.
TEST(LevelZeroTestDriver, BackendIsAvailable) {
  int count = 0;
  ASSERT_EQ(AG_SUCCESS, agBackendGetCount(&count));
  for (int index = 0; index < count; ++index) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(AG_SUCCESS, agBackendGetInfo(index, &info));
    if (info.kind != AG_BACKEND_LEVEL_ZERO) continue;
    EXPECT_TRUE(info.available) << info.reason;
    EXPECT_EQ(1, info.device_count);
    EXPECT_EQ(std::string("libze_loader.so.1"), info.library);
    return;
  }
  FAIL() << "no Level Zero backend listed";
}
