// anygpu_cuda_bench's main (gpu_bench_main): Google Benchmark's flags, the problem sizes, and after
// the run one line per comparison, "ratio <what> <a>/<b> = <value>", which tests/gpu/run-cuda.sh
// collects: those of the shared benchmarks, then module_load and saxpy_bandwidth.
//   --launches=N   empty-kernel launches per timed iteration (10000)
//   --copy_mib=N   MiB per copy (256)
//   --saxpy_mib=N  MiB per saxpy vector (256)
// Exits 1 when a benchmark failed for another reason than the absence of a CUDA device.
#include "gpu_support.h"
#include "ratio_reporter.h"

int main(int argc, char** argv) {
  return anygpu_bench::gpu_bench_main(
      argc, argv, "cuda", "CUDA", true, [](const anygpu_bench::RatioReporter& reporter) {
        reporter.print_ratio("module_load", "anygpu/direct", "cuda_module_load/anygpu",
                             "cuda_module_load/direct", false);
        reporter.print_ratio("saxpy_bandwidth", "saxpy/copy", "cuda_saxpy/anygpu",
                             "cuda_copy_dtod/direct", true);
      });
}
