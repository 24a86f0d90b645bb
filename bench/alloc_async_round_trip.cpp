// Stream-ordered allocation on a CPU-device stream: `kRoundTrips` agMemAllocAsync + agMemFreeAsync
// of 64 KiB on one stream, then one agStreamSynchronize, per timed iteration; beside it the same
// round trips through malloc and free. Before timing, the pool's block is filled on the stream and
// read back, and the next allocation must get the same block (the pool reuses it).
//   alloc_async/cpu     reported: per_round_trip (allocate + free)
//   alloc_async/malloc  the same with malloc + free
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench_support.h"

namespace anygpu_bench {
namespace {

constexpr size_t kRoundTrips = 10000;
constexpr size_t kBytes = 64 << 10;

void report(benchmark::State& state) {
  state.counters["per_round_trip"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kRoundTrips,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The pool hands out usable memory and the freed block again; false (the benchmark skipped) if not.
bool pool_works(benchmark::State& state, ag_stream stream) {
  void* first = nullptr;
  void* again = nullptr;
  std::vector<unsigned char> back(kBytes, 0);
  if (!succeeded(state, agMemAllocAsync(&first, kBytes, stream), "agMemAllocAsync") ||
      !succeeded(state, agMemsetD8Async(first, 0x5a, kBytes, stream), "agMemsetD8Async") ||
      !succeeded(state, agMemcpyDtoHAsync(back.data(), first, kBytes, stream),
                 "agMemcpyDtoHAsync") ||
      !succeeded(state, agMemFreeAsync(first, stream), "agMemFreeAsync") ||
      !succeeded(state, agMemAllocAsync(&again, kBytes, stream), "agMemAllocAsync") ||
      !succeeded(state, agMemFreeAsync(again, stream), "agMemFreeAsync") ||
      !succeeded(state, agStreamSynchronize(stream), "agStreamSynchronize"))
    return false;
  if (back != std::vector<unsigned char>(kBytes, 0x5a) || again != first) {
    state.SkipWithError("the pool's memory did not hold the fill, or the block was not reused");
    return false;
  }
  return true;
}

void alloc_async_cpu(benchmark::State& state) {
  ag_stream stream = runtime_stream(state);
  if (!stream) return;
  if (pool_works(state, stream)) {
    for (auto _ : state) {
      ag_result result = AG_SUCCESS;
      for (size_t i = 0; i < kRoundTrips && result == AG_SUCCESS; ++i) {
        void* p = nullptr;
        result = agMemAllocAsync(&p, kBytes, stream);
        if (result == AG_SUCCESS) result = agMemFreeAsync(p, stream);
      }
      if (result == AG_SUCCESS) result = agStreamSynchronize(stream);
      if (!succeeded(state, result, "agMemAllocAsync, agMemFreeAsync, agStreamSynchronize")) break;
    }
  }
  succeeded(state, agStreamDestroy(stream), "agStreamDestroy");
  report(state);
}

void alloc_malloc(benchmark::State& state) {
  for (auto _ : state) {
    for (size_t i = 0; i < kRoundTrips; ++i) {
      void* p = malloc(kBytes);
      benchmark::DoNotOptimize(p);
      free(p);
    }
  }
  report(state);
}

BENCHMARK(alloc_async_cpu)->Name("alloc_async/cpu")->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(alloc_malloc)->Name("alloc_async/malloc")->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace anygpu_bench
