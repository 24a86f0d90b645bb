// The CUDA backend through the test driver (two devices): what it reports, how it treats the
// application's current context, and what a failed PTX compile tells the user.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuda_driver_access.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

using anygpu::cuda::CUcontext;

class CudaBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.cuda_device(0);
    ASSERT_NE(nullptr, device) << "no CUDA device from the test driver";
  }
  CudaDriverAccess driver;
  ag_device device = nullptr;
};

TEST_F(CudaBackendTest, DevicesCarryTheDriversProperties) {
  for (int index = 0; index < 2; ++index) {
    ag_device_properties p{};
    p.struct_size = sizeof p;
    ASSERT_NE(nullptr, driver.cuda_device(index));
    ASSERT_AG(agDeviceGetProperties(driver.cuda_device(index), &p));
    EXPECT_EQ(AG_BACKEND_CUDA, p.backend);
    EXPECT_EQ("anygpu CUDA test device " + std::to_string(index), p.name);
    EXPECT_STREQ("NVIDIA", p.vendor);
    EXPECT_STREQ("sm_90", p.architecture);
    EXPECT_EQ(32, p.warp_size);
    EXPECT_EQ(132, p.compute_units);
    EXPECT_EQ(1024, p.max_threads_per_block);
    EXPECT_EQ(64, p.max_block_dim[2]);
    EXPECT_EQ(48u * 1024, p.shared_memory_per_block);
    EXPECT_GT(p.total_memory, 0u);
    // The fields appended to the first version: the driver's attributes, UUID and version.
    EXPECT_EQ(9, p.compute_capability_major);
    EXPECT_EQ(0, p.compute_capability_minor);
    EXPECT_EQ(0x1b, p.pci_bus_id);
    EXPECT_EQ(0, p.pci_domain_id);
    EXPECT_EQ(1980000, p.clock_rate_khz);
    EXPECT_EQ(6144, p.memory_bus_width_bits);
    EXPECT_EQ(65536, p.registers_per_block);
    EXPECT_EQ(227u * 1024, p.shared_memory_per_block_optin);
    EXPECT_EQ(uint64_t{60} << 20, p.l2_cache_bytes);
    EXPECT_EQ(1, p.managed_memory);
    EXPECT_EQ(1, p.concurrent_managed_access);
    EXPECT_EQ(1, p.stream_ordered_allocation);
    EXPECT_EQ(1, p.host_functions);
    EXPECT_GE(p.driver_version, 11000);
    EXPECT_EQ(0, memcmp(p.uuid, "anygpu-test-", 12));
    EXPECT_EQ(index, static_cast<int>(p.uuid[12]));
  }
  EXPECT_EQ(nullptr, driver.cuda_device(2));
}

TEST_F(CudaBackendTest, TheApplicationsCurrentContextIsLeftAlone) {
  // The application works with device 1's primary context on this thread.
  CUcontext own = driver.retain_primary_context(1);
  ASSERT_NE(nullptr, own);
  driver.set_current_context(own);
  void* pointer = nullptr;
  ASSERT_AG(agMemAlloc(device, 4096, &pointer));  // device 0: its own context, pushed and popped
  EXPECT_EQ(own, driver.current_context());
  ASSERT_AG(agMemsetD8(device, pointer, 7, 4096));
  ASSERT_AG(agMemFree(device, pointer));
  EXPECT_EQ(own, driver.current_context());
  driver.set_current_context(nullptr);
  driver.release_primary_context(1);
}

TEST_F(CudaBackendTest, AThreadWithoutAContextGetsThePrimaryOneAndKeepsIt) {
  CUcontext seen_before = reinterpret_cast<CUcontext>(1), seen_after = nullptr;
  std::thread worker([&] {
    seen_before = driver.current_context();
    void* pointer = nullptr;
    EXPECT_AG(agMemAlloc(device, 4096, &pointer));
    EXPECT_AG(agMemFree(device, pointer));
    seen_after = driver.current_context();
  });
  worker.join();
  EXPECT_EQ(nullptr, seen_before);
  CUcontext primary = driver.retain_primary_context(0);
  EXPECT_EQ(primary, seen_after);
  driver.release_primary_context(0);
}

