// Shared plumbing of anygpu_level_zero_bench: anygpu's first Level Zero device, and for the direct
// side the very loader anygpu loaded (found with RTLD_NOLOAD, never linked, resolved as anygpu
// resolves it) with the same device, its own context, and the bundle's SPIR-V module built on it.
// The benchmarks shared with anygpu_cuda_bench and anygpu_hip_bench (gpu_support.h) are
// registered here for Level Zero.
#pragma once

#include <string>

#include "gpu_support.h"
#include "loaders/level_zero/level_zero_api.h"
#include "loaders/symbol_resolver.h"

namespace anygpu_level_zero_bench {

namespace ze = anygpu::level_zero;

// anygpu's side (device, properties, kernels), then the direct one.
struct LevelZeroRuntime : anygpu_bench::AnygpuDevice {
  ze::LevelZeroFunctions fn;                    // the loader anygpu loaded
  ze::ze_device_handle_t ze_device = nullptr;   // anygpu's device 0: the first GPU of the drivers
  ze::ze_context_handle_t context = nullptr;    // the direct side's own
  ze::ze_module_handle_t ze_kernels = nullptr;  // bench_kernels' SPIR-V, built directly
  std::string error;  // why setup failed, "no Level Zero device: ..."; empty if it worked
};

// Sets everything up on first use.
const LevelZeroRuntime& level_zero_runtime();

}  // namespace anygpu_level_zero_bench
