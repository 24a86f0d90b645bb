#include <unistd.h>

#include <cstdio>
#include <string>

#include "gpu_support.h"
#include "ratio_reporter.h"

namespace anygpu_bench {

int gpu_bench_main(int argc, char** argv, const char* prefix, const char* label, bool saxpy,
                   void (*more_ratios)(const RatioReporter& reporter)) {
  const std::string program = std::string("anygpu_") + prefix + "_bench";
  benchmark::Initialize(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    long value = 0;
    if (size_flag(program.c_str(), argv[i], "--launches", &value))
      sizes().launches = static_cast<int>(value);
    else if (size_flag(program.c_str(), argv[i], "--copy_mib", &value))
      sizes().copy_bytes = static_cast<size_t>(value) << 20;
    else if (saxpy && size_flag(program.c_str(), argv[i], "--saxpy_mib", &value))
      sizes().saxpy_bytes = static_cast<size_t>(value) << 20;
    else {
      std::fprintf(stderr,
                   "%s: unknown argument %s (besides Google Benchmark's --benchmark_* flags: "
                   "--launches=N --copy_mib=N%s)\n",
                   program.c_str(), argv[i], saxpy ? " --saxpy_mib=N" : "");
      return 2;
    }
  }
  RatioReporter reporter(
      isatty(STDOUT_FILENO) ? RatioReporter::OO_ColorTabular : RatioReporter::OO_Tabular,
      std::string("no ") + label + " device");
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::fflush(stdout);
  reporter.print_ratio("launch_latency", "anygpu/direct", std::string(prefix) + "_launch/anygpu",
                       std::string(prefix) + "_launch/direct", false);
  for (const char* direction : {"htod", "dtoh", "dtod", "2d"}) {
    const std::string name = std::string("copy_") + direction + "_bandwidth";
    const std::string base = std::string(prefix) + "_copy_" + direction;
    reporter.print_ratio(name.c_str(), "anygpu/direct", base + "/anygpu", base + "/direct", true);
  }
  if (host_func_has_direct())
    reporter.print_ratio("host_function", "anygpu/direct",
                         std::string(prefix) + "_host_func/anygpu",
                         std::string(prefix) + "_host_func/direct", false);
  if (alloc_async_has_direct())
    reporter.print_ratio("alloc_async_round_trip", "anygpu/direct",
                         std::string(prefix) + "_alloc_async/anygpu",
                         std::string(prefix) + "_alloc_async/direct", false);
  if (more_ratios) more_ratios(reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}

}  // namespace anygpu_bench
