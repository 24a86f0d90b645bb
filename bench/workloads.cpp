// The data-parallel workloads, each run twice side by side: as an anygpu kernel on the CPU device
// (<name>/anygpu, synchronous launches) and as an OpenMP loop over host memory with as many
// threads as the device has compute units (<name>/openmp). Buffers are allocated and initialised
// once per benchmark run, outside the timed loop; afterwards the result is checked against a host
// reference, and a wrong result turns into an error instead of a number.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.h"

namespace anygpu_bench {
namespace {

using Buffers = std::vector<std::unique_ptr<Buffer>>;

constexpr unsigned kBlock = 256;
constexpr int kStreamElements = 16 << 20;  // 64 MiB of floats per array
constexpr double kStreamArrayBytes = kStreamElements * sizeof(float);
constexpr unsigned kStreamGrid = (kStreamElements + kBlock - 1) / kBlock;
constexpr size_t kSamples = 512;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();  // outputs start as NaN

struct Workload {
  const char* name;           // registered as <name>/anygpu and <name>/openmp
  const char* kernel;         // in bench_kernels
  std::vector<size_t> sizes;  // elements of each buffer
  float (*initial)(size_t buffer, size_t i);
  ag_result (*launch)(ag_function kernel, float* const* buffers);
  void (*openmp)(float* const* buffers, int threads);
  // What is wrong with the buffers after `iterations` runs; empty when they are right.
  std::string (*verify)(Buffers& buffers, int64_t iterations);
  double bytes;  // memory traffic per run, reported as bytes_per_second (0: not reported)
  double flops;  // floating-point operations per run, reported as FLOP/s (0: not reported)
};

std::string mismatch(const char* what, size_t index, double got, double expected) {
  return std::string(what) + "[" + std::to_string(index) + "] = " + std::to_string(got) +
         ", expected " + std::to_string(expected);
}

// Compares sampled elements of `output` with expected(i, iterations), exactly: the workloads use
// integer-valued floats, so every order of evaluation gives the same result.
std::string check_samples(Buffer& output, double (*expected)(size_t i, int64_t iterations),
                          int64_t iterations) {
  for (size_t i : sample_indices(output.count(), kSamples)) {
    float got = 0;
    if (!output.download(i, 1, &got)) return "cannot read the result";
    if (got != expected(i, iterations)) return mismatch("output", i, got, expected(i, iterations));
  }
  return "";
}

// ---- saxpy: y = a * x + y, run `iterations` times, so y = y0 + iterations * a * x ------------
constexpr float kSaxpyA = 2.0f;

float saxpy_initial(size_t buffer, size_t i) {
  return buffer == 0 ? static_cast<float>(i % 16) : static_cast<float>(i % 7);
}

ag_result saxpy_launch(ag_function kernel, float* const* b) {  // (n, a, x, y)
  return launch(kernel, {kStreamGrid}, {kBlock}, nullptr, kStreamElements, kSaxpyA, b[0], b[1]);
}

void saxpy_openmp(float* const* buffers, int threads) {
  const float* x = buffers[0];
  float* y = buffers[1];
#pragma omp parallel for num_threads(threads)
  for (int i = 0; i < kStreamElements; ++i) y[i] = kSaxpyA * x[i] + y[i];
}

double saxpy_expected(size_t i, int64_t iterations) {
  return saxpy_initial(1, i) + static_cast<double>(iterations) * kSaxpyA * saxpy_initial(0, i);
}

// ---- vector add: c = a + b ---------------------------------------------------------------------
float vector_add_initial(size_t buffer, size_t i) {
  if (buffer == 2) return kNaN;
  return buffer == 0 ? static_cast<float>(i % 1000) : static_cast<float>(i % 7 + 1);
}

ag_result vector_add_launch(ag_function kernel, float* const* b) {  // (n, a, b, c)
  return launch(kernel, {kStreamGrid}, {kBlock}, nullptr, kStreamElements, b[0], b[1], b[2]);
}

void vector_add_openmp(float* const* buffers, int threads) {
  const float* a = buffers[0];
  const float* b = buffers[1];
  float* c = buffers[2];
#pragma omp parallel for num_threads(threads)
  for (int i = 0; i < kStreamElements; ++i) c[i] = a[i] + b[i];
}

double vector_add_expected(size_t i, int64_t) {
  return static_cast<double>(vector_add_initial(0, i)) + vector_add_initial(1, i);
}

// ---- block reduction: out[block] = sum of the block's 256 inputs (the kernel uses barriers) ----
constexpr unsigned kReduceBlocks = kStreamGrid;

float reduce_initial(size_t buffer, size_t i) {
  if (buffer == 1) return kNaN;
  return static_cast<float>(i % 13 + (i / kBlock) % 5);  // block sums differ from block to block
}

ag_result reduce_launch(ag_function kernel, float* const* b) {  // (n, in, out)
  return launch(kernel, {kReduceBlocks}, {kBlock}, nullptr, kStreamElements, b[0], b[1]);
}

void reduce_openmp(float* const* buffers, int threads) {
  const float* in = buffers[0];
  float* out = buffers[1];
#pragma omp parallel for num_threads(threads)
  for (unsigned block = 0; block < kReduceBlocks; ++block) {
    const float* slice = in + static_cast<size_t>(block) * kBlock;
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (unsigned t = 0; t < kBlock; ++t) sum += slice[t];
    out[block] = sum;
  }
}

std::string reduce_verify(Buffers& buffers, int64_t) {
  std::vector<float> sums(kReduceBlocks);
  if (!buffers[1]->download(0, sums.size(), sums.data())) return "cannot read the block sums";
  for (size_t block = 0; block < kReduceBlocks; ++block) {
    double expected = 0;
    for (size_t t = 0; t < kBlock; ++t) expected += reduce_initial(0, block * kBlock + t);
    if (sums[block] != expected) return mismatch("out", block, sums[block], expected);
  }
  return "";
}

// ---- SGEMM: C = A * B, all N x N, row-major ----------------------------------------------------
constexpr int kGemmN = 1024;
constexpr unsigned kTile = 16;
constexpr size_t kGemmElements = static_cast<size_t>(kGemmN) * kGemmN;

// Multiples of 1/8 in [-1, 1]: every partial sum is a multiple of 1/64 below 2^10, exact in float.
float gemm_initial(size_t buffer, size_t i) {
  if (buffer == 2) return kNaN;
  const size_t value = buffer == 0 ? (i * 7) % 17 : (i * 5) % 13;
  return (static_cast<float>(value) - (buffer == 0 ? 8.0f : 6.0f)) / 8.0f;
}

ag_result gemm_launch(ag_function kernel, float* const* b) {  // (m, n, k, a, b, c)
  constexpr unsigned grid = (kGemmN + kTile - 1) / kTile;
  return launch(kernel, {grid, grid}, {kTile, kTile}, nullptr, kGemmN, kGemmN, kGemmN, b[0], b[1],
                b[2]);
}

void gemm_openmp(float* const* buffers, int threads) {
  const float* a = buffers[0];
  const float* b = buffers[1];
  float* c = buffers[2];
#pragma omp parallel for num_threads(threads)
  for (int i = 0; i < kGemmN; ++i) {
    float* c_row = c + static_cast<size_t>(i) * kGemmN;
    for (int j = 0; j < kGemmN; ++j) c_row[j] = 0.0f;
    for (int k = 0; k < kGemmN; ++k) {
      const float a_ik = a[static_cast<size_t>(i) * kGemmN + k];
      const float* b_row = b + static_cast<size_t>(k) * kGemmN;
      for (int j = 0; j < kGemmN; ++j) c_row[j] += a_ik * b_row[j];
    }
  }
}

std::string gemm_verify(Buffers& buffers, int64_t) {
  for (size_t index : sample_indices(kGemmElements, kSamples / 2)) {
    const size_t row = index / kGemmN, col = index % kGemmN;
    double expected = 0, magnitude = 0;
    for (size_t k = 0; k < kGemmN; ++k) {
      const double term = static_cast<double>(gemm_initial(0, row * kGemmN + k)) *
                          gemm_initial(1, k * kGemmN + col);
      expected += term;
      magnitude += std::fabs(term);
    }
    float got = 0;
    if (!buffers[2]->download(index, 1, &got)) return "cannot read C";
    if (!(std::fabs(got - expected) <= 1e-5 * magnitude + 1e-6))
      return mismatch("C", index, got, expected);
  }
  return "";
}

// ---- the table and the generic benchmark body -------------------------------------------------
const std::vector<Workload> kWorkloads = {
    {"saxpy",
     "saxpy",
     {kStreamElements, kStreamElements},
     saxpy_initial,
     saxpy_launch,
     saxpy_openmp,
     [](Buffers& b, int64_t iterations) {
       return check_samples(*b[1], saxpy_expected, iterations);
     },
     3 * kStreamArrayBytes,
     0},
    {"vector_add",
     "vector_add",
     {kStreamElements, kStreamElements, kStreamElements},
     vector_add_initial,
     vector_add_launch,
     vector_add_openmp,
     [](Buffers& b, int64_t iterations) {
       return check_samples(*b[2], vector_add_expected, iterations);
     },
     3 * kStreamArrayBytes,
     0},
    {"block_reduce",
     "block_reduce",
     {kStreamElements, kReduceBlocks},
     reduce_initial,
     reduce_launch,
     reduce_openmp,
     reduce_verify,
     kStreamArrayBytes + kReduceBlocks * sizeof(float),
     0},
    {"sgemm_1024",
     "sgemm_tiled",
     {kGemmElements, kGemmElements, kGemmElements},
     gemm_initial,
     gemm_launch,
     gemm_openmp,
     gemm_verify,
     0,
     2.0 * kGemmN* kGemmN* kGemmN},
};

bool fill(Buffer& buffer, const Workload& workload, size_t index) {
  std::vector<float> values(buffer.count());
  for (size_t i = 0; i < values.size(); ++i) values[i] = workload.initial(index, i);
  return buffer.upload(values);
}

void run_workload(benchmark::State& state, const Workload& workload, Memory memory) {
  ag_function kernel = nullptr;
  if (memory == Memory::device && !(kernel = find_kernel(state, workload.kernel))) return;
  const int threads = openmp_threads();
  Buffers buffers;
  std::vector<float*> pointers;
  for (size_t b = 0; b < workload.sizes.size(); ++b) {
    buffers.push_back(std::make_unique<Buffer>(state, memory, workload.sizes[b]));
    if (!buffers.back()->valid() || !fill(*buffers.back(), workload, b)) return;
    pointers.push_back(buffers.back()->data());
  }

  for (auto _ : state) {
    if (kernel) {
      if (!succeeded(state, workload.launch(kernel, pointers.data()), "agLaunchKernel")) break;
    } else {
      workload.openmp(pointers.data(), threads);
    }
    benchmark::ClobberMemory();
  }
  if (state.error_occurred()) return;

  const std::string wrong = workload.verify(buffers, state.iterations());
  if (!wrong.empty()) {
    state.SkipWithError((std::string(workload.name) + ": " + wrong).c_str());
    return;
  }
  if (workload.bytes > 0)
    state.SetBytesProcessed(static_cast<int64_t>(workload.bytes * state.iterations()));
  if (workload.flops > 0)
    state.counters["FLOP"] =
        benchmark::Counter(workload.flops, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::to_string(threads) + " threads");
}

const bool registered = [] {
  for (const Workload& workload : kWorkloads)
    for (Memory memory : {Memory::device, Memory::host}) {
      const std::string name =
          std::string(workload.name) + (memory == Memory::device ? "/anygpu" : "/openmp");
      benchmark::RegisterBenchmark(
          name.c_str(),
          [&workload, memory](benchmark::State& state) { run_workload(state, workload, memory); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  return true;
}();

}  // namespace
}  // namespace anygpu_bench
