// The warp-level CUDA kernels of tests/cuda_sources (warp_reduce, warp_scan, warp_vote,
// warp_softmax): shuffles, votes, __match_any_sync, __syncwarp and the warp-level cooperative
// groups, run on every device present (the CPU, and the CUDA, HIP and Level Zero test drivers in
// their suites), each result checked against a host model of warps of 32 lanes. A warp is 32
// consecutive threads of the block in linear order, so 2-D and 3-D blocks have warps that span
// rows; sizes are not multiples of the block where the kernel allows. Kernels are asked for by
// their mangled names.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "port_inputs.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

constexpr unsigned kWarp = 32;

unsigned popcount(uint32_t bits) {
  unsigned count = 0;
  for (; bits; bits &= bits - 1) ++count;
  return count;
}

// CUDA's __ffs: the 1-based position of the lowest set bit, 0 for none.
unsigned find_first_set(uint32_t bits) {
  for (unsigned bit = 0; bit < 32; ++bit)
    if (bits & (1u << bit)) return bit + 1;
  return 0;
}

struct Block {
  unsigned x, y, z;
  unsigned threads() const { return x * y * z; }
};

std::string shape_name(const Block& b) {
  return std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z);
}

// Inputs whose warps vote differently: warp w (counted through the grid, a partial warp too) has
// all values positive (w % 4 == 0), one zero among positives in its first 16 lanes (1), all
// negative (2), or mixed (3).
std::vector<int> vote_inputs(unsigned grid, unsigned threads) {
  const unsigned warps_per_block = blocks_for(threads, kWarp);
  const std::vector<uint32_t> random = pseudo_random_words(grid * threads, 99u);
  std::vector<int> in(grid * threads);
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < threads; ++t) {
      const unsigned id = b * threads + t, warp = b * warps_per_block + t / kWarp, lane = t % kWarp;
      const int small = static_cast<int>(id % 50);
      switch (warp % 4) {
        case 0:
          in[id] = 1 + small;
          break;
        case 1:
          in[id] = lane == (warp * 5) % 16 ? 0 : 1 + small % 9;
          break;
        case 2:
          in[id] = -1 - small % 13;
          break;
        default:
          in[id] = static_cast<int>(random[id] % 61) - 30;
          break;
      }
    }
  return in;
}

class CudaWarpTest : public ::testing::TestWithParam<int> {
 protected:
  void launch(const char* kernel, unsigned grid, const Block& block, void** params) {
    ASSERT_AG(agLaunchKernel(module.function(kernel), grid, 1, 1, block.x, block.y, block.z, 0,
                             nullptr, params, nullptr));
  }
  ag_device device = device_at(GetParam());
  TestModule module{device};
};

// reduce4/5's load of two elements per thread, then shuffles within each warp and across the
// warps' sums: one partial sum per block, n not a multiple of the block.
TEST_P(CudaWarpTest, ReductionWithWarpShuffles) {
  unsigned n = 100003;
  const std::vector<float> in = whole_numbers(n, 17, 8);
  DeviceBuffer<float> din(device, in);
  const struct {
    const char* kernel;
    unsigned block;
  } instances[] = {{"_Z17reduceWarpShuffleIfLj64EEvPKT_PS0_j", 64},
                   {"_Z17reduceWarpShuffleIfLj256EEvPKT_PS0_j", 256},
                   {"_Z17reduceWarpShuffleIfLj1024EEvPKT_PS0_j", 1024}};
  for (const auto& instance : instances) {
    const unsigned per_block = 2 * instance.block, grid = blocks_for(n, per_block);
    DeviceBuffer<float> dout(device, grid);
    void* params[] = {din.param(), dout.param(), &n};
    launch(instance.kernel, grid, {instance.block, 1, 1}, params);
    std::vector<float> expected(grid, 0.0f);
    for (unsigned i = 0; i < n; ++i) expected[i / per_block] += in[i];
    EXPECT_EQ(expected, dout.download()) << instance.kernel;
  }
}

