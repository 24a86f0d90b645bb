// The ported CUDA kernels' algorithms as a C++ programmer writes them for the CPU: sequential
// loops with `#pragma omp parallel for` (and `simd` where the loop is a plain sum), no blocks.
#include <omp.h>

#include <cmath>
#include <functional>

#include "cpu_pass_ports.h"

namespace cpu_pass_bench::ports {
namespace {

// The Black-Scholes formula in float, with the CUDA sample's polynomial for the normal CDF.
inline float cnd(float d) {
  const float k = 1.0f / (1.0f + 0.2316419f * std::fabs(d));
  const float poly =
      k * (0.31938153f +
           k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  const float c = 0.39894228040143267793994605993438f * std::exp(-0.5f * d * d) * poly;
  return d > 0 ? 1.0f - c : c;
}

class OpenmpPortRunner : public Runner {
 public:
  OpenmpPortRunner(const std::string& workload, const Problem& p) {
    const size_t n = (size_t)p.n;
    if (workload == "reduction" || workload == "warp_reduction") {
      a_ = whole_numbers(n, 1);
      out_.assign(1, 0.0f);
      run_ = [this, n] {
        const float* x = a_.data();
        float sum = 0.0f;
#pragma omp parallel for simd reduction(+ : sum)
        for (size_t i = 0; i < n; ++i) sum += x[i];
        out_[0] = sum;
      };
    } else if (workload == "matrix_mul") {  // i-k-j: the inner loop is unit-stride
      a_ = input(n * n, 1);
      b_ = input(n * n, 2);
      out_.assign(n * n, 0.0f);
      run_ = [this, n] {
        const float *a = a_.data(), *b = b_.data();
        float* c = out_.data();
#pragma omp parallel for
        for (size_t i = 0; i < n; ++i) {
          float* row = c + i * n;
          for (size_t j = 0; j < n; ++j) row[j] = 0.0f;
          for (size_t k = 0; k < n; ++k) {
            const float aik = a[i * n + k];
            for (size_t j = 0; j < n; ++j) row[j] += aik * b[k * n + j];
          }
        }
      };
    } else if (workload == "transpose") {  // 32 x 32 tiles, so both sides stay in cache
      a_ = input(n * n, 1);
      out_.assign(n * n, 0.0f);
      run_ = [this, n] {
        const float* in = a_.data();
        float* out = out_.data();
#pragma omp parallel for collapse(2)
        for (size_t ti = 0; ti < n; ti += 32)
          for (size_t tj = 0; tj < n; tj += 32)
            for (size_t i = ti; i < ti + 32 && i < n; ++i)
              for (size_t j = tj; j < tj + 32 && j < n; ++j) out[j * n + i] = in[i * n + j];
      };
    } else if (workload == "scan") {  // OpenMP 5's scan directive
      a_ = whole_numbers(n, 1);
      out_.assign(n, 0.0f);
      run_ = [this, n = (long)n] {
        const float* in = a_.data();
        float* out = out_.data();
        float sum = 0.0f;
#pragma omp parallel for reduction(inscan, + : sum)
        for (long i = 0; i < n; ++i) {
          out[i] = sum;
#pragma omp scan exclusive(sum)
          sum += in[i];
        }
      };
    } else if (workload == "histogram256") {  // an array reduction: a histogram per thread
      words_ = words(n, 1);
      out_.assign(256, 0.0f);
      run_ = [this, n] {
        const uint32_t* data = words_.data();
        uint32_t histogram[256] = {};
#pragma omp parallel for reduction(+ : histogram[ : 256])
        for (size_t i = 0; i < n; ++i) {
          const uint32_t word = data[i];
          ++histogram[word & 0xFFu];
          ++histogram[(word >> 8) & 0xFFu];
          ++histogram[(word >> 16) & 0xFFu];
          ++histogram[word >> 24];
        }
        for (int bin = 0; bin < 256; ++bin) out_[bin] = (float)histogram[bin];
      };
    } else if (workload == "black_scholes") {  // call prices, then put prices
      options_ = options(n);
      out_.assign(2 * n, 0.0f);
      run_ = [this, n] {
        const Options& o = options_;
        float *call = out_.data(), *put = out_.data() + n;
        const float r = kRiskfree, v = kVolatility;
#pragma omp parallel for
        for (size_t i = 0; i < n; ++i) {
          const float s = o.price[i], x = o.strike[i], t = o.years[i];
          const float sqrt_t = std::sqrt(t);
          const float d1 = (std::log(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
          const float d2 = d1 - v * sqrt_t;
          const float cnd1 = cnd(d1), cnd2 = cnd(d2);
          const float discounted = x * std::exp(-r * t);
          call[i] = s * cnd1 - discounted * cnd2;
          put[i] = discounted * (1.0f - cnd2) - s * (1.0f - cnd1);
        }
      };
    } else if (workload == "layernorm_forward") {  // llm.c's CPU layernorm, rows in parallel
      rows_ = rows(p.n, p.columns);
      out_.assign(n * p.columns + 2 * n, 0.0f);  // out, then mean, then rstd
      run_ = [this, n, c = (size_t)p.columns] {
        const float *in = rows_.values.data(), *w = rows_.weight.data(), *b = rows_.bias.data();
        float *out = out_.data(), *mean = out + n * c, *rstd = mean + n;
#pragma omp parallel for
        for (size_t row = 0; row < n; ++row) {
          const float* x = in + row * c;
          float m = 0.0f;
          for (size_t i = 0; i < c; ++i) m += x[i];
          m /= (float)c;
          float var = 0.0f;
          for (size_t i = 0; i < c; ++i) var += (x[i] - m) * (x[i] - m);
          var /= (float)c;
          const float s = 1.0f / std::sqrt(var + 1e-5f);
          float* y = out + row * c;
          for (size_t i = 0; i < c; ++i) y[i] = s * (x[i] - m) * w[i] + b[i];
          mean[row] = m;
          rstd[row] = s;
        }
      };
    } else if (workload == "softmax_forward") {  // llm.c's CPU softmax, rows in parallel
      a_ = input(n * p.columns, 31);
      for (float& v : a_) v *= 8.0f;
      out_.assign(n * p.columns, 0.0f);
      run_ = [this, n, c = (size_t)p.columns] {
#pragma omp parallel for
        for (size_t row = 0; row < n; ++row) {
          const float* x = a_.data() + row * c;
          float* y = out_.data() + row * c;
          float maxval = -INFINITY;
          for (size_t j = 0; j < c; ++j)
            if (x[j] > maxval) maxval = x[j];
          double sum = 0.0;
          for (size_t j = 0; j < c; ++j) {
            y[j] = std::exp(x[j] - maxval);
            sum += y[j];
          }
          for (size_t j = 0; j < c; ++j) y[j] /= (float)sum;
        }
      };
    } else if (workload == "nbody") {  // all pairs, bodies in parallel, the inner sum in SIMD
      const Bodies b = bodies(n);
      a_ = b.position;
      b_ = b.velocity;
      out_.assign(8 * n, 0.0f);  // the new positions, then the new velocities
      run_ = [this, n] {
        const float *position = a_.data(), *velocity = b_.data();
        float *new_position = out_.data(), *new_velocity = out_.data() + 4 * n;
#pragma omp parallel for
        for (size_t i = 0; i < n; ++i) {
          const float x = position[4 * i], y = position[4 * i + 1], z = position[4 * i + 2];
          float ax = 0.0f, ay = 0.0f, az = 0.0f;
#pragma omp simd reduction(+ : ax, ay, az)
          for (size_t j = 0; j < n; ++j) {
            const float rx = position[4 * j] - x, ry = position[4 * j + 1] - y,
                        rz = position[4 * j + 2] - z;
            const float inverse = 1.0f / std::sqrt(rx * rx + ry * ry + rz * rz + kBodySoftening2);
            const float s = position[4 * j + 3] * inverse * inverse * inverse;
            ax += rx * s;
            ay += ry * s;
            az += rz * s;
          }
          const float acceleration[3] = {ax, ay, az};
          for (int k = 0; k < 3; ++k) {
            const float v = (velocity[4 * i + k] + acceleration[k] * kBodyStep) * kBodyDamping;
            new_velocity[4 * i + k] = v;
            new_position[4 * i + k] = position[4 * i + k] + v * kBodyStep;
          }
          new_velocity[4 * i + 3] = velocity[4 * i + 3];
          new_position[4 * i + 3] = position[4 * i + 3];
        }
      };
    } else {
      error = "no workload " + workload;
    }
  }

  void run() override { run_(); }
  std::vector<float> result() override { return out_; }

 private:
  std::vector<float> a_, b_, out_;
  std::vector<uint32_t> words_;
  Options options_;
  Rows rows_;
  std::function<void()> run_;
};

}  // namespace

std::unique_ptr<Runner> make_openmp(const std::string& workload, const Problem& problem) {
  return std::make_unique<OpenmpPortRunner>(workload, problem);
}

}  // namespace cpu_pass_bench::ports
