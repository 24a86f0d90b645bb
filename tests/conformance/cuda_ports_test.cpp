// Well-known CUDA kernels ported as CUDA code (tests/cuda_sources: reduction, matrixMul,
// transpose, scan, histogram256, BlackScholes, nbody, llm.c's layernorm and softmax), run on every
// device present (the CPU, and the CUDA, HIP and Level Zero test drivers in their suites), each
// result checked against a host reference. Sizes are not multiples of the block where the kernel
// allows. Kernels are asked for by their mangled names (`anygpu-pack list` prints them).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include <anygpu/vector_types.h>

#include "port_inputs.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

class CudaPortTest : public ::testing::TestWithParam<int> {
 protected:
  void launch(const char* kernel, unsigned grid_x, unsigned grid_y, unsigned block_x,
              unsigned block_y, unsigned shared, void** params) {
    ASSERT_AG(agLaunchKernel(module.function(kernel), grid_x, grid_y, 1, block_x, block_y, 1,
                             shared, nullptr, params, nullptr));
  }
  ag_device device = device_at(GetParam());
  TestModule module{device};
};

// reduce0..reduce3: one partial sum per block, for two block sizes, n not a multiple of either.
TEST_P(CudaPortTest, ReductionSteps) {
  unsigned n = 100003;
  const std::vector<float> in = whole_numbers(n, 17, 8);
  DeviceBuffer<float> din(device, in);
  const struct {
    const char* kernel;
    unsigned elements_per_thread;
  } steps[] = {{"_Z7reduce0IfEvPT_S1_j", 1},
               {"_Z7reduce1IfEvPT_S1_j", 1},
               {"_Z7reduce2IfEvPT_S1_j", 1},
               {"_Z7reduce3IfEvPT_S1_j", 2}};
  for (const auto& step : steps) {
    for (unsigned block : {64u, 256u}) {
      const unsigned per_block = block * step.elements_per_thread;
      const unsigned grid = blocks_for(n, per_block);
      DeviceBuffer<float> dout(device, grid);
      void* params[] = {din.param(), dout.param(), &n};
      launch(step.kernel, grid, 1, block, 1, block * sizeof(float), params);
      std::vector<float> expected(grid, 0.0f);
      for (unsigned i = 0; i < n; ++i) expected[i / per_block] += in[i];
      EXPECT_EQ(expected, dout.download()) << step.kernel << " with blocks of " << block;
    }
  }
}

// The same kernel template on another element type.
TEST_P(CudaPortTest, ReductionOfIntegers) {
  unsigned n = 5001;
  std::vector<int> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int>((i * 7919u) % 2001u) - 1000;
  DeviceBuffer<int> din(device, in);
  const unsigned block = 128, grid = blocks_for(n, 2 * block);
  DeviceBuffer<int> dout(device, grid);
  void* params[] = {din.param(), dout.param(), &n};
  launch("_Z7reduce3IiEvPT_S1_j", grid, 1, block, 1, block * sizeof(int), params);
  std::vector<int> expected(grid, 0);
  for (unsigned i = 0; i < n; ++i) expected[i / (2 * block)] += in[i];
  EXPECT_EQ(expected, dout.download());
}

// The block size as a template parameter, and fewer blocks than the data needs: the grid-stride
// loop covers the rest. The partial sums add up to the whole.
TEST_P(CudaPortTest, ReductionTemplatedOnBlockSize) {
  unsigned n = 77777;
  const std::vector<float> in = whole_numbers(n, 29, 14);
  DeviceBuffer<float> din(device, in);
  const struct {
    const char* kernel;
    unsigned block;
  } instances[] = {{"_Z16reduceGridStrideIfLj64EEvPKT_PS0_j", 64},
                   {"_Z16reduceGridStrideIfLj256EEvPKT_PS0_j", 256}};
  for (const auto& instance : instances) {
    const unsigned grid = 24, block = instance.block, stride = 2 * block * grid;
    DeviceBuffer<float> dout(device, grid);
    void* params[] = {din.param(), dout.param(), &n};
    launch(instance.kernel, grid, 1, block, 1, block * sizeof(float), params);
    std::vector<float> expected(grid, 0.0f);
    for (unsigned i = 0; i < n; ++i) expected[(i % stride) / (2 * block)] += in[i];
    EXPECT_EQ(expected, dout.download()) << instance.kernel;
  }
}

