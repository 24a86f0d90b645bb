// Launch latency on the HIP device: the `empty` kernel (grid 1, block 1), `launches` launches
// queued on one non-blocking stream, then one synchronize, per timed iteration.
//   hip_launch/anygpu  agLaunchKernel + agStreamSynchronize
//   hip_launch/direct  hipModuleLaunchKernel + hipStreamSynchronize, same runtime, same code object
// Reported: time per iteration and `per_launch` (seconds per launch).
#include "hip_support.h"

namespace anygpu_hip_bench {
namespace {

enum class Side { anygpu, direct };

void run_anygpu(benchmark::State& state, int launches) {
  const HipRuntime& r = hip_runtime();
  ag_function kernel = nullptr;
  ag_stream stream = nullptr;
  if (!ag_ok(state, agModuleGetFunction(r.kernels, "empty", &kernel), "agModuleGetFunction") ||
      !ag_ok(state, agStreamCreate(r.device, 0, &stream), "agStreamCreate"))
    return;
  void* params[1] = {nullptr};  // the kernel takes none
  // One launch first, so that lazy loading inside the runtime is not timed.
  bool ok = ag_ok(state, agLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr),
                  "agLaunchKernel") &&
            ag_ok(state, agStreamSynchronize(stream), "agStreamSynchronize");
  ag_result failed = AG_SUCCESS;
  for (auto _ : state) {
    if (!ok) break;
    for (int i = 0; i < launches && failed == AG_SUCCESS; ++i)
      failed = agLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr);
    ok = failed == AG_SUCCESS ? ag_ok(state, agStreamSynchronize(stream), "agStreamSynchronize")
                              : ag_ok(state, failed, "agLaunchKernel");
  }
  agStreamDestroy(stream);
}

void run_direct(benchmark::State& state, int launches) {
  const HipRuntime& r = hip_runtime();
  const hip::HipFunctions& fn = r.fn;
  hip::hipFunction_t kernel = nullptr;
  hip::hipStream_t stream = nullptr;
  if (!hip_ok(state, fn.hipModuleGetFunction(&kernel, r.hip_kernels, "empty"),
              "hipModuleGetFunction") ||
      !hip_ok(state, fn.hipStreamCreateWithFlags(&stream, hip::hipStreamNonBlocking),
              "hipStreamCreateWithFlags"))
    return;
  void* params[1] = {nullptr};
  bool ok =
      hip_ok(state, fn.hipModuleLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr),
             "hipModuleLaunchKernel") &&
      hip_ok(state, fn.hipStreamSynchronize(stream), "hipStreamSynchronize");
  hip::hipError_t failed = hip::hipSuccess;
  for (auto _ : state) {
    if (!ok) break;
    for (int i = 0; i < launches && failed == hip::hipSuccess; ++i)
      failed = fn.hipModuleLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr);
    ok = failed == hip::hipSuccess
             ? hip_ok(state, fn.hipStreamSynchronize(stream), "hipStreamSynchronize")
             : hip_ok(state, failed, "hipModuleLaunchKernel");
  }
  fn.hipStreamDestroy(stream);
}

void hip_launch(benchmark::State& state, Side side) {
  if (!ready(state)) return;
  const int launches = sizes().launches;
  if (side == Side::anygpu)
    run_anygpu(state, launches);
  else
    run_direct(state, launches);
  // A rate, inverted: seconds per launch.
  state.counters["per_launch"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * launches,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK_CAPTURE(hip_launch, anygpu, Side::anygpu)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(hip_launch, direct, Side::direct)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace anygpu_hip_bench
