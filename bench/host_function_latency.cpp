// Host functions on a CPU-device stream (agLaunchHostFunc): `kFunctions` functions queued back to
// back, then one agStreamSynchronize, per timed iteration.
//   host_func/cpu  reported: per_call (seconds per queued function, queueing and running)
//                      and gap_us, the median time from one function to the next starting
#include "bench_support.h"
#include "host_function_probe.h"

namespace anygpu_bench {
namespace {

constexpr size_t kFunctions = 1000;

void host_function(benchmark::State& state) {
  ag_stream stream = runtime_stream(state);
  if (!stream) return;
  HostFunctionProbe probe(kFunctions);
  double gap_sum = 0;
  for (auto _ : state) {
    probe.reset();
    ag_result result = AG_SUCCESS;
    for (size_t i = 0; i < kFunctions && result == AG_SUCCESS; ++i)
      result = agLaunchHostFunc(stream, &HostFunctionProbe::stamp, &probe);
    if (result == AG_SUCCESS) result = agStreamSynchronize(stream);
    if (!succeeded(state, result, "agLaunchHostFunc and agStreamSynchronize")) break;
    if (!probe.complete()) {
      state.SkipWithError("the host functions did not each run once, in order");
      break;
    }
    gap_sum += probe.median_gap_ns();
  }
  succeeded(state, agStreamDestroy(stream), "agStreamDestroy");
  state.counters["per_call"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * kFunctions,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  if (state.iterations()) state.counters["gap_us"] = gap_sum / state.iterations() / 1000.0;
}

BENCHMARK(host_function)->Name("host_func/cpu")->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace anygpu_bench