// C = A * B with BLOCK_SIZE 16 and 32; the sizes are multiples of the tile, as the kernel requires.
TEST_P(CudaPortTest, MatrixMulTemplatedTile) {
  const struct {
    const char* kernel;
    int tile;
  } instances[] = {{"_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii", 16},
                   {"_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii", 32}};
  for (const auto& instance : instances) {
    const int t = instance.tile, hA = 3 * t;
    int wA = 5 * t, wB = 2 * t;
    const std::vector<float> a = whole_numbers(static_cast<size_t>(hA) * wA, 7, 3);
    const std::vector<float> b = whole_numbers(static_cast<size_t>(wA) * wB, 5, 2);
    DeviceBuffer<float> da(device, a), db(device, b), dc(device, static_cast<size_t>(hA) * wB);
    void* params[] = {dc.param(), da.param(), db.param(), &wA, &wB};
    launch(instance.kernel, wB / t, hA / t, t, t, 0, params);
    const std::vector<float> c = dc.download();
    for (int row = 0; row < hA; ++row)
      for (int col = 0; col < wB; ++col) {
        float expected = 0.0f;
        for (int k = 0; k < wA; ++k) expected += a[row * wA + k] * b[k * wB + col];
        ASSERT_EQ(expected, c[row * wB + col]) << instance.kernel << " at " << row << "," << col;
      }
  }
}

// Three transposes of a matrix whose sizes are not multiples of the 32 x 32 tile.
TEST_P(CudaPortTest, TransposeThreeWays) {
  int width = 101, height = 70;
  std::vector<float> in(static_cast<size_t>(width) * height);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  DeviceBuffer<float> din(device, in);
  for (const char* kernel : {"_Z14transposeNaivePfPKfii", "_Z18transposeCoalescedPfPKfii",
                             "_Z24transposeNoBankConflictsPfPKfii"}) {
    DeviceBuffer<float> dout(device, std::vector<float>(in.size(), -1.0f));
    void* params[] = {dout.param(), din.param(), &width, &height};
    launch(kernel, blocks_for(width, 32), blocks_for(height, 32), 32, 8, 0, params);
    const std::vector<float> out = dout.download();
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        ASSERT_EQ(in[y * width + x], out[x * height + y]) << kernel << " at " << x << "," << y;
  }
}

// An exclusive scan of the whole array: per-block scans, a scan of the block totals by a second
// launch of the same kernel, then each block's offset added.
TEST_P(CudaPortTest, WorkEfficientScanWithBlockSums) {
  for (unsigned block : {128u, 256u}) {
    int n = block == 128 ? 3001 : 70001;
    const std::vector<float> in = whole_numbers(n, 10, 0);
    const unsigned per_block = 2 * block, grid = blocks_for(n, per_block);
    ASSERT_LE(grid, per_block) << "the block totals must fit one block";
    DeviceBuffer<float> din(device, in), dout(device, n), dsums(device, grid),
        doffsets(device, grid), dtotal(device, 1);
    const unsigned shared = per_block * sizeof(float);
    void* scan_blocks[] = {dout.param(), din.param(), dsums.param(), &n};
    launch("_Z7prescanPfPKfS_i", grid, 1, block, 1, shared, scan_blocks);
    int sums = static_cast<int>(grid);
    void* scan_sums[] = {doffsets.param(), dsums.param(), dtotal.param(), &sums};
    launch("_Z7prescanPfPKfS_i", 1, 1, block, 1, shared, scan_sums);
    void* add[] = {dout.param(), doffsets.param(), &n};
    launch("_Z10uniformAddPfPKfi", grid, 1, block, 1, 0, add);
    const std::vector<float> out = dout.download();
    float running = 0.0f;
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(running, out[i]) << "element " << i << " with blocks of " << block;
      running += in[i];
    }
    EXPECT_EQ(running, dtotal.download()[0]);
  }
}

// Per-block histograms counted with shared-memory atomics, then merged one bin per block.
TEST_P(CudaPortTest, Histogram256) {
  unsigned words = 10007;
  const std::vector<uint32_t> data = pseudo_random_words(words, 12345u);
  unsigned partials = 37;
  DeviceBuffer<uint32_t> ddata(device, data), dpartial(device, partials * 256u),
      dhistogram(device, 256);
  void* count[] = {dpartial.param(), ddata.param(), &words};
  launch("_Z18histogram256KernelPjPKjj", partials, 1, 256, 1, 0, count);
  void* merge[] = {dhistogram.param(), dpartial.param(), &partials};
  launch("_Z23mergeHistogram256KernelPjPKjj", 256, 1, 256, 1, 0, merge);
  std::vector<uint32_t> expected(256, 0);
  for (uint32_t word : data)
    for (int byte = 0; byte < 4; ++byte) ++expected[(word >> (8 * byte)) & 0xFFu];
  EXPECT_EQ(expected, dhistogram.download());
}

