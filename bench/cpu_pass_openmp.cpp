// Plain OpenMP loops over the same data, where the workload has one: what a C++ programmer would
// write without a GPU model. None for smooth_steps (its barriers are the point) or empty. `copy`
// has only this variant: the machine's copy bandwidth, which bandwidth-bound kernels are held to.
#include <omp.h>

#include "cpu_pass_bench.h"

namespace cpu_pass_bench {
namespace {

class OpenmpRunner : public Runner {
 public:
  OpenmpRunner(const std::string& workload, const Problem& problem)
      : workload_(workload), n_(problem.n) {
    const size_t n = (size_t)n_;
    if (workload == "saxpy") {
      x_ = input(n, 1);
      out_ = input(n, 2);
    } else if (workload == "block_reduce") {
      x_ = input(n, 1);
      out_.assign((n + 255) / 256, 0.0f);
    } else if (workload == "sgemm_tiled") {
      x_ = input(n * n, 1);
      y_ = input(n * n, 2);
      out_.assign(n * n, 0.0f);
    } else if (workload == "transpose_shared") {
      x_ = input(n * n, 1);
      out_.assign(n * n, 0.0f);
    } else if (workload == "copy") {
      x_ = input(n, 1);
      out_.assign(n, 0.0f);
    }
  }

  void run() override {
    const int n = n_;
    float* out = out_.data();
    const float* x = x_.data();
    const float* y = y_.data();
    if (workload_ == "saxpy") {
#pragma omp parallel for simd schedule(static)
      for (int i = 0; i < n; ++i) out[i] = 2.0f * x[i] + out[i];
    } else if (workload_ == "block_reduce") {
      const int blocks = (n + 255) / 256;
#pragma omp parallel for schedule(static)
      for (int b = 0; b < blocks; ++b) {
        float sum = 0.0f;
        const int end = b * 256 + 256 < n ? b * 256 + 256 : n;
#pragma omp simd reduction(+ : sum)
        for (int i = b * 256; i < end; ++i) sum += x[i];
        out[b] = sum;
      }
    } else if (workload_ == "sgemm_tiled") {  // i-k-j: the inner loop is unit-stride
#pragma omp parallel for schedule(static)
      for (int i = 0; i < n; ++i) {
        float* row = out + (size_t)i * n;
        for (int j = 0; j < n; ++j) row[j] = 0.0f;
        for (int k = 0; k < n; ++k) {
          const float a = x[(size_t)i * n + k];
          const float* b = y + (size_t)k * n;
#pragma omp simd
          for (int j = 0; j < n; ++j) row[j] += a * b[j];
        }
      }
    } else if (workload_ == "copy") {  // the machine's copy bandwidth, as STREAM's Copy
#pragma omp parallel for simd schedule(static)
      for (int i = 0; i < n; ++i) out[i] = x[i];
    } else if (workload_ == "transpose_shared") {  // 32 x 32 tiles, as the kernel
#pragma omp parallel for collapse(2) schedule(static)
      for (int ti = 0; ti < n; ti += 32)
        for (int tj = 0; tj < n; tj += 32)
          for (int i = ti; i < ti + 32 && i < n; ++i)
            for (int j = tj; j < tj + 32 && j < n; ++j)
              out[(size_t)j * n + i] = x[(size_t)i * n + j];
    }
  }
  std::vector<float> result() override { return out_; }

 private:
  std::string workload_;
  int n_;
  std::vector<float> x_, y_, out_;
};

}  // namespace

std::unique_ptr<Runner> make_openmp(const std::string& workload, const Problem& problem) {
  if (workload == "smooth_steps" || workload.rfind("empty", 0) == 0) return nullptr;
  return std::make_unique<OpenmpRunner>(workload, problem);
}

}  // namespace cpu_pass_bench
