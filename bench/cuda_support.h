// Shared plumbing of anygpu_cuda_bench: anygpu's first CUDA device, and for the direct side the
// very driver anygpu loaded (found with RTLD_NOLOAD, never linked, resolved as anygpu resolves
// it) with the device's primary context current, plus both sides' modules of the same kernels.
// The benchmarks shared with anygpu_hip_bench (gpu_support.h) are registered here for CUDA.
#pragma once

#include <string>

#include "cuda_bundle_entry.h"
#include "gpu_support.h"
#include "loaders/cuda/cuda_loader.h"

namespace anygpu_cuda_bench {

namespace cuda = anygpu::cuda;
using anygpu_bench::ag_ok;
using anygpu_bench::sizes;

// anygpu's side (device, properties, kernels), then the direct one.
struct CudaRuntime : anygpu_bench::AnygpuDevice {
  cuda::CudaFunctions cu;  // the driver anygpu loaded
  cuda::CUdevice cu_device = 0;
  cuda::CUcontext context = nullptr;    // the device's primary context
  cuda::CUmodule cu_kernels = nullptr;  // bench_kernels' entry for the device, loaded directly
  NvidiaEntry kernels_entry;            // that entry
  NvidiaEntry saxpy_entry;              // the saxpy image's entry for the device
  std::string error;  // why setup failed, "no CUDA device: ..."; empty if it worked
};

// Sets everything up on first use.
const CudaRuntime& cuda_runtime();

// Skips the benchmark with the setup failure, if any; otherwise makes the primary context current
// on the calling thread (the direct calls need it) and returns true.
bool ready(benchmark::State& state);

// Skip the benchmark with "<what>: <reason>" and return false unless the call succeeded.
bool cu_ok(benchmark::State& state, cuda::CUresult result, const char* what);

}  // namespace anygpu_cuda_bench
