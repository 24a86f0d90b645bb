// The inputs of the ported CUDA kernels' workloads, the same for every variant.
#include <cmath>

#include "cpu_pass_ports.h"

namespace cpu_pass_bench::ports {

bool is_port(const std::string& workload) {
  for (const char* name :
       {"reduction", "warp_reduction", "matrix_mul", "transpose", "scan", "histogram256",
        "black_scholes", "layernorm_forward", "softmax_forward", "nbody"})
    if (workload == name) return true;
  return false;
}

std::vector<float> whole_numbers(size_t count, int seed) {
  std::vector<float> values = input(count, seed);
  for (float& v : values) v = std::round(v);
  return values;
}

std::vector<uint32_t> words(size_t count, int seed) {
  std::vector<uint32_t> values(count);
  uint32_t state = 12345u + (uint32_t)seed;
  for (uint32_t& v : values) v = state = state * 1664525u + 1013904223u;
  return values;
}

Options options(size_t count) {
  Options o{input(count, 11), input(count, 12), input(count, 13)};
  for (size_t i = 0; i < count; ++i) {          // input() is in [-1, 1]
    o.price[i] = 17.5f + 12.5f * o.price[i];    // 5 to 30
    o.strike[i] = 50.5f + 49.5f * o.strike[i];  // 1 to 100
    o.years[i] = 5.125f + 4.875f * o.years[i];  // 0.25 to 10
  }
  return o;
}

Rows rows(int rows, int columns) {
  Rows r{input((size_t)rows * columns, 21), std::vector<float>(columns),
         std::vector<float>(columns)};
  for (float& v : r.values) v *= 3.0f;
  for (int c = 0; c < columns; ++c) {
    r.weight[c] = 0.5f + 0.001f * (float)(c % 1000);
    r.bias[c] = 0.1f * (float)(c % 5) - 0.2f;
  }
  return r;
}

std::vector<unsigned> scan_levels(unsigned n) {
  std::vector<unsigned> levels = {n};
  while (levels.back() > 2 * kScanBlock)
    levels.push_back((levels.back() + 2 * kScanBlock - 1) / (2 * kScanBlock));
  return levels;
}

Bodies bodies(size_t count) {
  Bodies b{input(4 * count, 41), input(4 * count, 42)};
  for (size_t i = 0; i < count; ++i) {  // input() is in [-1, 1]
    for (int k = 0; k < 3; ++k) b.position[4 * i + k] *= 4.0f;
    b.position[4 * i + 3] = 1.25f + 0.75f * b.position[4 * i + 3];  // masses 0.5 to 2
    b.velocity[4 * i + 3] = 0.0f;
  }
  return b;
}

}  // namespace cpu_pass_bench::ports
