// Many threads using one device at once, each with its own stream, on every device. Run under
// ThreadSanitizer by the tsan preset (label "concurrency").
#include <atomic>
#include <thread>

#include "test_support.h"

using namespace anygpu_test;

namespace {

constexpr int kThreads = 8;

// Runs body(thread_index) on kThreads threads and returns the number of failures they counted.
template <typename Body>
int run_on_threads(Body body) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&, t] { failures += body(t); });
  for (std::thread& thread : threads) thread.join();
  return failures.load();
}

// Every device present, one at a time (the CUDA test driver's devices too, in their program).
class Concurrency : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
};

// The acceptance test: 8 threads x 1,000 iterations of alloc, copy, launch, copy, free.
TEST_P(Concurrency, EightThreadsAllocateCopyLaunchAndFreeOnTheirOwnStreams) {
  TestModule module(device);
  ag_function saxpy = module.function("saxpy");
  const int failures = run_on_threads([&](int t) {
    int bad = 0;
    ag_stream stream;
    if (agStreamCreate(device, 0, &stream) != AG_SUCCESS) return 1000;
    int n = 1000 + t;
    std::vector<float> x(n), y(n), out(n);
    for (int iteration = 0; iteration < 1000; ++iteration) {
      for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i + t);
        y[i] = static_cast<float>(iteration);
      }
      float a = static_cast<float>(t + 1);
      void *dx = nullptr, *dy = nullptr;
      if (agMemAlloc(device, n * sizeof(float), &dx) ||
          agMemAlloc(device, n * sizeof(float), &dy)) {
        ++bad;
        break;
      }
      void* params[] = {&n, &a, &dx, &dy};
      bad += agMemcpyHtoDAsync(dx, x.data(), n * sizeof(float), stream) != AG_SUCCESS;
      bad += agMemcpyHtoDAsync(dy, y.data(), n * sizeof(float), stream) != AG_SUCCESS;
      bad += agLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, params, nullptr) !=
             AG_SUCCESS;
      bad += agMemcpyDtoHAsync(out.data(), dy, n * sizeof(float), stream) != AG_SUCCESS;
      bad += agStreamSynchronize(stream) != AG_SUCCESS;
      for (int i = 0; i < n; ++i) bad += out[i] != a * x[i] + y[i];
      bad += agMemFree(device, dx) != AG_SUCCESS;
      bad += agMemFree(device, dy) != AG_SUCCESS;
    }
    bad += agStreamDestroy(stream) != AG_SUCCESS;
    return bad;
  });
  EXPECT_EQ(0, failures);
}

// Barrier kernels (fibers) from several streams at once: each OS thread runs its own blocks.
TEST_P(Concurrency, BarrierKernelsFromManyStreams) {
  TestModule module(device);
  ag_function reduce = module.function("block_reduce");
  int n = 4096;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 5);
  DeviceBuffer<float> din(device, in);
  const int failures = run_on_threads([&](int t) {
    int bad = 0;
    const unsigned block = 32u << (t % 4);
    const unsigned grid = (n + block - 1) / block;
    ag_stream stream;
    void* out = nullptr;
    if (agStreamCreate(device, 0, &stream) || agMemAlloc(device, grid * sizeof(float), &out))
      return 1;
    std::vector<float> sums(grid);
    for (int iteration = 0; iteration < 50; ++iteration) {
      void* params[] = {&n, din.param(), &out};
      bad +=
          agLaunchKernel(reduce, grid, 1, 1, block, 1, 1, 0, stream, params, nullptr) != AG_SUCCESS;
      bad += agMemcpyDtoHAsync(sums.data(), out, grid * sizeof(float), stream) != AG_SUCCESS;
      bad += agStreamSynchronize(stream) != AG_SUCCESS;
      for (unsigned b = 0; b < grid; ++b) {
        float expected = 0;
        for (unsigned i = b * block; i < (b + 1) * block && i < unsigned(n); ++i) expected += in[i];
        bad += sums[b] != expected;
      }
    }
    bad += agMemFree(device, out) != AG_SUCCESS;
    bad += agStreamDestroy(stream) != AG_SUCCESS;
    return bad;
  });
  EXPECT_EQ(0, failures);
}

