// anygpu_cuda_bench's main: Google Benchmark's flags, the problem sizes, and after the run one line
// per comparison, "ratio <what> <a>/<b> = <value>", which tests/gpu/run-cuda.sh collects.
//   --launches=N   empty-kernel launches per timed iteration (10000)
//   --copy_mib=N   MiB per copy (256)
//   --saxpy_mib=N  MiB per saxpy vector (256)
// Exits 1 when a benchmark failed for another reason than the absence of a CUDA device.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "cuda_support.h"

namespace anygpu_cuda_bench {
namespace {

// Google Benchmark 1.7 flags a failed run with error_occurred, 1.8 and later with skipped.
template <typename Run>
auto run_failed(const Run& run, int) -> decltype(run.error_occurred) {
  return run.error_occurred;
}
template <typename Run>
bool run_failed(const Run& run, long) {
  return static_cast<bool>(run.skipped);
}
template <typename Run>
auto run_message(const Run& run, int) -> decltype(run.error_message) {
  return run.error_message;
}
template <typename Run>
std::string run_message(const Run& run, long) {
  return run.skip_message;
}

// What one benchmark measured, summed over its repetitions.
struct Result {
  double seconds = 0;  // real time
  double iterations = 0;
  double bytes_per_second = 0;  // sum over repetitions
  int repetitions = 0;
  std::string error;
};

// The console output, plus each benchmark's result kept by name for the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  using ConsoleReporter::ConsoleReporter;

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      Result& result = results_[run.run_name.function_name];
      if (run_failed(run, 0)) {
        result.error = run_message(run, 0);
        if (result.error.rfind("no CUDA device", 0) != 0) failed_ = true;
        continue;
      }
      result.seconds += run.real_accumulated_time;
      result.iterations += static_cast<double>(run.iterations);
      const auto bytes = run.counters.find("bytes_per_second");
      if (bytes != run.counters.end()) result.bytes_per_second += bytes->second.value;
      ++result.repetitions;
    }
    ConsoleReporter::ReportRuns(runs);
  }

  bool failed() const { return failed_; }

  // "ratio <name> <how> = <a / b>", or n/a with the reason.
  void print_ratio(const char* name, const char* how, const std::string& a, const std::string& b,
                   bool bandwidth) const {
    std::string missing;
    for (const std::string* which : {&a, &b}) {
      const auto found = results_.find(*which);
      if (found == results_.end())
        missing = *which + " did not run";
      else if (found->second.repetitions == 0)
        missing = *which + ": " + found->second.error;
      if (!missing.empty()) break;
    }
    if (!missing.empty()) {
      std::printf("ratio %s %s = n/a (%s)\n", name, how, missing.c_str());
      return;
    }
    const Result& x = results_.at(a);
    const Result& y = results_.at(b);
    const double value =
        bandwidth ? (x.bytes_per_second / x.repetitions) / (y.bytes_per_second / y.repetitions)
                  : (x.seconds / x.iterations) / (y.seconds / y.iterations);
    std::printf("ratio %s %s = %.3f\n", name, how, value);
  }

 private:
  std::map<std::string, Result> results_;
  bool failed_ = false;
};

// --name=N for a positive N; false when the argument is not that flag.
bool size_flag(const char* argument, const char* name, long* value) {
  const size_t length = std::strlen(name);
  if (std::strncmp(argument, name, length) != 0 || argument[length] != '=') return false;
  char* end = nullptr;
  *value = std::strtol(argument + length + 1, &end, 10);
  if (*end != 0 || *value <= 0) {
    std::fprintf(stderr, "anygpu_cuda_bench: %s needs a positive integer\n", name);
    std::exit(2);
  }
  return true;
}

}  // namespace
}  // namespace anygpu_cuda_bench

int main(int argc, char** argv) {
  using namespace anygpu_cuda_bench;
  benchmark::Initialize(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    long value = 0;
    if (size_flag(argv[i], "--launches", &value))
      sizes().launches = static_cast<int>(value);
    else if (size_flag(argv[i], "--copy_mib", &value))
      sizes().copy_bytes = static_cast<size_t>(value) << 20;
    else if (size_flag(argv[i], "--saxpy_mib", &value))
      sizes().saxpy_bytes = static_cast<size_t>(value) << 20;
    else {
      std::fprintf(stderr,
                   "anygpu_cuda_bench: unknown argument %s (besides Google Benchmark's "
                   "--benchmark_* flags: --launches=N --copy_mib=N --saxpy_mib=N)\n",
                   argv[i]);
      return 2;
    }
  }
  RatioReporter reporter(isatty(STDOUT_FILENO) ? benchmark::ConsoleReporter::OO_ColorTabular
                                               : benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::fflush(stdout);
  reporter.print_ratio("launch_latency", "anygpu/direct", "cuda_launch/anygpu",
                       "cuda_launch/direct", false);
  reporter.print_ratio("module_load", "anygpu/direct", "cuda_module_load/anygpu",
                       "cuda_module_load/direct", false);
  for (const char* direction : {"htod", "dtoh", "dtod"}) {
    const std::string name = std::string("copy_") + direction + "_bandwidth";
    const std::string base = std::string("cuda_copy_") + direction;
    reporter.print_ratio(name.c_str(), "anygpu/direct", base + "/anygpu", base + "/direct", true);
  }
  reporter.print_ratio("saxpy_bandwidth", "saxpy/copy", "cuda_saxpy/anygpu",
                       "cuda_copy_dtod/direct", true);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