// Black-Scholes in float against the same formula in double on the host.
double cnd_reference(double d) {
  const double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  const double poly =
      k *
      (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
  const double cnd = 0.39894228040143267793994605993438 * std::exp(-0.5 * d * d) * poly;
  return d > 0 ? 1.0 - cnd : cnd;
}

// Options priced by the kernel in T, and the same formula in double on the host; `tolerance`
// is relative to max(1, |price|).
template <typename T>
void check_black_scholes(ag_device device, const char* kernel, double tolerance,
                         const std::function<void(const char*, void**)>& launch) {
  int options = 4001;
  T riskfree = static_cast<T>(0.02), volatility = static_cast<T>(0.30);
  std::vector<T> price(options), strike(options), years(options);
  const std::vector<uint32_t> random = pseudo_random_words(3 * options, 777u);
  auto uniform = [&](int i, double low, double high) {
    return static_cast<T>(low + (high - low) * static_cast<double>(random[i] >> 8) / 16777216.0);
  };
  for (int i = 0; i < options; ++i) {
    price[i] = uniform(3 * i, 5.0, 30.0);
    strike[i] = uniform(3 * i + 1, 1.0, 100.0);
    years[i] = uniform(3 * i + 2, 0.25, 10.0);
  }
  DeviceBuffer<T> dcall(device, options), dput(device, options), dprice(device, price),
      dstrike(device, strike), dyears(device, years);
  void* params[] = {dcall.param(),  dput.param(), dprice.param(), dstrike.param(),
                    dyears.param(), &riskfree,    &volatility,    &options};
  launch(kernel, params);
  const std::vector<T> call = dcall.download(), put = dput.download();
  for (int i = 0; i < options; ++i) {
    const double s = price[i], x = strike[i], t = years[i], r = riskfree, v = volatility;
    const double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t));
    const double d2 = d1 - v * std::sqrt(t);
    const double discounted = x * std::exp(-r * t);
    const double expected_call = s * cnd_reference(d1) - discounted * cnd_reference(d2);
    const double expected_put =
        discounted * (1.0 - cnd_reference(d2)) - s * (1.0 - cnd_reference(d1));
    ASSERT_NEAR(expected_call, call[i], tolerance * std::max(1.0, std::fabs(expected_call)))
        << "option " << i;
    ASSERT_NEAR(expected_put, put[i], tolerance * std::max(1.0, std::fabs(expected_put)))
        << "option " << i;
  }
}

TEST_P(CudaPortTest, BlackScholesFloat) {
  check_black_scholes<float>(
      device, "_Z15BlackScholesGPUPfS_PKfS1_S1_ffi", 1e-3,
      [&](const char* kernel, void** params) { launch(kernel, 7, 1, 128, 1, 0, params); });
}

// In double the prices keep 12 digits: a double function computed in float (as the GPU side
// of the dialect once did) loses about 9 of them.
TEST_P(CudaPortTest, BlackScholesDouble) {
  check_black_scholes<double>(
      device, "_Z15BlackScholesGPUPdS_PKdS1_S1_ddi", 1e-12,
      [&](const char* kernel, void** params) { launch(kernel, 7, 1, 128, 1, 0, params); });
}

// nbody: one step of all-pairs gravity, float4 bodies in shared-memory tiles, rsqrtf; checked
// against the same sums in double.
TEST_P(CudaPortTest, NbodyStep) {
  const int bodies = 1024, block = 128, tiles = bodies / block;
  float delta_time = 0.01f, damping = 0.995f, softening_squared = 0.01f;
  const std::vector<uint32_t> random = pseudo_random_words(8 * bodies, 4242u);
  auto uniform = [&](int i, float low, float high) {
    return low + (high - low) * static_cast<float>(random[i] >> 8) / 16777216.0f;
  };
  std::vector<float4> position(bodies), velocity(bodies);
  for (int i = 0; i < bodies; ++i) {
    position[i] = make_float4(uniform(8 * i, -4, 4), uniform(8 * i + 1, -4, 4),
                              uniform(8 * i + 2, -4, 4), uniform(8 * i + 3, 0.5f, 2.0f));
    velocity[i] = make_float4(uniform(8 * i + 4, -1, 1), uniform(8 * i + 5, -1, 1),
                              uniform(8 * i + 6, -1, 1), 0.0f);
  }
  DeviceBuffer<float4> dpos(device, position), dvel(device, velocity), dnew_pos(device, bodies),
      dnew_vel(device, bodies);
  void* params[] = {
      dnew_pos.param(), dnew_vel.param(),         dpos.param(),      dvel.param(), &delta_time,
      &damping,         const_cast<int*>(&tiles), &softening_squared};
  launch("_Z15integrateBodiesP6float4S0_PKS_S2_ffif", bodies / block, 1, block, 1,
         block * sizeof(float4), params);
  const std::vector<float4> new_pos = dnew_pos.download(), new_vel = dnew_vel.download();
  for (int i = 0; i < bodies; ++i) {
    double accel[3] = {0, 0, 0};
    const float4& p = position[i];
    for (int j = 0; j < bodies; ++j) {
      const float4& q = position[j];
      const double r[3] = {double(q.x) - p.x, double(q.y) - p.y, double(q.z) - p.z};
      const double inverse =
          1 / std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + softening_squared);
      for (int k = 0; k < 3; ++k) accel[k] += r[k] * q.w * inverse * inverse * inverse;
    }
    const double v[3] = {(velocity[i].x + accel[0] * delta_time) * damping,
                         (velocity[i].y + accel[1] * delta_time) * damping,
                         (velocity[i].z + accel[2] * delta_time) * damping};
    ASSERT_NEAR(v[0], new_vel[i].x, 1e-4) << "body " << i;
    ASSERT_NEAR(v[1], new_vel[i].y, 1e-4) << "body " << i;
    ASSERT_NEAR(v[2], new_vel[i].z, 1e-4) << "body " << i;
    ASSERT_NEAR(p.x + v[0] * delta_time, new_pos[i].x, 1e-5) << "body " << i;
    ASSERT_NEAR(p.y + v[1] * delta_time, new_pos[i].y, 1e-5) << "body " << i;
    ASSERT_NEAR(p.z + v[2] * delta_time, new_pos[i].z, 1e-5) << "body " << i;
    ASSERT_EQ(p.w, new_pos[i].w) << "body " << i;
  }
}

