// Module load time on the CUDA device, load and unload per timed iteration:
//   cuda_module_load/anygpu  agModuleLoadData of the saxpy example's bundle (detects the format,
//                            picks the device's entry, cuModuleLoadDataEx), then agModuleUnload
//   cuda_module_load/direct  cuModuleLoadDataEx of that same entry (its id is the label), then
//                            cuModuleUnload
// A PTX entry is compiled by the driver on each load; its JIT cache serves both sides alike, and
// one untimed load per side fills it.
#include "anygpu_image_saxpy.h"
#include "cuda_support.h"

namespace anygpu_cuda_bench {
namespace {

enum class Side { anygpu, direct };

bool load_and_unload(benchmark::State& state, Side side) {
  const CudaRuntime& r = cuda_runtime();
  if (side == Side::anygpu) {
    ag_module module = nullptr;
    return ag_ok(state,
                 agModuleLoadData(r.device, anygpu_image_saxpy, anygpu_image_saxpy_size, &module),
                 "agModuleLoadData") &&
           ag_ok(state, agModuleUnload(module), "agModuleUnload");
  }
  cuda::CUmodule module = nullptr;
  return cu_ok(state,
               r.cu.cuModuleLoadDataEx(&module, r.saxpy_entry.data.data(), 0, nullptr, nullptr),
               "cuModuleLoadDataEx") &&
         cu_ok(state, r.cu.cuModuleUnload(module), "cuModuleUnload");
}

void cuda_module_load(benchmark::State& state, Side side) {
  if (!ready(state)) return;
  state.SetLabel(cuda_runtime().saxpy_entry.id);
  if (!load_and_unload(state, side)) return;
  for (auto _ : state)
    if (!load_and_unload(state, side)) return;
}

BENCHMARK_CAPTURE(cuda_module_load, anygpu, Side::anygpu)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(cuda_module_load, direct, Side::direct)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace anygpu_cuda_bench
