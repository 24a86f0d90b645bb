// Shared plumbing of the anygpu benchmarks: the CPU device and the embedded kernel image (loaded
// once per run), buffers that live either in device memory or in plain host memory, and error
// reporting through benchmark::State::SkipWithError.
#pragma once

#include <anygpu/anygpu.h>
#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <vector>

namespace anygpu_bench {

// The device every benchmark runs on (the first CPU device) and the module of bench_kernels.
struct Runtime {
  ag_device device = nullptr;
  ag_device_properties properties{};
  ag_module module = nullptr;
  std::string error;  // why setup failed; empty when it succeeded
};

// Initialises anygpu on first use. Also sets OpenMP to the device's compute_units threads, so
// that the OpenMP reference loops use as many threads as the CPU backend's worker pool.
const Runtime& runtime();

// The number of OpenMP threads the reference loops use (the device's compute_units).
int openmp_threads();

// Skips the benchmark with "<what>: <name> <detail>" and returns false unless result is success.
bool succeeded(benchmark::State& state, ag_result result, const char* what);
// A stream on the runtime's device; nullptr, the benchmark skipped with the reason, when setup or
// agStreamCreate failed.
ag_stream runtime_stream(benchmark::State& state);

// Skips the benchmark unless the runtime is up; then looks up `name` (nullptr after a skip).
ag_function find_kernel(benchmark::State& state, const char* name);

// Where a buffer lives: device memory (agMemAlloc, reached through agMemcpy*) or host memory
// (256-byte aligned like the CPU backend's allocations, used directly by the OpenMP loops).
enum class Memory { device, host };

// An array of floats, freed on destruction. Failures are reported through `state`.
class Buffer {
 public:
  Buffer(benchmark::State& state, Memory memory, size_t count);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  bool valid() const { return data_ != nullptr; }
  float* data() const { return data_; }
  size_t count() const { return count_; }

  bool upload(const std::vector<float>& values);
  bool download(size_t first, size_t count, float* out);

 private:
  benchmark::State& state_;
  Memory memory_;
  size_t count_;
  float* data_ = nullptr;
};

struct Dims {
  unsigned x = 1, y = 1, z = 1;
};

// agLaunchKernel with the kernel's parameters given as lvalues, in order, each of exactly the type
// of the kernel's parameter (agLaunchKernel reads each value through its address).
template <typename... Args>
ag_result launch(ag_function function, Dims grid, Dims block, ag_stream stream, Args&... args) {
  void* params[sizeof...(Args) + 1] = {const_cast<void*>(static_cast<const void*>(&args))...};
  return agLaunchKernel(function, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, stream,
                        params, nullptr);
}

// `count` indices spread over [0, n), first and last included, at varied offsets inside blocks.
std::vector<size_t> sample_indices(size_t n, size_t count);

}  // namespace anygpu_bench
