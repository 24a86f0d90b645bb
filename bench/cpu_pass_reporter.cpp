#include <algorithm>
#include <cstdio>

#include "cpu_pass_bench.h"

namespace cpu_pass_bench {
namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

void SampleReporter::add(const std::string& benchmark, Column column) {
  order_.push_back(benchmark);
  columns_[benchmark] = std::move(column);
}

void SampleReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    const auto column = columns_.find(run.run_name.function_name);
    if (run.run_type != Run::RT_Iteration || column == columns_.end()) continue;
    const auto counter = run.counters.find(column->second.counter);
    if (counter != run.counters.end())
      column->second.samples.push_back(counter->second.value * column->second.scale);
  }
  ConsoleReporter::ReportRuns(runs);
}

void SampleReporter::print_table() const {
  std::printf("\n%-18s %-16s %10s %10s %10s %4s  %s\n", "workload", "variant", "median", "min",
              "max", "reps", "metric");
  for (const std::string& name : order_) {
    const Column& c = columns_.at(name);
    if (c.samples.empty()) continue;
    const auto [low, high] = std::minmax_element(c.samples.begin(), c.samples.end());
    std::printf("%-18s %-16s %10.4g %10.4g %10.4g %4zu  %s\n", c.workload.c_str(),
                c.variant.c_str(), median(c.samples), *low, *high, c.samples.size(),
                c.metric.c_str());
  }
}

bool SampleReporter::write_csv(const std::string& path, int threads) const {
  FILE* csv = std::fopen(path.c_str(), "w");
  if (!csv) return false;
  std::fprintf(csv, "workload,variant,metric,repetition,value,threads,bytes\n");
  for (const std::string& name : order_) {
    const Column& c = columns_.at(name);
    for (size_t i = 0; i < c.samples.size(); ++i)
      std::fprintf(csv, "%s,%s,%s,%zu,%.6g,%d,%.6g\n", c.workload.c_str(), c.variant.c_str(),
                   c.metric.c_str(), i + 1, c.samples[i], threads, c.bytes);
  }
  return std::fclose(csv) == 0;
}

}  // namespace cpu_pass_bench
