// A kernel the barrier pass leaves on fibers (an indirect call) has no loops in its descriptor
// and still runs correctly, barrier included.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>

#include <anygpu/kernel_host_abi.h>

#include "anygpu_image_barrier_pass_rejected.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

TEST(BarrierPassRejected, KeepsTheFiberPathAndRunsCorrectly) {
  void* handle = dlopen(ANYGPU_TEST_REJECTED_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(nullptr, handle) << dlerror();
  auto describe = reinterpret_cast<const agk_kernel_desc* (*)()>(
      dlsym(handle, AGK_KERNEL_SYMBOL_PREFIX "indirect_call"));
  ASSERT_NE(nullptr, describe);
  EXPECT_EQ(nullptr, describe()->run_blocks_wi);

  ag_module module = nullptr;
  ASSERT_EQ(AG_SUCCESS, agModuleLoadData(cpu_device(), anygpu_image_barrier_pass_rejected,
                                         anygpu_image_barrier_pass_rejected_size, &module))
      << last_detail();
  ag_function kernel = nullptr;
  ASSERT_EQ(AG_SUCCESS, agModuleGetFunction(module, "indirect_call", &kernel)) << last_detail();
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
  EXPECT_EQ(AG_SUCCESS, agModuleUnload(module));
}

// Some threads return before the barrier: the same results through the loops and fibers.
TEST(BarrierPassEdges, ThreadsThatReturnBeforeABarrier) {
  for (const char* loops : {"1", "0"}) {
    setenv("ANYGPU_CPU_WORKITEM_LOOPS", loops, 1);
    ag_module module = nullptr;
    ASSERT_EQ(AG_SUCCESS, agModuleLoadData(cpu_device(), anygpu_image_barrier_pass_rejected,
                                           anygpu_image_barrier_pass_rejected_size, &module))
        << last_detail();
    ag_function kernel = nullptr;
    ASSERT_EQ(AG_SUCCESS, agModuleGetFunction(module, "early_return", &kernel)) << last_detail();
    unsetenv("ANYGPU_CPU_WORKITEM_LOOPS");
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
    EXPECT_EQ(AG_SUCCESS, agModuleUnload(module));
  }
#ifdef ANYGPU_TEST_BARRIER_PASS
  void* handle = dlopen(ANYGPU_TEST_REJECTED_PATH, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(nullptr, handle) << dlerror();
  auto describe = reinterpret_cast<const agk_kernel_desc* (*)()>(
      dlsym(handle, AGK_KERNEL_SYMBOL_PREFIX "early_return"));
  ASSERT_NE(nullptr, describe);
  EXPECT_NE(nullptr, describe()->run_blocks_wi);
#endif
}

}  // namespace
