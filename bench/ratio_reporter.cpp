#include "ratio_reporter.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace anygpu_bench {
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

}  // namespace

void RatioReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Iteration) continue;
    Result& result = results_[run.run_name.function_name];
    if (run_failed(run, 0)) {
      result.error = run_message(run, 0);
      if (result.error.rfind(absent_, 0) != 0) failed_ = true;
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

void RatioReporter::print_ratio(const char* name, const char* how, const std::string& a,
                                const std::string& b, bool bandwidth) const {
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

bool size_flag(const char* program, const char* argument, const char* name, long* value) {
  const size_t length = std::strlen(name);
  if (std::strncmp(argument, name, length) != 0 || argument[length] != '=') return false;
  char* end = nullptr;
  *value = std::strtol(argument + length + 1, &end, 10);
  if (*end != 0 || *value <= 0) {
    std::fprintf(stderr, "%s: %s needs a positive integer\n", program, name);
    std::exit(2);
  }
  return true;
}

}  // namespace anygpu_bench
