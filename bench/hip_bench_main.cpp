// anygpu_hip_bench's main: Google Benchmark's flags, the problem sizes, and after the run one line
// per comparison, "ratio <what> <a>/<b> = <value>", which tests/gpu/run-hip.sh collects.
//   --launches=N   empty-kernel launches per timed iteration (10000)
//   --copy_mib=N   MiB per copy (256)
// Exits 1 when a benchmark failed for another reason than the absence of a HIP device.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "hip_support.h"
#include "ratio_reporter.h"

int main(int argc, char** argv) {
  using namespace anygpu_hip_bench;
  using anygpu_bench::RatioReporter;
  benchmark::Initialize(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    long value = 0;
    if (anygpu_bench::size_flag("anygpu_hip_bench", argv[i], "--launches", &value))
      sizes().launches = static_cast<int>(value);
    else if (anygpu_bench::size_flag("anygpu_hip_bench", argv[i], "--copy_mib", &value))
      sizes().copy_bytes = static_cast<size_t>(value) << 20;
    else {
      std::fprintf(stderr,
                   "anygpu_hip_bench: unknown argument %s (besides Google Benchmark's "
                   "--benchmark_* flags: --launches=N --copy_mib=N)\n",
                   argv[i]);
      return 2;
    }
  }
  RatioReporter reporter(
      isatty(STDOUT_FILENO) ? RatioReporter::OO_ColorTabular : RatioReporter::OO_Tabular,
      "no HIP device");
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::fflush(stdout);
  reporter.print_ratio("launch_latency", "anygpu/direct", "hip_launch/anygpu", "hip_launch/direct",
                       false);
  for (const char* direction : {"htod", "dtoh", "dtod"}) {
    const std::string name = std::string("copy_") + direction + "_bandwidth";
    const std::string base = std::string("hip_copy_") + direction;
    reporter.print_ratio(name.c_str(), "anygpu/direct", base + "/anygpu", base + "/direct", true);
  }
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
