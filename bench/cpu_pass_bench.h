// anygpu_cpu_pass_bench (docs/cpu-barrier-pass.md): the same kernels on the CPU through anygpu's
// barrier pass, through anygpu's fibers, through PoCL (OpenCL C versions of the kernels, on as
// many threads) and as plain OpenMP loops where one exists, timed by Google Benchmark.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cpu_pass_bench {

// The inputs every variant of a workload gets (the same values), and its size.
struct Problem {
  int n = 0;         // elements (saxpy, reduce, smooth), or the matrix side (sgemm, transpose)
  int steps = 0;     // smooth_steps: the loop count each block reads
  int launches = 0;  // empty: launches per run
  int columns = 0;   // layernorm_forward, softmax_forward: values per row (n rows)
};

// One way to run one workload: prepare once, then run() does the whole workload once and waits.
// An empty `error` after prepare() means it is ready.
struct Runner {
  virtual ~Runner() = default;
  virtual void run() = 0;
  // The output, for a check that every variant computed the same (up to rounding).
  virtual std::vector<float> result() = 0;
  std::string error;
};

// Workloads: "saxpy", "block_reduce", "sgemm_tiled", "transpose_shared", "smooth_steps", and
// "empty" and "empty_stream" (launch latency: anygpu's NULL stream, or a stream and
// agStreamSynchronize; PoCL's clEnqueueNDRangeKernel and clFinish for both).
// Each factory returns nullptr where the variant has no version of the workload. The ported CUDA
// kernels (cpu_pass_ports.h) have factories of their own.
std::unique_ptr<Runner> make_anygpu(const std::string& workload, const Problem& problem,
                                    bool loops);
std::unique_ptr<Runner> make_pocl(const std::string& workload, const Problem& problem, int threads);
std::unique_ptr<Runner> make_openmp(const std::string& workload, const Problem& problem);

// The shared inputs.
std::vector<float> input(size_t count, int seed);

// Google Benchmark's console table, plus every repetition's value of each benchmark's metric, kept
// for the median/min/max table after the run and for the CSV of scripts/cpu_pass_bench_report.py
// (one row per repetition, so the script sees the spread, not only aggregates).
class SampleReporter : public benchmark::ConsoleReporter {
 public:
  // Benchmark "saxpy/pass" shown as `variant` of `workload`: its counter times `scale`.
  struct Column {
    std::string workload, variant, metric, counter;
    double scale = 1;
    double bytes = 0;  // the least memory a run reads and writes (ms/run workloads), or 0
    std::vector<double> samples;
  };
  using ConsoleReporter::ConsoleReporter;
  void add(const std::string& benchmark, Column column);
  void ReportRuns(const std::vector<Run>& runs) override;
  void print_table() const;
  bool write_csv(const std::string& path, int threads) const;

 private:
  std::vector<std::string> order_;
  std::map<std::string, Column> columns_;
};

}  // namespace cpu_pass_bench