// The same template on int: the int overload of __shfl_down_sync.
TEST_P(CudaWarpTest, ReductionWithWarpShufflesOfIntegers) {
  unsigned n = 5001;
  std::vector<int> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>((i * 7919u) % 2001u) - 1000;
  DeviceBuffer<int> din(device, in);
  const unsigned block = 128, grid = blocks_for(n, 2 * block);
  DeviceBuffer<int> dout(device, grid);
  void* params[] = {din.param(), dout.param(), &n};
  launch("_Z17reduceWarpShuffleIiLj128EEvPKT_PS0_j", grid, {block, 1, 1}, params);
  std::vector<int> expected(grid, 0);
  for (unsigned i = 0; i < n; ++i) expected[i / (2 * block)] += in[i];
  EXPECT_EQ(expected, dout.download());
}

// cg::reduce over tiles of 32 and a grid-stride loop with fewer blocks than the data needs; blocks
// of one to 32 tiles, 2-D and 3-D ones too (the tiles follow the thread's rank in the block).
TEST_P(CudaWarpTest, CooperativeGroupsReduceGridStride) {
  unsigned n = 100003;
  const std::vector<float> in = whole_numbers(n, 29, 14);
  DeviceBuffer<float> din(device, in);
  const unsigned grid = 13;
  for (const Block& block :
       {Block{128, 1, 1}, Block{32, 4, 1}, Block{8, 4, 2}, Block{32, 1, 1}, Block{1024, 1, 1}}) {
    const unsigned threads = block.threads();
    DeviceBuffer<float> dout(device, grid);
    void* params[] = {din.param(), dout.param(), &n};
    launch("_Z9cg_reduceIfEvPKT_PS0_j", grid, block, params);
    std::vector<float> expected(grid, 0.0f);
    for (unsigned i = 0; i < n; ++i) expected[(i / threads) % grid] += in[i];
    EXPECT_EQ(expected, dout.download()) << "blocks of " << shape_name(block);
  }
}

TEST_P(CudaWarpTest, CooperativeGroupsReduceOfIntegers) {
  unsigned n = 5001;
  std::vector<int> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>((i * 7919u) % 2001u) - 1000;
  DeviceBuffer<int> din(device, in);
  const unsigned grid = 3;
  for (const Block& block : {Block{64, 1, 1}, Block{16, 2, 2}}) {
    DeviceBuffer<int> dout(device, grid);
    void* params[] = {din.param(), dout.param(), &n};
    launch("_Z9cg_reduceIiEvPKT_PS0_j", grid, block, params);
    std::vector<int> expected(grid, 0);
    for (unsigned i = 0; i < n; ++i) expected[(i / block.threads()) % grid] += in[i];
    EXPECT_EQ(expected, dout.download()) << "blocks of " << shape_name(block);
  }
}

// shfl_scan per block (warps of 1, 2, 8 and 32 per block), its block totals scanned by one more
// block of it, and uniform_add: an inclusive scan of the whole array.
TEST_P(CudaWarpTest, InclusiveScanWithShuffles) {
  const struct {
    unsigned block;
    int n;
    unsigned totals_block;  // one block that scans the block totals
  } cases[] = {{256, 70001, 1024}, {64, 3001, 64}, {32, 1000, 32}, {1024, 200003, 256}};
  for (const auto& c : cases) {
    int n = c.n;
    const unsigned grid = blocks_for(static_cast<unsigned>(n), c.block);
    ASSERT_LE(grid, c.totals_block) << "the block totals must fit one block";
    std::vector<int> in(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) in[i] = (i * 37) % 10;
    DeviceBuffer<int> din(device, in), dout(device, std::vector<int>(in.size(), -1)),
        dsums(device, grid), dscanned(device, grid), dtotal(device, 1);
    void* scan_blocks[] = {din.param(), dout.param(), dsums.param(), &n};
    launch("_Z9shfl_scanPKiPiS1_i", grid, {c.block, 1, 1}, scan_blocks);

    const std::vector<int> per_block = dout.download(), sums = dsums.download();
    const int block = static_cast<int>(c.block);
    int running = 0;
    for (int i = 0; i < n; ++i) {
      if (i % block == 0) running = 0;
      running += in[i];
      ASSERT_EQ(running, per_block[i]) << "element " << i << " with blocks of " << block;
      if (i % block == block - 1 || i == n - 1) {
        ASSERT_EQ(running, sums[i / block]) << "block " << i / block << " of " << block;
      }
    }

    int blocks = static_cast<int>(grid);
    void* scan_sums[] = {dsums.param(), dscanned.param(), dtotal.param(), &blocks};
    launch("_Z9shfl_scanPKiPiS1_i", 1, {c.totals_block, 1, 1}, scan_sums);
    void* add[] = {dout.param(), dscanned.param(), &n};
    launch("_Z11uniform_addPiPKii", grid, {c.block, 1, 1}, add);
    const std::vector<int> out = dout.download();
    running = 0;
    for (int i = 0; i < n; ++i) {
      running += in[i];
      ASSERT_EQ(running, out[i]) << "element " << i << " with blocks of " << c.block;
    }
    EXPECT_EQ(running, dtotal.download()[0]) << "blocks of " << c.block;
  }
}

