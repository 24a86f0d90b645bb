// The console reporter of the side-by-side benchmark programs (anygpu_cuda_bench,
// anygpu_hip_bench): Google Benchmark's table, plus each benchmark's result kept by name, from
// which one line per comparison is printed after the run, "ratio <what> <a>/<b> = <value>", which
// tests/gpu/run-*.sh collect.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace anygpu_bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // A benchmark skipped with a message starting with `absent` ("no HIP device") did not fail: the
  // machine has no such device.
  RatioReporter(OutputOptions options, std::string absent)
      : ConsoleReporter(options), absent_(std::move(absent)) {}

  void ReportRuns(const std::vector<Run>& runs) override;

  // True when a benchmark failed for another reason than the absence of the device.
  bool failed() const { return failed_; }

  // "ratio <name> <how> = <a / b>" (time per iteration, or bytes per second when `bandwidth`), or
  // "= n/a (<reason>)" when either did not run.
  void print_ratio(const char* name, const char* how, const std::string& a, const std::string& b,
                   bool bandwidth) const;

 private:
  // What one benchmark measured, summed over its repetitions.
  struct Result {
    double seconds = 0;  // real time
    double iterations = 0;
    double bytes_per_second = 0;  // sum over repetitions
    int repetitions = 0;
    std::string error;
  };

  std::string absent_;
  std::map<std::string, Result> results_;
  bool failed_ = false;
};

// --name=N for a positive N into `value`; false when the argument is not that flag. Exits 2 (with
// a message naming `program`) when N is not a positive integer.
bool size_flag(const char* program, const char* argument, const char* name, long* value);

}  // namespace anygpu_bench