TEST_F(CudaBackendTest, FunctionsGetTheirLayoutFromTheSelectedCodeObject) {
  TestModule module(device);
  expect_saxpy_layout(module.function("saxpy"));
}

// Under lazy loading (the driver's default since CUDA 12.2) a kernel not loaded yet loads at its
// first launch and waits for the whole context there, so a launch queued behind a kernel that
// waits for the host never returned on an H200. anygpu loads every kernel with its module.
TEST_F(CudaBackendTest, EveryKernelIsLoadedWithItsModule) {
  const long enumerations = driver.calls("cuModuleEnumerateFunctions");
  const long loads = driver.calls("cuFuncLoad");
  TestModule module(device);
  EXPECT_EQ(enumerations + 1, driver.calls("cuModuleEnumerateFunctions"));
  // The test kernels' image holds over a hundred kernels.
  EXPECT_GT(driver.calls("cuFuncLoad") - loads, 20) << "the module's kernels were not loaded";

  ag_stream stream = nullptr;
  ASSERT_AG(agStreamCreate(device, 0, &stream));
  DeviceBuffer<int> gate(device, std::vector<int>{0, 0});
  void* flag = gate.get();
  void* done = static_cast<int*>(gate.get()) + 1;
  void* wait_params[] = {&flag, &done};
  ASSERT_AG(agLaunchKernel(module.function("wait_flag"), 1, 1, 1, 1, 1, 1, 0, stream, wait_params,
                           nullptr));
  // Never launched before, queued behind the waiting kernel: returns at once. Should it wait for
  // the waiting kernel instead, a watchdog opens the gate after 10 s and the test fails.
  const int one = 1;
  std::atomic<bool> launched{false}, opened_by_watchdog{false};
  std::thread watchdog([&] {
    for (int waited = 0; waited < 1000 && !launched; ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!launched) {
      opened_by_watchdog = true;
      EXPECT_AG(agMemcpyHtoD(device, gate.get(), &one, sizeof one));
    }
  });
  const ag_function empty = module.function("empty");
  const ag_result launch = agLaunchKernel(empty, 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr);
  launched = true;
  watchdog.join();
  EXPECT_AG(launch);
  EXPECT_FALSE(opened_by_watchdog) << "the launch waited for the kernel ahead of it";
  ASSERT_AG(agMemcpyHtoD(device, gate.get(), &one, sizeof one));
  ASSERT_AG(agStreamSynchronize(stream));
  EXPECT_EQ(1, gate.download()[1]);
  ASSERT_AG(agStreamDestroy(stream));
}

TEST_F(CudaBackendTest, AFailedPtxCompileShowsTheJitLog) {
  // A kernel body cut short: anygpu's PTX reader finds .version, .target and the entry, the
  // driver's compiler finds the syntax error.
  const std::string ptx =
      ".version 7.8\n.target sm_90\n.address_size 64\n\n"
      ".visible .entry broken(\n\t.param .u32 broken_param_0\n)\n{\n\tret;\n";
  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, agModuleLoadData(device, ptx.data(), ptx.size(), &module));
  EXPECT_EQ(nullptr, module);
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX"))
      << detail;
  EXPECT_NE(std::string::npos, detail.find("JIT error log: ")) << detail;
}

TEST_F(CudaBackendTest, PtxNewerThanTheDriverTakesIsNotOffered) {
  // The test driver is CUDA 12.4, whose JIT takes PTX ISA 8.4 at most.
  const std::string ptx =
      ".version 8.5\n.target sm_90\n.address_size 64\n\n"
      ".visible .entry newer()\n{\n\tret;\n}\n";
  ag_module module = nullptr;
  const long loads_before = driver.calls("cuModuleLoadDataEx");
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE,
            agModuleLoadData(device, ptx.data(), ptx.size(), &module));
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("8.4 or older")) << detail;
  EXPECT_EQ(loads_before, driver.calls("cuModuleLoadDataEx")) << "the driver was asked anyway";
}

}  // namespace
}  // namespace anygpu_test