// warp_vote's words for one thread, from its warp's inputs; `defined` is false where CUDA leaves
// the word undefined (a shuffle from a lane a partial warp does not have).
constexpr unsigned kVoteWords = 15;
struct VoteModel {
  uint32_t words[kVoteWords];
  bool defined[kVoteWords];
  double shuffled;
  bool shuffled_defined;
};
// Votes return "non-zero" for true: those words are compared as truth values.
bool is_truth_word(unsigned word, unsigned lane) {
  return word == 3 || word == 4 || (word == 10 && lane % 2 == 1);
}

// `v` holds the warp's `present` values, `first_id` the grid rank of its lane 0.
VoteModel vote_model(const int* v, unsigned present, unsigned first_id, unsigned lane) {
  VoteModel m{};
  std::fill(std::begin(m.defined), std::end(m.defined), true);
  const bool full = present == kWarp;
  uint32_t positive = 0, even_positive = 0;
  bool any_zero = false, all_positive = true, odd_negative = false;
  int sum = 0, maximum = v[0];
  for (unsigned j = 0; j < present; ++j) {
    if (v[j] > 0) positive |= 1u << j;
    if (v[j] > 0 && j % 2 == 0) even_positive |= 1u << j;
    any_zero = any_zero || v[j] == 0;
    all_positive = all_positive && v[j] > 0;
    odd_negative = odd_negative || (j % 2 == 1 && v[j] < 0);
    sum += v[j];
    maximum = std::max(maximum, v[j]);
  }
  m.words[0] = kWarp;
  m.words[1] = full ? 0xffffffffu : (1u << present) - 1;
  m.words[2] = positive;
  m.words[3] = any_zero;
  m.words[4] = all_positive;
  m.words[5] = popcount(positive) + 100 * find_first_set(positive);
  m.words[6] = static_cast<uint32_t>(sum);
  m.defined[6] = full;
  const unsigned broadcast = (lane & ~15u) + 3;
  m.defined[7] = broadcast < present;
  m.words[7] = m.defined[7] ? static_cast<uint32_t>(v[broadcast]) : 0u;
  m.words[8] = static_cast<uint32_t>(maximum);
  m.defined[8] = full;
  m.words[9] = static_cast<uint32_t>(v[full ? kWarp - 1 - lane : lane]);
  m.defined[9] = full;
  m.words[10] = lane % 2 == 0 ? even_positive : (odd_negative ? 1u : 0u);
  const unsigned up = lane == 0 ? 0 : lane - 1;
  m.words[11] = static_cast<uint32_t>(v[up]);
  m.words[12] = first_id + up;
  const unsigned partner = lane ^ 1;
  m.defined[13] = m.defined[14] = partner < present;
  const int64_t wide = m.defined[13] ? int64_t{v[partner]} * 1000000007LL : 0;
  m.words[13] = static_cast<uint32_t>(static_cast<uint64_t>(wide));
  m.words[14] = static_cast<uint32_t>(static_cast<uint64_t>(wide) >> 32);
  const unsigned down = lane + 5 < kWarp ? lane + 5 : lane;
  m.shuffled_defined = down < present;
  m.shuffled = m.shuffled_defined ? v[down] + (first_id + down) / 1048576.0 : 0.0;
  return m;
}

