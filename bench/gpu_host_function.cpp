// Host functions on the vendor's stream: `launches` / 10 functions queued back to back on one
// non-blocking stream, then one synchronize, per timed iteration; each function stamps the time
// it runs (host_function_probe.h), checked for count and order after each iteration.
//   <prefix>_host_func/anygpu  agLaunchHostFunc + agStreamSynchronize
//   <prefix>_host_func/direct  cuLaunchHostFunc, hipStreamAddCallback (Level Zero has no
//                                  such call: not registered)
// Reported: time per iteration, per_call (seconds per function) and gap_us (the median time from
// one function to the next starting).
#include <algorithm>
#include <string>

#include "gpu_support.h"
#include "host_function_probe.h"

namespace anygpu_bench {
namespace {

void gpu_host_function(benchmark::State& state, const Vendor* vendor, Side side) {
  const GpuApi* api = vendor->ready(state, side);
  if (!api) return;
  const size_t functions = std::max(2, sizes().launches / 10);
  void* stream = nullptr;
  if (!api->stream_create(state, &stream)) return;
  HostFunctionProbe probe(functions);
  double gap_sum = 0;
  for (auto _ : state) {
    probe.reset();
    bool ok = true;
    for (size_t i = 0; i < functions && ok; ++i)
      ok = api->launch_host_func(state, stream, &HostFunctionProbe::stamp, &probe);
    if (!ok || !api->stream_synchronize(state, stream)) break;
    if (!probe.complete()) {
      state.SkipWithError("the host functions did not each run once, in order");
      break;
    }
    gap_sum += probe.median_gap_ns();
  }
  api->stream_destroy(stream);
  state.counters["per_call"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * functions,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  if (state.iterations()) state.counters["gap_us"] = gap_sum / state.iterations() / 1000.0;
}

bool has_direct = false;

}  // namespace

bool host_func_has_direct() {
  return has_direct;
}

void register_host_function(const Vendor& vendor, bool direct) {
  has_direct = direct;
  for (Side side : {Side::anygpu, Side::direct}) {
    if (side == Side::direct && !direct) continue;
    const std::string name = std::string(vendor.prefix()) +
                             (side == Side::anygpu ? "_host_func/anygpu" : "_host_func/direct");
    benchmark::RegisterBenchmark(name.c_str(), gpu_host_function, &vendor, side)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace anygpu_bench
