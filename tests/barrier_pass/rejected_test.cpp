// A kernel the barrier pass leaves on fibers (an indirect call) has no loops in its descriptor
// and still runs correctly, barrier included.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include <anygpu/kernel_host_abi.h>

#include "anygpu_image_barrier_pass_rejected.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

// The descriptor of `kernel` in the image's host code object, or nullptr.
const agk_kernel_desc* descriptor(const char* kernel) {
  static void* handle = dlopen(ANYGPU_TEST_REJECTED_PATH, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return nullptr;
  auto describe = reinterpret_cast<const agk_kernel_desc* (*)()>(
      dlsym(handle, (std::string(AGK_KERNEL_SYMBOL_PREFIX) + kernel).c_str()));
  return describe ? describe() : nullptr;
}

// `kernel` has no loops: the pass left it on fibers.
void expect_left_on_fibers(const char* kernel) {
  const agk_kernel_desc* desc = descriptor(kernel);
  ASSERT_NE(nullptr, desc) << kernel << ": " << dlerror();
  EXPECT_EQ(nullptr, desc->run_blocks_wi) << kernel;
}

// The image loaded into the CPU device, and its kernel `name`.
struct RejectedImage {
  RejectedImage() {
    EXPECT_EQ(AG_SUCCESS, agModuleLoadData(cpu_device(), anygpu_image_barrier_pass_rejected,
                                           anygpu_image_barrier_pass_rejected_size, &module))
        << last_detail();
  }
  ~RejectedImage() { EXPECT_EQ(AG_SUCCESS, agModuleUnload(module)); }
  ag_function function(const char* name) const {
    ag_function kernel = nullptr;
    EXPECT_EQ(AG_SUCCESS, agModuleGetFunction(module, name, &kernel)) << last_detail();
    return kernel;
  }
  ag_module module = nullptr;
};

TEST(BarrierPassRejected, KeepsTheFiberPathAndRunsCorrectly) {
  expect_left_on_fibers("indirect_call");
  RejectedImage image;
  ag_function kernel = image.function("indirect_call");
  ASSERT_NE(nullptr, kernel);
  for (unsigned block : {1u, 7u, 64u, 1024u}) {
    const unsigned grid = 3;
    std::vector<int> values(grid * block);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i);
    DeviceBuffer<int> data(cpu_device(), values);
    void* params[] = {data.param()};
    ASSERT_EQ(AG_SUCCESS,
              agLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr))
        << last_detail();
    const std::vector<int> out = data.download();
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned t = 0; t < block; ++t)
        ASSERT_EQ(2 * values[b * block + block - 1 - t], out[b * block + t])
            << "block size " << block << ", block " << b << ", thread " << t;
  }
}

// Some threads return before the barrier: the same results through the loops and fibers.
TEST(BarrierPassEdges, ThreadsThatReturnBeforeABarrier) {
  for (const char* loops : {"1", "0"}) {
    setenv("ANYGPU_CPU_WORKITEM_LOOPS", loops, 1);
    RejectedImage image;
    ag_function kernel = image.function("early_return");
    unsetenv("ANYGPU_CPU_WORKITEM_LOOPS");
    ASSERT_NE(nullptr, kernel);
    for (unsigned block : {1u, 7u, 64u, 256u, 1024u}) {
      int n = 3000;
      const unsigned grid = (n + block - 1) / block;
      std::vector<int> values(n);
      for (int i = 0; i < n; ++i) values[i] = i * 3 + 1;
      DeviceBuffer<int> data(cpu_device(), values);
      void* params[] = {&n, data.param()};
      ASSERT_EQ(AG_SUCCESS,
                agLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr))
          << last_detail();
      const std::vector<int> out = data.download();
      for (unsigned b = 0; b < grid; ++b) {
        const unsigned base = b * block, count = std::min<unsigned>(block, n - base);
        for (unsigned t = 0; t < count; ++t)
          ASSERT_EQ(values[base + count - 1 - t], out[base + t])
              << "loops " << loops << ", block size " << block << ", block " << b;
      }
    }
  }
#ifdef ANYGPU_TEST_BARRIER_PASS
  const agk_kernel_desc* desc = descriptor("early_return");
  ASSERT_NE(nullptr, desc) << dlerror();
  EXPECT_NE(nullptr, desc->run_blocks_wi);
#endif
}

// A kernel with warp functions stays on fibers (the build says why) and gives each warp's sum.
TEST(BarrierPassRejected, WarpFunctionsKeepTheFiberPath) {
  expect_left_on_fibers("warp_sums");
  RejectedImage image;
  ag_function kernel = image.function("warp_sums");
  ASSERT_NE(nullptr, kernel);
  const unsigned grid = 3, block = 128;
  std::vector<int> values(grid * block);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i % 7) - 2;
  DeviceBuffer<int> data(cpu_device(), values);
  void* params[] = {data.param()};
  ASSERT_EQ(AG_SUCCESS,
            agLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr))
      << last_detail();
  const std::vector<int> out = data.download();
  for (size_t warp = 0; warp < values.size() / 32; ++warp) {
    int sum = 0;
    for (size_t lane = 0; lane < 32; ++lane) sum += values[warp * 32 + lane];
    for (size_t lane = 0; lane < 32; ++lane)
      ASSERT_EQ(sum, out[warp * 32 + lane]) << "warp " << warp << ", lane " << lane;
  }
}

}  // namespace