// Every warp function of warp_vote.cu in blocks of whole warps, 1-D, 2-D and 3-D, and in blocks
// whose last warp is partial (lanes that do not exist vote as exited lanes: not at all).
TEST_P(CudaWarpTest, WarpVoteShuffleAndSyncwarp) {
  const unsigned grid = 3;
  for (const Block& block :
       {Block{32, 1, 1}, Block{16, 4, 1}, Block{8, 4, 2}, Block{4, 8, 4}, Block{256, 1, 1},
        Block{16, 3, 1}, Block{10, 5, 1}, Block{100, 1, 1}}) {
    const unsigned threads = block.threads(), total = grid * threads;
    const std::vector<int> in = vote_inputs(grid, threads);
    DeviceBuffer<int> din(device, in);
    DeviceBuffer<uint32_t> dout(device, std::vector<uint32_t>(total * kVoteWords, 0xdeadbeefu));
    DeviceBuffer<double> dshuffled(device, std::vector<double>(total, -1.0));
    void* params[] = {din.param(), dout.param(), dshuffled.param()};
    launch("_Z9warp_votePKiPjPd", grid, block, params);
    const std::vector<uint32_t> out = dout.download();
    const std::vector<double> shuffled = dshuffled.download();
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned t = 0; t < threads; ++t) {
        const unsigned lane = t % kWarp, first_id = b * threads + t - lane, id = first_id + lane;
        const unsigned present = std::min(kWarp, threads - (t - lane));
        const VoteModel m = vote_model(&in[first_id], present, first_id, lane);
        const std::string where = "blocks of " + shape_name(block) + ", block " +
                                  std::to_string(b) + ", thread " + std::to_string(t);
        for (unsigned w = 0; w < kVoteWords; ++w) {
          if (!m.defined[w]) continue;
          const uint32_t actual = out[id * kVoteWords + w];
          if (is_truth_word(w, lane))
            ASSERT_EQ(m.words[w] != 0, actual != 0) << where << ", word " << w;
          else
            ASSERT_EQ(m.words[w], actual) << where << ", word " << w;
        }
        if (m.shuffled_defined) {
          ASSERT_EQ(m.shuffled, shuffled[id]) << where << ", the double";
        }
      }
  }
}

// thread_block_tile<16> and <32>: ranks, sizes, shuffles, votes, cg::reduce and tile.sync, in
// blocks of whole warps whose tiles span rows.
TEST_P(CudaWarpTest, TilePartitionsOf16And32) {
  constexpr unsigned kTileWords = 13;
  const unsigned grid = 3;
  for (const Block& block : {Block{64, 1, 1}, Block{16, 4, 1}, Block{8, 4, 4}, Block{4, 8, 1}}) {
    const unsigned threads = block.threads(), total = grid * threads;
    const std::vector<int> in = vote_inputs(grid, threads);
    DeviceBuffer<int> din(device, in);
    DeviceBuffer<uint32_t> dout(device, std::vector<uint32_t>(total * kTileWords, 0xdeadbeefu));
    void* params[] = {din.param(), dout.param()};
    launch("_Z15tile_partitionsPKiPj", grid, block, params);
    const std::vector<uint32_t> out = dout.download();
    for (unsigned id = 0; id < total; ++id) {
      const unsigned t = id % threads, rank = t % 16, half = id - rank, warp = id - t % kWarp;
      int half_sum = 0, warp_sum = 0, warp_min = in[warp], warp_max = in[warp];
      uint32_t ballot = 0;
      bool half_zero = false, half_positive = true, warp_negative = false;
      for (unsigned r = 0; r < 16; ++r) {
        const int v = in[half + r];
        half_sum += v;
        if (v > 0) ballot |= 1u << r;
        half_zero = half_zero || v == 0;
        half_positive = half_positive && v > 0;
      }
      for (unsigned l = 0; l < kWarp; ++l) {
        const int v = in[warp + l];
        warp_sum += v;
        warp_min = std::min(warp_min, v);
        warp_max = std::max(warp_max, v);
        warp_negative = warp_negative || v < 0;
      }
      const uint32_t expected[kTileWords] = {
          rank + 100 * (t / 16) + 10000 * (threads / 16),
          t % kWarp + 100 * (t / kWarp) + 10000 * (threads / kWarp),
          16 + 100 * 16 + 10000 * kWarp,
          static_cast<uint32_t>(in[half + 5]),
          static_cast<uint32_t>(in[rank + 3 < 16 ? id + 3 : id]),
          static_cast<uint32_t>(in[rank >= 2 ? id - 2 : id]),
          static_cast<uint32_t>(in[half + (rank ^ 9)]),
          ballot,
          (half_zero ? 1u : 0u) + (half_positive ? 2u : 0u) + (warp_negative ? 4u : 0u),
          static_cast<uint32_t>(half_sum),
          static_cast<uint32_t>(warp_min + 1000 * warp_max),
          static_cast<uint32_t>(warp_sum),
          static_cast<uint32_t>(in[half + (rank ^ 15)])};
      for (unsigned w = 0; w < kTileWords; ++w)
        ASSERT_EQ(expected[w], out[id * kTileWords + w])
            << "blocks of " << shape_name(block) << ", thread " << id << ", word " << w;
    }
  }
}