// Handles created and destroyed from many threads; stale handles stay invalid.
TEST_P(Concurrency, HandlesCreatedAndDestroyedFromManyThreads) {
  const int failures = run_on_threads([&](int) {
    int bad = 0;
    for (int i = 0; i < 200; ++i) {
      ag_stream stream;
      ag_event event;
      if (agStreamCreate(device, 0, &stream) || agEventCreate(device, 0, &event)) return bad + 1;
      bad += agEventRecord(event, stream) != AG_SUCCESS;
      bad += agEventSynchronize(event) != AG_SUCCESS;
      bad += agEventDestroy(event) != AG_SUCCESS;
      bad += agStreamDestroy(stream) != AG_SUCCESS;
      bad += agStreamQuery(stream) != AG_ERROR_INVALID_HANDLE;
      bad += agEventQuery(event) != AG_ERROR_INVALID_HANDLE;
    }
    return bad;
  });
  EXPECT_EQ(0, failures);
}

// Host functions from many threads: each writes plain memory the queuing thread reads after its
// synchronize (ThreadSanitizer checks that the stream orders them), some queue work on another
// stream from inside, and streams are destroyed with host functions still pending.
TEST_P(Concurrency, HostFunctionsFromManyThreads) {
  struct Tally {
    long calls = 0;  // plain: only the stream's order makes it safe
    ag_stream other = nullptr;
    int* device_word = nullptr;
    int copied = 0;                       // written by a copy the host function queued on `other`
    ag_result queued = AG_ERROR_UNKNOWN;  // what queuing that copy returned
  };
  ag_device_properties p{};
  p.struct_size = sizeof p;
  ASSERT_EQ(AG_SUCCESS, agDeviceGetProperties(device, &p));
  const bool driver_may_refuse = p.backend == AG_BACKEND_CUDA || p.backend == AG_BACKEND_HIP;
  const int failures = run_on_threads([&](int t) {
    int bad = 0;
    ag_stream stream, other;
    if (agStreamCreate(device, 0, &stream) || agStreamCreate(device, 0, &other)) return 1;
    DeviceBuffer<int> word(device, std::vector<int>{t + 7});
    Tally tally;
    tally.other = other;
    tally.device_word = static_cast<int*>(word.get());
    for (int i = 0; i < 100; ++i) {
      bad +=
          agLaunchHostFunc(
              stream, [](void* data) { ++static_cast<Tally*>(data)->calls; }, &tally) != AG_SUCCESS;
    }
    bad += agLaunchHostFunc(
               stream,
               [](void* data) {
                 auto* tally = static_cast<Tally*>(data);
                 tally->queued = agMemcpyDtoHAsync(&tally->copied, tally->device_word, sizeof(int),
                                                   tally->other);
               },
               &tally) != AG_SUCCESS;
    bad += agStreamSynchronize(stream) != AG_SUCCESS;
    bad += agStreamSynchronize(other) != AG_SUCCESS;
    bad += tally.calls != 100;
    // A CUDA or HIP driver may refuse calls into it from a host function (anygpu allows them).
    if (!(driver_may_refuse && tally.queued == AG_ERROR_NOT_PERMITTED)) {
      bad += tally.queued != AG_SUCCESS;
      bad += tally.copied != t + 7;
    }
    // Destroyed with host functions queued: they run first.
    for (int i = 0; i < 50; ++i)
      agLaunchHostFunc(stream, [](void* data) { ++static_cast<Tally*>(data)->calls; }, &tally);
    bad += agStreamDestroy(stream) != AG_SUCCESS;
    bad += tally.calls != 150;
    bad += agStreamDestroy(other) != AG_SUCCESS;
    return bad;
  });
  EXPECT_EQ(0, failures);
}

// Modules loaded, used and unloaded from many threads; lazy initialisation raced by all.
TEST_P(Concurrency, ModulesLoadedFromManyThreads) {
  const int failures = run_on_threads([&](int t) {
    int bad = 0;
    for (int i = 0; i < 10; ++i) {
      ag_module module;
      ag_function function;
      if (agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                           &module))
        return bad + 1;
      bad += agModuleGetFunction(module, "histogram", &function) != AG_SUCCESS;
      int count = 0;
      bad += agFunctionGetParamCount(function, &count) != AG_SUCCESS || count != 4;
      bad += agModuleUnload(module) != AG_SUCCESS;
    }
    return bad;
  });
  EXPECT_EQ(0, failures);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Concurrency, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
