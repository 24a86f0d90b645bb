// Launch latency: the `empty` kernel on a grid of one block of one thread, timed per launch.
//   launch_empty/sync        agLaunchKernel with a NULL stream (returns when the kernel has run)
//   launch_empty/stream      agLaunchKernel on a stream, then agStreamSynchronize, every iteration
//   launch_empty/two_blocks  as sync with two blocks: the pool's submitter and one worker run it
//                            (compare with ANYGPU_CPU_THREADS larger than 2: no other wakes up)
#include "bench_support.h"

namespace anygpu_bench {
namespace {

void launch_empty(benchmark::State& state, bool on_stream, unsigned blocks) {
  ag_function kernel = find_kernel(state, "empty");
  if (!kernel) return;
  ag_stream stream = nullptr;
  if (on_stream &&
      !succeeded(state, agStreamCreate(runtime().device, 0, &stream), "agStreamCreate"))
    return;
  for (auto _ : state) {
    ag_result result = launch(kernel, {blocks, 1, 1}, {}, stream);
    if (result == AG_SUCCESS && stream) result = agStreamSynchronize(stream);
    if (!succeeded(state, result, on_stream ? "launch and agStreamSynchronize" : "agLaunchKernel"))
      break;
  }
  if (stream) succeeded(state, agStreamDestroy(stream), "agStreamDestroy");
  state.SetItemsProcessed(state.iterations());  // items_per_second = launches per second
}

BENCHMARK_CAPTURE(launch_empty, sync, false, 1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(launch_empty, stream, true, 1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(launch_empty, two_blocks, false, 2)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace anygpu_bench
