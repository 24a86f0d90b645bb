// Shared plumbing of anygpu_cuda_bench: anygpu's first CUDA device, and for the direct side the
// very driver anygpu loaded (found with RTLD_NOLOAD, never linked, resolved as anygpu resolves
// it) with the device's primary context current, plus both sides' modules of the same kernels.
#pragma once

#include <anygpu/anygpu.h>
#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>

#include "cuda_bundle_entry.h"
#include "loaders/cuda/cuda_api.h"

namespace anygpu_cuda_bench {

namespace cuda = anygpu::cuda;

// Problem sizes, set from the command line (cuda_bench_main.cpp) so that a quick run is possible.
struct Sizes {
  int launches = 10000;                    // empty-kernel launches per timed iteration
  size_t copy_bytes = size_t{256} << 20;   // bytes per copy
  size_t saxpy_bytes = size_t{256} << 20;  // bytes per saxpy vector
};
Sizes& sizes();

struct CudaRuntime {
  ag_device device = nullptr;  // anygpu's first CUDA device
  ag_device_properties properties{};
  ag_module kernels = nullptr;  // bench_kernels through anygpu
  cuda::CudaFunctions cu;       // the driver anygpu loaded
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
bool ag_ok(benchmark::State& state, ag_result result, const char* what);
bool cu_ok(benchmark::State& state, cuda::CUresult result, const char* what);

}  // namespace anygpu_cuda_bench