// Warp-aggregated atomics: the histogram, and every element's slot in its bin (the slots of a bin
// are 0 .. count - 1, each once). Keys random over few and many bins, all equal (whole warps
// match), and in runs; n not a multiple of the block.
TEST_P(CudaWarpTest, HistogramWithMatchAny) {
  const std::vector<uint32_t> random = pseudo_random_words(10007, 2024u);
  std::vector<uint32_t> runs(4099);
  for (size_t i = 0; i < runs.size(); ++i) runs[i] = static_cast<uint32_t>(i / 5);
  const struct {
    const char* name;
    std::vector<uint32_t> keys;
    int bins;
    unsigned block;
  } cases[] = {{"random keys in 7 bins", random, 7, 128},
               {"random keys in 1000 bins", random, 1000, 256},
               {"equal keys", std::vector<uint32_t>(5000, 42u), 16, 64},
               {"runs of five", runs, 64, 96}};
  for (const auto& c : cases) {
    int n = static_cast<int>(c.keys.size()), bins = c.bins;
    DeviceBuffer<uint32_t> dkeys(device, c.keys),
        dhistogram(device, std::vector<uint32_t>(static_cast<size_t>(bins), 0u)),
        dslots(device, std::vector<uint32_t>(c.keys.size(), 0xffffffffu));
    void* params[] = {dkeys.param(), dhistogram.param(), dslots.param(), &n, &bins};
    launch("_Z19histogram_match_anyPKjPjS1_ii", blocks_for(static_cast<unsigned>(n), c.block),
           {c.block, 1, 1}, params);
    std::vector<uint32_t> expected(static_cast<size_t>(bins), 0u);
    for (uint32_t key : c.keys) ++expected[key % static_cast<uint32_t>(bins)];
    EXPECT_EQ(expected, dhistogram.download()) << c.name;
    const std::vector<uint32_t> slots = dslots.download();
    std::vector<std::vector<uint32_t>> per_bin(static_cast<size_t>(bins));
    for (size_t i = 0; i < c.keys.size(); ++i)
      per_bin[c.keys[i] % static_cast<uint32_t>(bins)].push_back(slots[i]);
    for (size_t bin = 0; bin < per_bin.size(); ++bin) {
      std::sort(per_bin[bin].begin(), per_bin[bin].end());
      for (size_t k = 0; k < per_bin[bin].size(); ++k)
        ASSERT_EQ(k, per_bin[bin][k]) << c.name << ": slots of bin " << bin;
    }
  }
}

