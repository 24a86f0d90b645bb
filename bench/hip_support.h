// Shared plumbing of anygpu_hip_bench: anygpu's first HIP device, and for the direct side the very
// runtime anygpu loaded (found with RTLD_NOLOAD, never linked, resolved as anygpu resolves it)
// with that device current, plus both sides' modules of the same code object. The benchmarks
// shared with anygpu_cuda_bench (gpu_support.h) are registered here for HIP.
#pragma once

#include <string>

#include "gpu_support.h"
#include "hip_bundle_entry.h"
#include "loaders/hip/hip_loader.h"

namespace anygpu_hip_bench {

namespace hip = anygpu::hip;
using anygpu_bench::sizes;

// anygpu's side (device, properties, kernels), then the direct one.
struct HipRuntime : anygpu_bench::AnygpuDevice {
  hip::HipFunctions fn;                    // the runtime anygpu loaded
  int hip_device = 0;                      // its ordinal there
  hip::hipModule_t hip_kernels = nullptr;  // bench_kernels' entry for the device, loaded directly
  AmdEntry kernels_entry;                  // that entry
  std::string error;  // why setup failed, "no HIP device: ..."; empty if it worked
};

// Sets everything up on first use.
const HipRuntime& hip_runtime();

}  // namespace anygpu_hip_bench
