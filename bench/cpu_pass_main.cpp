// anygpu_cpu_pass_bench [--quick] [--csv=FILE] [--only=WORKLOAD] [--benchmark_...]
// One Google Benchmark per workload and variant ("block_reduce/pass", ".../fibers", ".../pocl",
// ".../openmp"), its metric a counter. By default 7 repetitions in random interleaving, so load
// on the machine hits every variant alike; flags on the command line win over those defaults.
// After the run: median, min and max of the repetitions per variant, and with --csv every
// repetition for scripts/cpu_pass_bench_report.py. Workloads: anygpu's own kernels (kernels/), and
// the CUDA kernels ported in tests/cuda_sources (cpu_pass_ports.h), timed in ms per run, and
// `copy`, the machine's copy bandwidth (OpenMP only). Every variant's output is checked against
// the barrier pass's before timing (exactly where any order of the sums gives the same bits); a
// difference fails the program. All variants use the same number of threads: ANYGPU_CPU_THREADS,
// else the processor count; PoCL through POCL_MAX_PTHREAD_COUNT (and POCL_CPU_MAX_CU_COUNT),
// OpenMP through omp_set_num_threads.
#include <omp.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "cpu_pass_bench.h"
#include "cpu_pass_ports.h"

namespace cpu_pass_bench {

std::vector<float> input(size_t count, int seed) {
  std::vector<float> values(count);
  uint32_t state = 2463534242u + (uint32_t)seed * 7919u;
  for (float& v : values) {
    state ^= state << 13, state ^= state >> 17, state ^= state << 5;
    v = (float)(state % 2001) / 1000.0f - 1.0f;
  }
  return values;
}

namespace {

struct Workload {
  const char* name;
  const char* metric;  // what the table shows
  Problem problem;
  double (*amount)(const Problem&);  // the metric's numerator per run (bytes, flops, ...)
  bool lower_is_better;              // us/launch, ms/run: shown as a time
  double tolerance = 1e-3;           // how far a variant's output may be from the pass's
  // ms/run workloads bound by memory: the least a run reads and writes, for its bandwidth.
  double (*bytes)(const Problem&) = nullptr;
};

double four_bytes_each(const Problem& p) {  // one pass over n floats or words
  return 4.0 * p.n;
}

// Largest difference relative to the values' scale; the variants sum in different orders.
double difference(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return INFINITY;
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::fabs((double)a[i] - b[i]) / (1.0 + std::fabs((double)a[i])));
  return worst;
}

// The counter of a workload's metric: a rate of its amount, or (latency) inverted, seconds each.
const char* counter_of(const Workload& w) {
  if (w.lower_is_better) return !strcmp(w.metric, "ms/run") ? "per_run" : "per_launch";
  if (!strcmp(w.metric, "GB/s")) return "bytes_per_second";
  return !strcmp(w.metric, "GFLOP/s") ? "flops_per_second" : "steps_per_second";
}

// What the reporter multiplies the counter by: seconds to us or ms, per second to G per second.
double scale_of(const Workload& w) {
  if (!w.lower_is_better) return 1e-9;
  return !strcmp(w.metric, "ms/run") ? 1e3 : 1e6;
}

void time_runner(benchmark::State& state, Runner* runner, const Workload* w) {
  for (auto _ : state) runner->run();
  state.counters[counter_of(*w)] = benchmark::Counter(
      w->amount(w->problem) * (double)state.iterations(),
      w->lower_is_better ? benchmark::Counter::kIsRate | benchmark::Counter::kInvert
                         : benchmark::Counter::kIsRate);
}

}  // namespace
}  // namespace cpu_pass_bench