// One warp per row: softmax with cg::reduce's greater and plus, rows not a multiple of the warps
// of a block, rows shorter than a warp and longer than several, and rows whose raw exponentials
// would overflow a float.
TEST_P(CudaWarpTest, SoftmaxForwardWarpPerRow) {
  int rows = 300;
  for (int channels : {20, 65, 300}) {
    std::vector<float> in(static_cast<size_t>(rows) * channels);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = std::cos(0.11f * static_cast<float>(i)) * 8.0f +
              ((i / channels) % 3 == 0 ? 100.0f : 0.0f);
    DeviceBuffer<float> din(device, in);
    for (const Block& block : {Block{32, 1, 1}, Block{128, 1, 1}, Block{32, 4, 1}}) {
      const unsigned warps = block.threads() / kWarp;
      DeviceBuffer<float> dout(device, std::vector<float>(in.size(), -1.0f));
      void* params[] = {dout.param(), din.param(), &rows, &channels};
      launch("_Z27softmax_forward_warp_kernelPfPKfii", blocks_for(rows, warps), block, params);
      const std::vector<float> out = dout.download();
      for (int r = 0; r < rows; ++r) {
        const float* row = &in[static_cast<size_t>(r) * channels];
        double maxval = row[0], sum = 0.0;
        for (int c = 0; c < channels; ++c) maxval = std::max<double>(maxval, row[c]);
        for (int c = 0; c < channels; ++c) sum += std::exp(row[c] - maxval);
        for (int c = 0; c < channels; ++c) {
          const double expected = std::exp(row[c] - maxval) / sum;
          ASSERT_NEAR(expected, out[static_cast<size_t>(r) * channels + c], 1e-5 * expected + 1e-7)
              << "blocks of " << shape_name(block) << ", " << channels << " channels, row " << r
              << " column " << c;
        }
      }
    }
  }
}

// One warp per row: LayerNorm's mean and variance with cg::reduce's plus; mean and rstd kept, and
// left out when the pointers are null.
TEST_P(CudaWarpTest, LayerNormForwardWarpPerRow) {
  int rows = 300;
  for (int channels : {20, 77, 300}) {
    const size_t size = static_cast<size_t>(rows) * channels;
    std::vector<float> in(size), weight(channels), bias(channels);
    for (size_t i = 0; i < size; ++i) in[i] = std::sin(0.37f * static_cast<float>(i)) * 3.0f;
    for (int c = 0; c < channels; ++c) {
      weight[c] = 0.5f + 0.01f * (c % 50);
      bias[c] = 0.1f * (c % 5) - 0.2f;
    }
    DeviceBuffer<float> din(device, in), dweight(device, weight), dbias(device, bias);
    for (const Block& block : {Block{128, 1, 1}, Block{32, 2, 1}}) {
      const unsigned grid = blocks_for(rows, block.threads() / kWarp);
      DeviceBuffer<float> dout(device, size), dmean(device, rows), drstd(device, rows),
          dout_alone(device, size);
      void* params[] = {dout.param(),    dmean.param(), drstd.param(), din.param(),
                        dweight.param(), dbias.param(), &rows,         &channels};
      launch("_Z25layernorm_forward_kernel3PfS_S_PKfS1_S1_ii", grid, block, params);
      float* none = nullptr;
      void* without_stats[] = {dout_alone.param(), &none,         &none, din.param(),
                               dweight.param(),    dbias.param(), &rows, &channels};
      launch("_Z25layernorm_forward_kernel3PfS_S_PKfS1_S1_ii", grid, block, without_stats);
      const std::vector<float> out = dout.download(), mean = dmean.download(),
                               rstd = drstd.download();
      EXPECT_EQ(out, dout_alone.download()) << "blocks of " << shape_name(block);
      for (int r = 0; r < rows; ++r) {
        const float* x = &in[static_cast<size_t>(r) * channels];
        double m = 0.0, var = 0.0;
        for (int c = 0; c < channels; ++c) m += x[c];
        m /= channels;
        for (int c = 0; c < channels; ++c) var += (x[c] - m) * (x[c] - m);
        var /= channels;
        const double s = 1.0 / std::sqrt(var + 1e-5);
        const std::string where = "blocks of " + shape_name(block) + ", " +
                                  std::to_string(channels) + " channels, row " + std::to_string(r);
        ASSERT_NEAR(m, mean[r], 1e-5) << where;
        ASSERT_NEAR(s, rstd[r], 2e-5 * s) << where;
        for (int c = 0; c < channels; ++c) {
          const double expected = s * (x[c] - m) * weight[c] + bias[c];
          ASSERT_NEAR(expected, out[static_cast<size_t>(r) * channels + c],
                      1e-4 * (1.0 + std::fabs(expected)))
              << where << " channel " << c;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, CudaWarpTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
