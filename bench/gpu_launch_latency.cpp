// Launch latency on the vendor's device: the `empty` kernel (grid 1, block 1), `launches` launches
// queued on one non-blocking stream, then one synchronize, per timed iteration.
//   <prefix>_launch/anygpu  agLaunchKernel + agStreamSynchronize
//   <prefix>_launch/direct  the vendor's launch + stream synchronize (cuLaunchKernel +
//                           cuStreamSynchronize, hipModuleLaunchKernel + hipStreamSynchronize),
//                           same driver or runtime, same code object
// Reported: time per iteration and `per_launch` (seconds per launch).
#include <string>

#include "gpu_support.h"

namespace anygpu_bench {
namespace {

void run(benchmark::State& state, const GpuApi& api, int launches) {
  void* kernel = nullptr;
  void* stream = nullptr;
  if (!api.get_function(state, "empty", &kernel) || !api.stream_create(state, &stream)) return;
  void* params[1] = {nullptr};  // the kernel takes none
  // One launch first, so that lazy loading inside the driver or runtime is not timed.
  bool ok =
      api.launch_single(state, kernel, stream, params) && api.stream_synchronize(state, stream);
  for (auto _ : state) {
    if (!ok) break;
    for (int i = 0; i < launches && ok; ++i) ok = api.launch_single(state, kernel, stream, params);
    ok = ok && api.stream_synchronize(state, stream);
  }
  api.stream_destroy(stream);
}

void gpu_launch(benchmark::State& state, const Vendor* vendor, Side side) {
  const GpuApi* api = vendor->ready(state, side);
  if (!api) return;
  const int launches = sizes().launches;
  run(state, *api, launches);
  // A rate, inverted: seconds per launch.
  state.counters["per_launch"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * launches,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

void register_launch_latency(const Vendor& vendor) {
  for (Side side : {Side::anygpu, Side::direct}) {
    const std::string name =
        std::string(vendor.prefix()) + (side == Side::anygpu ? "_launch/anygpu" : "_launch/direct");
    benchmark::RegisterBenchmark(name.c_str(), gpu_launch, &vendor, side)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace anygpu_bench
