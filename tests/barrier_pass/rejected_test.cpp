// A kernel the barrier pass leaves on fibers (an indirect call) has no loops in its descriptor
// and still runs correctly, barrier included; kernels at the pass's edges (threads that return
// early, warp functions) give the right results through its loops and through fibers.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

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

// `kernel` has loops, where the build has the pass.
void expect_made_into_loops(const char* kernel) {
#ifdef ANYGPU_TEST_BARRIER_PASS
  const agk_kernel_desc* desc = descriptor(kernel);
  ASSERT_NE(nullptr, desc) << kernel << ": " << dlerror();
  EXPECT_NE(nullptr, desc->run_blocks_wi) << kernel;
#else
  (void)kernel;
#endif
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

// Runs `check(loops, kernel)` with `name` loaded through the pass's loops ("1") and through
// fibers ("0"), as ANYGPU_CPU_WORKITEM_LOOPS chooses when the kernel is looked up.
template <typename Check>
void on_both_paths(const char* name, Check check) {
  for (const char* loops : {"1", "0"}) {
    setenv("ANYGPU_CPU_WORKITEM_LOOPS", loops, 1);
    RejectedImage image;
    ag_function kernel = image.function(name);
    unsetenv("ANYGPU_CPU_WORKITEM_LOOPS");
    ASSERT_NE(nullptr, kernel);
    check(loops, kernel);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

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
  on_both_paths("early_return", [](const char* loops, ag_function kernel) {
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
  });
  expect_made_into_loops("early_return");
}

// Levels guarded by `threadIdx.x < limit` end at the limit in the loops: each thread's result,
// for limits inside the block, past it and negative.
TEST(BarrierPassEdges, GuardedLevelsReachExactlyTheirThreads) {
  on_both_paths("guarded_levels", [](const char* loops, ag_function kernel) {
    for (unsigned block : {1u, 7u, 64u, 256u, 1024u}) {
      for (int mid : {-3, 0, 5, 300, 2000}) {
        int low = mid / 2 - 1;
        const unsigned grid = 3;
        DeviceBuffer<int> data(cpu_device(), std::vector<int>(grid * block, 7));
        void* params[] = {&low, &mid, data.param()};
        ASSERT_EQ(AG_SUCCESS,
                  agLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr))
            << last_detail();
        const std::vector<int> out = data.download();
        for (unsigned i = 0; i < grid * block; ++i) {
          const int t = static_cast<int>(i % block);
          const int expected = 7 + (t < mid ? t : 0) + (t < low ? 1000 : 0) + 1;
          ASSERT_EQ(expected, out[i]) << "loops " << loops << ", block size " << block
                                      << ", limits " << low << " and " << mid << ", index " << i;
        }
      }
    }
  });
  expect_made_into_loops("guarded_levels");
}

// Runs a kernel(int n, const int* values, int* sums) over `grid` blocks of `block` threads and
// returns `sums`, one per thread; empty (with the failure recorded) when the launch fails.
std::vector<int> strided_sums(ag_function kernel, unsigned grid, unsigned block,
                              const std::vector<int>& values) {
  int n = static_cast<int>(values.size());
  DeviceBuffer<int> in(cpu_device(), values), sums(cpu_device(), grid * block);
  void* params[] = {&n, in.param(), sums.param()};
  const ag_result launched =
      agLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr);
  EXPECT_EQ(AG_SUCCESS, launched) << last_detail();
  return launched == AG_SUCCESS ? sums.download() : std::vector<int>{};
}

// Thread `id`'s sum over a grid of `threads`: every value of its stride.
int thread_sum(const std::vector<int>& values, unsigned id, unsigned threads) {
  int sum = 0;
  for (size_t i = id; i < values.size(); i += threads) sum += values[i];
  return sum;
}

// A grid-stride loop runs a step at a time for all threads in the loops: each thread's sum.
TEST(BarrierPassEdges, GridStrideLoopSums) {
  on_both_paths("strided_sums", [](const char* loops, ag_function kernel) {
    std::vector<int> values(5003);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i * 13 % 101) - 50;
    for (unsigned block : {1u, 7u, 64u, 256u, 1024u}) {
      const unsigned grid = 3, threads = grid * block;
      const std::vector<int> out = strided_sums(kernel, grid, block, values);
      ASSERT_EQ(threads, out.size());
      for (unsigned id = 0; id < threads; ++id)
        ASSERT_EQ(thread_sum(values, id, threads), out[id])
            << "loops " << loops << ", block size " << block << ", thread " << id;
    }
  });
  expect_made_into_loops("strided_sums");
}

