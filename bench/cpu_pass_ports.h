// The CUDA kernels ported in tests/cuda_sources/*.cu as workloads of anygpu_cpu_pass_bench: the
// anygpu side builds those very sources (image pass_bench_cuda_ports), OpenMP and PoCL run the same
// algorithm their own way. Shapes and inputs every variant shares live here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cpu_pass_bench.h"

namespace cpu_pass_bench::ports {

// The workloads, by the name of their .cu file.
bool is_port(const std::string& workload);

// Launch shapes, as the CUDA samples (and llm.c) choose them.
constexpr unsigned kReduceBlock = 256;   // reduceGridStride<float, 256>
constexpr unsigned kReduceGrid = 64;     // the reduction sample's maxBlocks
constexpr int kMatrixTile = 32;          // MatrixMulCUDA<32>, the matrixMul sample's default
constexpr unsigned kTransposeTile = 32;  // TILE_DIM x BLOCK_ROWS threads
constexpr unsigned kTransposeRows = 8;
constexpr unsigned kScanBlock = 256;          // 512 elements per block
constexpr unsigned kHistogramPartials = 240;  // the sample's PARTIAL_HISTOGRAM256_COUNT
constexpr unsigned kHistogramBlock = 256;
constexpr unsigned kOptionsGrid = 480;  // BlackScholesGPU<<<480, 128>>>, a grid-stride loop
constexpr unsigned kOptionsBlock = 128;
constexpr unsigned kRowBlock = 256;  // llm.c's layernorm and softmax, one row per thread
constexpr float kRiskfree = 0.02f, kVolatility = 0.30f;
constexpr unsigned kBodyBlock = 256;  // the nbody sample's default block size: bodies per tile
constexpr float kBodyStep = 0.01f, kBodyDamping = 0.995f, kBodySoftening2 = 0.01f;

// Inputs. Whole numbers in {-1, 0, 1} for the sums (reduction, scan): exact in any order, so
// the variants must agree to the bit.
std::vector<float> whole_numbers(size_t count, int seed);
std::vector<uint32_t> words(size_t count, int seed);  // histogram256's bytes, four per word
struct Options {
  std::vector<float> price, strike, years;
};
Options options(size_t count);
struct Rows {  // layernorm_forward: rows x columns values, a weight and a bias per column
  std::vector<float> values, weight, bias;
};
Rows rows(int rows, int columns);
struct Bodies {  // nbody: float4 each (x, y, z and the mass in w)
  std::vector<float> position, velocity;
};
Bodies bodies(size_t count);

// Scan's launches for n elements: the block totals of each level are scanned by the next level.
std::vector<unsigned> scan_levels(unsigned n);  // element counts, n first, down to one block

std::unique_ptr<Runner> make_anygpu(const std::string& workload, const Problem& problem,
                                    bool loops);
std::unique_ptr<Runner> make_openmp(const std::string& workload, const Problem& problem);
std::unique_ptr<Runner> make_pocl(const std::string& workload, const Problem& problem);

}  // namespace cpu_pass_bench::ports
