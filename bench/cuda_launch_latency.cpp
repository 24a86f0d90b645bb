// Launch latency on the CUDA device: the `empty` kernel (grid 1, block 1), `launches` launches
// queued on one non-blocking stream, then one synchronize, per timed iteration.
//   cuda_launch/anygpu  agLaunchKernel + agStreamSynchronize
//   cuda_launch/direct  cuLaunchKernel + cuStreamSynchronize, same driver, same code object
// Reported: time per iteration and `per_launch` (seconds per launch).
#include "cuda_support.h"

namespace anygpu_cuda_bench {
namespace {

enum class Side { anygpu, direct };

void run_anygpu(benchmark::State& state, int launches) {
  const CudaRuntime& r = cuda_runtime();
  ag_function kernel = nullptr;
  ag_stream stream = nullptr;
  if (!ag_ok(state, agModuleGetFunction(r.kernels, "empty", &kernel), "agModuleGetFunction") ||
      !ag_ok(state, agStreamCreate(r.device, 0, &stream), "agStreamCreate"))
    return;
  void* params[1] = {nullptr};  // the kernel takes none
  // One launch first, so that lazy loading inside the driver is not timed.
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
  const CudaRuntime& r = cuda_runtime();
  const cuda::CudaFunctions& cu = r.cu;
  cuda::CUfunction kernel = nullptr;
  cuda::CUstream stream = nullptr;
  if (!cu_ok(state, cu.cuModuleGetFunction(&kernel, r.cu_kernels, "empty"),
             "cuModuleGetFunction") ||
      !cu_ok(state, cu.cuStreamCreate(&stream, cuda::CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return;
  void* params[1] = {nullptr};
  bool ok = cu_ok(state, cu.cuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr),
                  "cuLaunchKernel") &&
            cu_ok(state, cu.cuStreamSynchronize(stream), "cuStreamSynchronize");
  cuda::CUresult failed = cuda::CUDA_SUCCESS;
  for (auto _ : state) {
    if (!ok) break;
    for (int i = 0; i < launches && failed == cuda::CUDA_SUCCESS; ++i)
      failed = cu.cuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr);
    ok = failed == cuda::CUDA_SUCCESS
             ? cu_ok(state, cu.cuStreamSynchronize(stream), "cuStreamSynchronize")
             : cu_ok(state, failed, "cuLaunchKernel");
  }
  cu.cuStreamDestroy_v2(stream);
}

void cuda_launch(benchmark::State& state, Side side) {
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

BENCHMARK_CAPTURE(cuda_launch, anygpu, Side::anygpu)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(cuda_launch, direct, Side::direct)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace anygpu_cuda_bench