// A grid-stride loop before warp functions: each warp's total of its threads' strided sums.
TEST(BarrierPassEdges, GridStrideLoopBeforeAWarpReduction) {
  on_both_paths("strided_warp_sums", [](const char* loops, ag_function kernel) {
    std::vector<int> values(7001);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i * 17 % 89) - 40;
    for (unsigned block : {32u, 96u, 256u, 1024u}) {
      const unsigned grid = 3, threads = grid * block;
      const std::vector<int> out = strided_sums(kernel, grid, block, values);
      ASSERT_EQ(threads, out.size());
      for (unsigned warp = 0; warp < threads / 32; ++warp) {
        int expected = 0;
        for (unsigned id = warp * 32; id < warp * 32 + 32; ++id)
          expected += thread_sum(values, id, threads);
        for (unsigned id = warp * 32; id < warp * 32 + 32; ++id)
          ASSERT_EQ(expected, out[id])
              << "loops " << loops << ", block size " << block << ", thread " << id;
      }
    }
  });
  expect_made_into_loops("strided_warp_sums");
}

// Float sums whose value depends on the order of the additions (large and small terms mixed):
// bit for bit the host's in-order sum, through the loops and fibers, whatever the vector width.
TEST(BarrierPassEdges, RowSumsAddInOrder) {
  on_both_paths("ordered_row_sums", [](const char* loops, ag_function kernel) {
    const unsigned grid = 2, block = 64;
    int columns = 999;
    std::vector<float> values(size_t{grid} * block * columns);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = (i % 7 == 0 ? 3.0e7f : 1.0f) * (i % 2 ? -1.0f : 1.0f) + 0.013f * (i % 97);
    DeviceBuffer<float> data(cpu_device(), values), sums(cpu_device(), grid * block);
    void* params[] = {&columns, data.param(), sums.param()};
    ASSERT_EQ(AG_SUCCESS,
              agLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr))
        << last_detail();
    const std::vector<float> out = sums.download();
    int reordered = 0;  // rows whose pairwise sum differs: the check can tell orders apart
    for (unsigned row = 0; row < grid * block; ++row) {
      const float* v = &values[size_t{row} * columns];
      volatile float in_order = 0.0f, pairwise_even = 0.0f, pairwise_odd = 0.0f;
      for (int j = 0; j < columns; ++j) {
        in_order = in_order + v[j] * 0.5f;
        (j % 2 ? pairwise_odd : pairwise_even) =
            (j % 2 ? pairwise_odd : pairwise_even) + v[j] * 0.5f;
      }
      reordered += pairwise_even + pairwise_odd != in_order;
      ASSERT_EQ(in_order, out[row]) << "loops " << loops << ", row " << row;
    }
    EXPECT_GT(reordered, 0);
  });
  expect_made_into_loops("ordered_row_sums");
}

// Warp functions split the loops as barriers do: each warp's sum, through the loops and fibers.
TEST(BarrierPassEdges, WarpFunctionsRunInTheLoops) {
  on_both_paths("warp_sums", [](const char* loops, ag_function kernel) {
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
        ASSERT_EQ(sum, out[warp * 32 + lane]) << "loops " << loops << ", warp " << warp;
    }
  });
  expect_made_into_loops("warp_sums");
}

// Lanes that returned before a warp function take no part in it: the ballot has only the bits of
// the lanes still running, through the loops and through fibers.
TEST(BarrierPassEdges, LanesThatReturnedTakeNoPartInAWarpFunction) {
  on_both_paths("ballot_after_return", [](const char* loops, ag_function kernel) {
    for (int n : {1, 31, 40, 64}) {
      const unsigned block = 64;
      DeviceBuffer<unsigned long long> votes(cpu_device(),
                                             std::vector<unsigned long long>(block, 7));
      void* params[] = {&n, votes.param()};
      ASSERT_EQ(AG_SUCCESS,
                agLaunchKernel(kernel, 1, 1, 1, block, 1, 1, 0, nullptr, params, nullptr))
          << last_detail();
      const std::vector<unsigned long long> out = votes.download();
      for (unsigned t = 0; t < block; ++t) {
        unsigned long long expected = 7;  // untouched
        if (static_cast<int>(t) < n) {
          expected = 0;
          for (unsigned lane = 0; lane < 32; ++lane) {
            const unsigned other = t - t % 32 + lane;
            if (static_cast<int>(other) < n && other % 3 == 0) expected |= 1ull << lane;
          }
        }
        ASSERT_EQ(expected, out[t]) << "loops " << loops << ", n " << n << ", thread " << t;
      }
    }
  });
}

// Lanes of one warp meet in different warp functions first: each gets its warp's lane 31 after
// that lane's own shuffle. Through the loops only: the fiber path matches a warp's lanes by
// arrival, not by call site, and gives 63 (docs/kernel-dialect.md, Warp functions).
TEST(BarrierPassEdges, WarpFunctionsWaitForTheirOwnLanes) {
#ifndef ANYGPU_TEST_BARRIER_PASS
  GTEST_SKIP() << "this build has no barrier pass (ANYGPU_CPU_BARRIER_PASS is off): the kernel "
                  "runs on fibers, which match lanes by arrival";
#else
  RejectedImage image;
  ag_function kernel = image.function("shuffles_apart");
  ASSERT_NE(nullptr, kernel);
  DeviceBuffer<int> out(cpu_device(), std::vector<int>(64, -1));
  void* params[] = {out.param()};
  ASSERT_EQ(AG_SUCCESS, agLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr))
      << last_detail();
  const std::vector<int> got = out.download();
  for (unsigned t = 0; t < 64; ++t) ASSERT_EQ(t < 32 ? 31 : 63 + 62, got[t]) << "thread " << t;
  expect_made_into_loops("shuffles_apart");