// llm.c's naive LayerNorm forward: rows not a multiple of the block.
TEST_P(CudaPortTest, LayerNormForward) {
  int rows = 300, channels = 77;
  std::vector<float> in(static_cast<size_t>(rows) * channels), weight(channels), bias(channels);
  for (size_t i = 0; i < in.size(); ++i) in[i] = std::sin(0.37f * static_cast<float>(i)) * 3.0f;
  for (int c = 0; c < channels; ++c) {
    weight[c] = 0.5f + 0.01f * c;
    bias[c] = 0.1f * (c % 5) - 0.2f;
  }
  DeviceBuffer<float> dout(device, in.size()), dmean(device, rows), drstd(device, rows),
      din(device, in), dweight(device, weight), dbias(device, bias);
  void* params[] = {dout.param(),    dmean.param(), drstd.param(), din.param(),
                    dweight.param(), dbias.param(), &rows,         &channels};
  launch("_Z25layernorm_forward_kernel1PfS_S_PKfS1_S1_ii", blocks_for(rows, 128), 1, 128, 1, 0,
         params);
  const std::vector<float> out = dout.download(), mean = dmean.download(), rstd = drstd.download();
  for (int r = 0; r < rows; ++r) {
    double m = 0.0, var = 0.0;
    for (int c = 0; c < channels; ++c) m += in[r * channels + c];
    m /= channels;
    for (int c = 0; c < channels; ++c)
      var += (in[r * channels + c] - m) * (in[r * channels + c] - m);
    var /= channels;
    const double s = 1.0 / std::sqrt(var + 1e-5);
    ASSERT_NEAR(m, mean[r], 1e-5) << "row " << r;
    ASSERT_NEAR(s, rstd[r], 1e-5 * s) << "row " << r;
    for (int c = 0; c < channels; ++c)
      ASSERT_NEAR(s * (in[r * channels + c] - m) * weight[c] + bias[c], out[r * channels + c], 1e-4)
          << "row " << r << " channel " << c;
  }
}

// llm.c's naive softmax forward: every row sums to one and keeps the ratios of the exponentials,
// also where exp of the raw values would overflow a float.
TEST_P(CudaPortTest, SoftmaxForward) {
  int rows = 300, channels = 65;
  std::vector<float> in(static_cast<size_t>(rows) * channels);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] =
        std::cos(0.11f * static_cast<float>(i)) * 8.0f + ((i / channels) % 3 == 0 ? 100.0f : 0.0f);
  DeviceBuffer<float> din(device, in), dout(device, in.size());
  void* params[] = {dout.param(), din.param(), &rows, &channels};
  launch("_Z23softmax_forward_kernel1PfPKfii", blocks_for(rows, 64), 1, 64, 1, 0, params);
  const std::vector<float> out = dout.download();
  for (int r = 0; r < rows; ++r) {
    const float* row = &in[static_cast<size_t>(r) * channels];
    double maxval = row[0], sum = 0.0;
    for (int c = 0; c < channels; ++c) maxval = std::max<double>(maxval, row[c]);
    for (int c = 0; c < channels; ++c) sum += std::exp(row[c] - maxval);
    for (int c = 0; c < channels; ++c) {
      const double expected = std::exp(row[c] - maxval) / sum;
      ASSERT_NEAR(expected, out[r * channels + c], 1e-5 * expected + 1e-7)
          << "row " << r << " column " << c;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, CudaPortTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
