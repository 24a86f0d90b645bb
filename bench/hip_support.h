// Shared plumbing of anygpu_hip_bench: anygpu's first HIP device, and for the direct side the very
// runtime anygpu loaded (found with RTLD_NOLOAD, never linked, resolved as anygpu resolves it)
// with that device current, plus both sides' modules of the same code object.
#pragma once

#include <anygpu/anygpu.h>
#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>

#include "hip_bundle_entry.h"
#include "loaders/hip/hip_api.h"

namespace anygpu_hip_bench {

namespace hip = anygpu::hip;

// Problem sizes, set from the command line (hip_bench_main.cpp) so that a quick run is possible.
struct Sizes {
  int launches = 10000;                   // empty-kernel launches per timed iteration
  size_t copy_bytes = size_t{256} << 20;  // bytes per copy
};
Sizes& sizes();

struct HipRuntime {
  ag_device device = nullptr;  // anygpu's first HIP device
  ag_device_properties properties{};
  ag_module kernels = nullptr;             // bench_kernels through anygpu
  hip::HipFunctions fn;                    // the runtime anygpu loaded
  int hip_device = 0;                      // its ordinal there
  hip::hipModule_t hip_kernels = nullptr;  // bench_kernels' entry for the device, loaded directly
  AmdEntry kernels_entry;                  // that entry
  std::string error;  // why setup failed, "no HIP device: ..."; empty if it worked
};

// Sets everything up on first use.
const HipRuntime& hip_runtime();

// Skips the benchmark with the setup failure, if any; otherwise makes the device current on the
// calling thread (the direct calls need it) and returns true.
bool ready(benchmark::State& state);

// Skip the benchmark with "<what>: <reason>" and return false unless the call succeeded.
bool ag_ok(benchmark::State& state, ag_result result, const char* what);
bool hip_ok(benchmark::State& state, hip::hipError_t result, const char* what);

}  // namespace anygpu_hip_bench
