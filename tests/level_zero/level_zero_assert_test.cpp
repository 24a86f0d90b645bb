// A failed assert in a SPIR-V kernel (anygpu/detail/kernel_assert.h): SPIR-V cannot stop the
// kernel, so it writes the line where the module's __anygpu_assert_report points, and the Level
// Zero backend reports the launch as failed at the next wait. The test driver runs kernels on the
// CPU, where assert traps instead, so the test writes the line as the SPIR-V kernel would.
#include <gtest/gtest.h>

#include <cstdint>

#include "test_driver_control.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

class LevelZeroDriver : public TestDriverControl {
 public:
  LevelZeroDriver() : TestDriverControl(ANYGPU_TEST_DRIVER_PATH, "anygpu_l0_test") {}
  using TestDriverControl::device;
};

class AssertReport : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.device(AG_BACKEND_LEVEL_ZERO);
    ASSERT_NE(nullptr, device);
    ASSERT_AG(agStreamCreate(device, 0, &stream));
    ASSERT_AG(agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                               &module));
    void* variable = nullptr;
    size_t bytes = 0;
    ASSERT_AG(agModuleGetGlobal(module, "__anygpu_assert_report", &variable, &bytes));
    ASSERT_EQ(sizeof(void*), bytes);
    ASSERT_AG(agMemcpyDtoH(device, &word, variable, sizeof word));
    ASSERT_NE(nullptr, word) << "the backend did not point the module's report at a word";
    EXPECT_EQ(0u, *word);
  }
  void TearDown() override {
    if (module) {
      EXPECT_AG(agModuleUnload(module));
    }
    if (stream) {
      EXPECT_AG(agStreamDestroy(stream));
    }
  }
  // What a SPIR-V kernel's failed assert at `line` does.
  void fail_assertion(unsigned int line) { __atomic_store_n(word, line, __ATOMIC_RELEASE); }

  LevelZeroDriver driver;
  ag_device device = nullptr;
  ag_stream stream = nullptr;
  ag_module module = nullptr;
  unsigned int* word = nullptr;
};

TEST_F(AssertReport, TheNextStreamSynchronizeFailsOnceAndNamesTheLine) {
  EXPECT_AG(agStreamSynchronize(stream));
  fail_assertion(42);
  EXPECT_EQ(AG_ERROR_LAUNCH_FAILED, agStreamSynchronize(stream));
  EXPECT_NE(std::string::npos, last_detail().find("failed an assertion (at line 42"))
      << last_detail();
  EXPECT_NE(std::string::npos, last_detail().find("agStreamSynchronize")) << last_detail();
  EXPECT_EQ(0u, *word);
  EXPECT_AG(agStreamSynchronize(stream));  // reported once, as the CPU device's failed launch
}

TEST_F(AssertReport, EveryWaitReportsIt) {
  fail_assertion(7);
  EXPECT_EQ(AG_ERROR_LAUNCH_FAILED, agDeviceSynchronize(device));
  fail_assertion(7);
  EXPECT_EQ(AG_ERROR_LAUNCH_FAILED, agStreamQuery(stream));
  fail_assertion(7);
  int value = 0;
  void* buffer = nullptr;
  ASSERT_AG(agMemAlloc(device, sizeof value, &buffer));
  EXPECT_EQ(AG_ERROR_LAUNCH_FAILED, agMemcpyHtoD(device, buffer, &value, sizeof value));
  fail_assertion(7);
  ag_event event = nullptr;
  ASSERT_AG(agEventCreate(device, 0, &event));
  ASSERT_AG(agEventRecord(event, stream));
  EXPECT_EQ(AG_ERROR_LAUNCH_FAILED, agEventSynchronize(event));
  EXPECT_AG(agEventDestroy(event));
  EXPECT_AG(agMemFree(device, buffer));
  EXPECT_AG(agDeviceSynchronize(device));
}

TEST_F(AssertReport, AnUnloadLeavesTheReportToTheNextWaitAndStillUnloads) {
  fail_assertion(3);
  EXPECT_AG(agModuleUnload(module));
  module = nullptr;
  EXPECT_AG(agStreamSynchronize(stream));  // the module, and its word, are gone
}

}  // namespace
}  // namespace anygpu_test
