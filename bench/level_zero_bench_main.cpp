// anygpu_level_zero_bench's main (gpu_bench_main): Google Benchmark's flags, the problem sizes,
// and after the run one line per comparison, "ratio <what> <a>/<b> = <value>", which
// tests/gpu/run-level-zero.sh collects.
//   --launches=N   empty-kernel launches per timed iteration (10000)
//   --copy_mib=N   MiB per copy (256)
// Exits 1 when a benchmark failed for another reason than the absence of a Level Zero device.
#include "gpu_support.h"

int main(int argc, char** argv) {
  return anygpu_bench::gpu_bench_main(argc, argv, "level_zero", "Level Zero", false, nullptr);
}
