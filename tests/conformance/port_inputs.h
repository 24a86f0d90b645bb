// Inputs and grid sizes the tests of the ported CUDA kernels share (cuda_ports_test.cpp,
// cuda_warp_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace anygpu_test {

inline unsigned blocks_for(unsigned n, unsigned per_block) {
  return (n + per_block - 1) / per_block;
}

// Small whole numbers, so that every float sum is exact in any order.
inline std::vector<float> whole_numbers(size_t n, int period, int shift) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i)
    values[i] = static_cast<float>(static_cast<int>(i % period) - shift);
  return values;
}

// A reproducible stream of 32-bit values (a linear congruential generator).
inline std::vector<uint32_t> pseudo_random_words(size_t n, uint32_t seed) {
  std::vector<uint32_t> words(n);
  for (uint32_t& word : words) word = seed = seed * 1664525u + 1013904223u;
  return words;
}

}  // namespace anygpu_test