int main(int argc, char** argv) {
  using namespace cpu_pass_bench;
  bool quick = false;
  std::string csv_path, only;
  std::vector<std::string> given;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--quick")) {
      quick = true;
    } else if (!strncmp(argv[i], "--csv=", 6)) {
      csv_path = argv[i] + 6;
    } else if (!strncmp(argv[i], "--only=", 7)) {
      only = argv[i] + 7;
    } else {
      given.push_back(argv[i]);
    }
  }
  // Defaults first: Google Benchmark takes the last of a flag, so the command line's win.
  std::vector<std::string> flags = {argv[0], "--benchmark_repetitions=7",
                                    "--benchmark_enable_random_interleaving=true"};
  if (quick) flags.insert(flags.end(), {"--benchmark_repetitions=1", "--benchmark_min_time=0.01"});
  flags.insert(flags.end(), given.begin(), given.end());
  std::vector<char*> args;
  for (std::string& flag : flags) args.push_back(flag.data());
  int count_args = (int)args.size();
  benchmark::Initialize(&count_args, args.data());
  if (count_args > 1) {
    fprintf(stderr,
            "%s: unknown argument %s (besides Google Benchmark's --benchmark_* flags: --quick "
            "--csv=FILE --only=WORKLOAD)\n",
            argv[0], args[1]);
    return 2;
  }
  const char* configured = getenv("ANYGPU_CPU_THREADS");
  const int threads = configured && atoi(configured) > 0 ? atoi(configured)
                                                         : (int)std::thread::hardware_concurrency();
  const std::string count = std::to_string(threads);
  setenv("ANYGPU_CPU_THREADS", count.c_str(), 1);
  setenv("POCL_MAX_PTHREAD_COUNT", count.c_str(), 1);
  setenv("POCL_CPU_MAX_CU_COUNT", count.c_str(), 1);
  omp_set_num_threads(threads);

  auto pick = [&](int full, int small) { return quick ? small : full; };
  auto one_run = [](const Problem&) { return 1.0; };
  const Workload workloads[] = {
      {"saxpy",
       "GB/s",
       {pick(1 << 24, 1 << 16), 0, 0},
       [](const Problem& p) { return 12.0 * p.n; },
       false},
      {"block_reduce",
       "GB/s",
       {pick(1 << 24, 1 << 16), 0, 0},
       [](const Problem& p) { return 4.0 * p.n; },
       false},
      {"sgemm_tiled",
       "GFLOP/s",
       {pick(1024, 64), 0, 0},
       [](const Problem& p) { return 2.0 * p.n * p.n * (double)p.n; },
       false},
      {"transpose_shared",
       "GB/s",
       {pick(4096, 128), 0, 0},
       [](const Problem& p) { return 8.0 * p.n * (double)p.n; },
       false},
      {"smooth_steps",
       "G element-steps/s",
       {pick(1 << 22, 1 << 14), 8, 0},
       [](const Problem& p) { return (double)p.n * p.steps; },
       false},
      // The machine's copy bandwidth (OpenMP only), next to the bandwidth-bound kernels.
      {"copy",
       "GB/s",
       {pick(1 << 24, 1 << 16), 0, 0},
       [](const Problem& p) { return 8.0 * p.n; },
       false},
      {"empty",
       "us/launch",
       {0, 0, pick(2000, 50)},
       [](const Problem& p) { return (double)p.launches; },
       true},
      {"empty_stream",
       "us/launch",
       {0, 0, pick(2000, 50)},
       [](const Problem& p) { return (double)p.launches; },
       true},
      // The ported CUDA kernels (tests/cuda_sources), timed per run of the whole algorithm. Sums
      // of whole numbers and moved values must agree exactly.
      {"reduction", "ms/run", {pick(1 << 24, 1 << 16)}, one_run, true, 0.0, four_bytes_each},
      // The same sum with warp shuffles (cg::reduce over tiles of 32).
      {"warp_reduction", "ms/run", {pick(1 << 24, 1 << 16)}, one_run, true, 0.0, four_bytes_each},
      {"matrix_mul", "ms/run", {pick(512, 64)}, one_run, true},
      {"transpose",
       "ms/run",
       {pick(4096, 128)},
       one_run,
       true,
       0.0,
       [](const Problem& p) { return 8.0 * p.n * (double)p.n; }},
      // Read the input, write the block scans, read and write them again to add the sums.
      {"scan",
       "ms/run",
       {pick(1 << 22, 300001)},
       one_run,
       true,
       0.0,
       [](const Problem& p) { return 16.0 * p.n; }},
      {"histogram256", "ms/run", {pick(1 << 24, 1 << 16)}, one_run, true, 0.0, four_bytes_each},
      {"black_scholes", "ms/run", {pick(1 << 22, 1 << 14)}, one_run, true},
      {"layernorm_forward", "ms/run", {pick(8192, 256), 0, 0, pick(768, 64)}, one_run, true},
      {"softmax_forward", "ms/run", {pick(4096, 256), 0, 0, pick(2048, 128)}, one_run, true, 1e-5},
      {"nbody", "ms/run", {pick(4096, 512)}, one_run, true},
  };

  SampleReporter reporter(isatty(STDOUT_FILENO) ? SampleReporter::OO_ColorTabular
                                                : SampleReporter::OO_Tabular);
  // Alive for the whole run: random interleaving switches between all of them.
  std::vector<std::unique_ptr<Runner>> runners;
  printf("%d threads per variant%s\n", threads, quick ? " (quick)" : "");
  int failures = 0;
  for (const Workload& w : workloads) {
    if (!only.empty() && only != w.name) continue;
    const bool port = ports::is_port(w.name);
    auto anygpu = [&](bool loops) {
      return port ? ports::make_anygpu(w.name, w.problem, loops)
                  : make_anygpu(w.name, w.problem, loops);
    };
    struct {
      const char* suffix;
      const char* label;
      std::unique_ptr<Runner> runner;
    } variants[] = {
        {"pass", "anygpu (pass)", anygpu(true)},
        {"fibers", "anygpu (fibers)", anygpu(false)},
        {"pocl", "PoCL",
         port ? ports::make_pocl(w.name, w.problem) : make_pocl(w.name, w.problem, threads)},
        {"openmp", "OpenMP",
         port ? ports::make_openmp(w.name, w.problem) : make_openmp(w.name, w.problem)}};
    // Run each once (a warm-up: PoCL compiles for the work-group size on first use) and check it.
    std::vector<float> reference;
    bool have_reference = false;  // the pass's output, or the only variant's
    for (auto& v : variants) {
      if (!v.runner) continue;
      const std::string name = std::string(w.name) + "/" + v.suffix;
      if (!v.runner->error.empty()) {
        printf("%-24s n/a: %s\n", name.c_str(), v.runner->error.c_str());
        if (&v == &variants[0]) ++failures;  // nothing to check the others against
        continue;
      }
      v.runner->run();
      const std::vector<float> out = v.runner->result();
      if (!have_reference) {
        reference = out;
        have_reference = true;
      } else if (difference(reference, out) > w.tolerance) {
        fprintf(stderr, "%s: %s: output differs from anygpu (pass) by %g\n", argv[0], name.c_str(),
                difference(reference, out));
        ++failures;
        continue;
      }
      benchmark::RegisterBenchmark(name.c_str(), time_runner, v.runner.get(), &w)
          ->UseRealTime()
          ->Unit(w.lower_is_better && strcmp(w.metric, "ms/run") ? benchmark::kMicrosecond
                                                                 : benchmark::kMillisecond);
      reporter.add(name, {w.name,
                          v.label,
                          w.metric,
                          counter_of(w),
                          scale_of(w),
                          w.bytes ? w.bytes(w.problem) : 0.0,
                          {}});
      runners.push_back(std::move(v.runner));
    }
  }
  fflush(stdout);
  if (runners.empty() && !failures) {
    fprintf(stderr, "%s: no workload %s\n", argv[0], only.c_str());
    return 2;
  }
  if (failures) {
    fprintf(stderr, "%s: %d check(s) failed, nothing timed\n", argv[0], failures);
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_table();
  if (!csv_path.empty() && !reporter.write_csv(csv_path, threads)) {
    fprintf(stderr, "%s: cannot write %s\n", argv[0], csv_path.c_str());
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