#endif
}

// Odd and even lanes vote apart inside a loop: each thread counts the votes of its own half of
// the warp in every step.
TEST(BarrierPassEdges, HalvesOfAWarpVotingApartInALoop) {
  on_both_paths("votes_apart_in_a_loop", [](const char* loops, ag_function kernel) {
    int n = 5;
    const unsigned block = 96;
    DeviceBuffer<int> out(cpu_device(), std::vector<int>(block, -1));
    void* params[] = {&n, out.param()};
    ASSERT_EQ(AG_SUCCESS, agLaunchKernel(kernel, 1, 1, 1, block, 1, 1, 0, nullptr, params, nullptr))
        << last_detail();
    const std::vector<int> got = out.download();
    for (unsigned t = 0; t < block; ++t) {
      int expected = 0;
      for (int i = 0; i < n; ++i)
        for (unsigned other = t - t % 32; other < t - t % 32 + 32; ++other)
          expected += other % 2 == t % 2 && (other + i) % 3 == 0;
      ASSERT_EQ(expected, got[t]) << "loops " << loops << ", thread " << t;
    }
  });
  expect_made_into_loops("votes_apart_in_a_loop");
}

// Dynamic shared memory (extern __shared__) read back mirrored, over block sizes that leave the
// vector loops a tail: the same results through the loops and fibers.
TEST(BarrierPassEdges, ExternSharedArrayMirrors) {
  on_both_paths("staged_mirror", [](const char* loops, ag_function kernel) {
    for (unsigned block : {1u, 13u, 64u, 100u, 1024u}) {
      const unsigned grid = 3;
      std::vector<float> values(grid * block);
      for (size_t i = 0; i < values.size(); ++i) values[i] = 0.25f * static_cast<float>(i) - 7.0f;
      DeviceBuffer<float> in(cpu_device(), values), out(cpu_device(), grid * block);
      void* params[] = {in.param(), out.param()};
      ASSERT_EQ(AG_SUCCESS, agLaunchKernel(kernel, grid, 1, 1, block, 1, 1, block * sizeof(float),
                                           nullptr, params, nullptr))
          << last_detail();
      const std::vector<float> got = out.download();
      for (unsigned b = 0; b < grid; ++b)
        for (unsigned t = 0; t < block; ++t)
          ASSERT_EQ(3.0f * values[b * block + block - 1 - t], got[b * block + t])
              << "loops " << loops << ", block size " << block << ", block " << b << ", thread "
              << t;
    }
  });
  expect_made_into_loops("staged_mirror");
}

// Exchanges of 32-bit and 64-bit values in one kernel: each value arrives whole from the next
// lane, through the loops (4-byte slots for the int, 8-byte ones for the others) and fibers.
TEST(BarrierPassEdges, ExchangesOfEachWidthRotateWholeValues) {
  on_both_paths("rotated_widths", [](const char* loops, ag_function kernel) {
    const unsigned grid = 2, block = 96, n = grid * block;
    std::vector<int> narrow(n);
    std::vector<long long> wide(n);
    std::vector<double> real(n);
    for (unsigned i = 0; i < n; ++i) {
      narrow[i] = -static_cast<int>(i) * 7919;
      wide[i] = (static_cast<long long>(i + 1) << 37) - static_cast<long long>(i);
      real[i] = i + 1.0 / 3.0;
    }
    DeviceBuffer<int> narrow_data(cpu_device(), narrow);
    DeviceBuffer<long long> wide_data(cpu_device(), wide);
    DeviceBuffer<double> real_data(cpu_device(), real);
    void* params[] = {narrow_data.param(), wide_data.param(), real_data.param()};
    ASSERT_EQ(AG_SUCCESS,
              agLaunchKernel(kernel, grid, 1, 1, block, 1, 1, 0, nullptr, params, nullptr))
        << last_detail();
    const std::vector<int> got_narrow = narrow_data.download();
    const std::vector<long long> got_wide = wide_data.download();
    const std::vector<double> got_real = real_data.download();
    for (unsigned i = 0; i < n; ++i) {
      const unsigned from = i - i % 32 + (i + 1) % 32;
      ASSERT_EQ(narrow[from], got_narrow[i]) << "loops " << loops << ", thread " << i;
      ASSERT_EQ(wide[from], got_wide[i]) << "loops " << loops << ", thread " << i;
      ASSERT_EQ(real[from], got_real[i]) << "loops " << loops << ", thread " << i;
    }
  });
  expect_made_into_loops("rotated_widths");
}

}  // namespace
