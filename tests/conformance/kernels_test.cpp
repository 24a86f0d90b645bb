// Every kernel in kernels/, on every device present, each result checked against a host
// reference; grids that are not a multiple of the block size; 1-D, 2-D and 3-D grids and blocks.
#include <cmath>
#include <cstdint>
#include <numeric>

#include <anygpu/vector_types.h>

#include "mixed_params.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

unsigned blocks_for(unsigned n, unsigned block) {
  return (n + block - 1) / block;
}

// The sum of each block's slice of `in`: the host reference for the block reductions.
template <typename T>
std::vector<T> block_sums(const std::vector<T>& in, unsigned block) {
  std::vector<T> sums(blocks_for(in.size(), block), T{0});
  for (size_t i = 0; i < in.size(); ++i) sums[i / block] += in[i];
  return sums;
}

class KernelTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
  TestModule module{device};
};

TEST_P(KernelTest, SaxpyOnAGridThatIsNotAMultipleOfTheBlock) {
  int n = 1000003;
  float a = 1.5f;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1013);
    y[i] = static_cast<float>(i % 17);
  }
  DeviceBuffer<float> dx(device, x), dy(device, y);
  void* params[] = {&n, &a, dx.param(), dy.param()};
  ASSERT_AG(agLaunchKernel(module.function("saxpy"), blocks_for(n, 256), 1, 1, 256, 1, 1, 0,
                           nullptr, params, nullptr));
  const std::vector<float> result = dy.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(a * x[i] + y[i], result[i]) << "element " << i;
}

TEST_P(KernelTest, VectorAdd) {
  int n = 12345;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 3.0f - i;
  }
  DeviceBuffer<float> da(device, a), db(device, b), dc(device, n);
  void* params[] = {&n, da.param(), db.param(), dc.param()};
  ASSERT_AG(agLaunchKernel(module.function("vector_add"), blocks_for(n, 128), 1, 1, 128, 1, 1, 0,
                           nullptr, params, nullptr));
  const std::vector<float> c = dc.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(a[i] + b[i], c[i]) << "element " << i;
}

// Static shared memory and barriers, for block sizes from 1 to 1024 (and odd ones).
TEST_P(KernelTest, BlockReduceForManyBlockSizes) {
  int n = 20011;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 10);
  DeviceBuffer<float> din(device, in);
  for (unsigned block : {1u, 7u, 32u, 64u, 100u, 256u, 1024u}) {
    const unsigned grid = blocks_for(n, block);
    DeviceBuffer<float> dout(device, grid);
    void* params[] = {&n, din.param(), dout.param()};
    ASSERT_AG(agLaunchKernel(module.function("block_reduce"), grid, 1, 1, block, 1, 1, 0, nullptr,
                             params, nullptr));
    EXPECT_EQ(block_sums(in, block), dout.download()) << "block size " << block;
  }
}

// A 2-D grid of 2-D blocks with shared-memory tiles; sizes not multiples of the tile.
TEST_P(KernelTest, TiledSgemmOnA2DGrid) {
  int m = 70, n = 45, k = 33;
  std::vector<float> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>((i * 7) % 13) - 6.0f;
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>((i * 5) % 11) - 5.0f;
  DeviceBuffer<float> da(device, a), db(device, b), dc(device, m * n);
  void* params[] = {&m, &n, &k, da.param(), db.param(), dc.param()};
  ASSERT_AG(agLaunchKernel(module.function("sgemm_tiled"), blocks_for(n, 16), blocks_for(m, 16), 1,
                           16, 16, 1, 0, nullptr, params, nullptr));
  const std::vector<float> c = dc.download();
  for (int row = 0; row < m; ++row)
    for (int col = 0; col < n; ++col) {
      float expected = 0;
      for (int i = 0; i < k; ++i) expected += a[row * k + i] * b[i * n + col];
      ASSERT_EQ(expected, c[row * n + col]) << "C[" << row << "][" << col << "]";
    }
}

// Dynamic shared memory; the last block is partial.
TEST_P(KernelTest, ReverseBlocksWithDynamicSharedMemory) {
  int n = 1000;
  const unsigned block = 64;
  std::vector<float> data(n);
  std::iota(data.begin(), data.end(), 0.0f);
  DeviceBuffer<float> d(device, data);
  void* params[] = {&n, d.param()};
  ASSERT_AG(agLaunchKernel(module.function("reverse_blocks"), blocks_for(n, block), 1, 1, block, 1,
                           1, block * sizeof(float), nullptr, params, nullptr));
  const std::vector<float> out = d.download();
  for (int i = 0; i < n; ++i) {
    const int base = i / block * block;
    const int count = std::min<int>(block, n - base);
    ASSERT_EQ(data[base + count - 1 - (i - base)], out[i]) << "element " << i;
  }
}

TEST_P(KernelTest, HistogramWithAtomics) {
  int n = 100003;
  unsigned bins = 37;
  std::vector<unsigned> values(n);
  for (int i = 0; i < n; ++i) values[i] = static_cast<unsigned>(i * 2654435761u);
  std::vector<unsigned> expected(bins, 0);
  for (unsigned v : values) ++expected[v % bins];
  DeviceBuffer<unsigned> dvalues(device, values), dbins(device, std::vector<unsigned>(bins, 0));
  void* params[] = {&n, dvalues.param(), &bins, dbins.param()};
  ASSERT_AG(agLaunchKernel(module.function("histogram"), blocks_for(n, 256), 1, 1, 256, 1, 1, 0,
                           nullptr, params, nullptr));
  EXPECT_EQ(expected, dbins.download());
}

TEST_P(KernelTest, MixedParametersArePassedByValue) {
  char c = -7;
  short s = -30000;
  int i = 2000000000;
  int64_t l = -(int64_t{1} << 40) - 3;
  float f = 0.25f;
  double d = -1.0e300;
  ag_pair16 pair{(int64_t{1} << 50) + 1, 3.5};
  DeviceBuffer<double> out(device, 8);
  void* params[] = {&c, &s, &i, &l, &f, &d, out.param(), &pair};
  ASSERT_AG(agLaunchKernel(module.function("mixed_params"), 1, 1, 1, 1, 1, 1, 0, nullptr, params,
                           nullptr));
  const std::vector<double> expected = {double(c), double(s), double(i),          double(l),
                                        double(f), d,         double(pair.first), pair.second};
  EXPECT_EQ(expected, out.download());
}

TEST_P(KernelTest, MixedParametersLayout) {
  ag_function function = module.function("mixed_params");
  int count = 0;
  ASSERT_AG(agFunctionGetParamCount(function, &count));
  ASSERT_EQ(8, count);
  const size_t sizes[] = {1, 2, 4, 8, 4, 8, sizeof(void*), 16};
  const size_t offsets[] = {0, 2, 4, 8, 16, 24, 32, 40};
  const ag_param_kind kinds[] = {AG_PARAM_INTEGER, AG_PARAM_INTEGER, AG_PARAM_INTEGER,
                                 AG_PARAM_INTEGER, AG_PARAM_FLOAT,   AG_PARAM_FLOAT,
                                 AG_PARAM_POINTER, AG_PARAM_STRUCT};
  for (int p = 0; p < count; ++p) {
    ag_param_info info{};
    info.struct_size = sizeof info;
    ASSERT_AG(agFunctionGetParamInfo(function, p, &info));
    EXPECT_EQ(sizes[p], info.size) << "parameter " << p;
    EXPECT_EQ(offsets[p], info.offset) << "parameter " << p;
    EXPECT_EQ(kinds[p], info.kind) << "parameter " << p;
  }
}

// CUDA's vector types from the host: float4 and int2 by value, float4 and double2 through
// pointers (kernels/vector_params.cpp); the last block is partial.
TEST_P(KernelTest, VectorTypesByValueAndThroughPointers) {
  int n = 1000;
  const float4 scale = make_float4(2.0f, -0.5f, 4.0f, 0.25f);
  const int2 offset = make_int2(3, -7);
  std::vector<float4> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = make_float4(0.5f * i, 1.0f - i, static_cast<float>(i % 9), 8.0f * (i % 5));
  DeviceBuffer<float4> din(device, in), dout(device, n);
  DeviceBuffer<double2> dsums(device, n);
  void* params[] = {const_cast<float4*>(&scale),
                    const_cast<int2*>(&offset),
                    din.param(),
                    dout.param(),
                    dsums.param(),
                    &n};
  ASSERT_AG(agLaunchKernel(module.function("vector_params"), blocks_for(n, 128), 1, 1, 128, 1, 1, 0,
                           nullptr, params, nullptr));
  const std::vector<float4> out = dout.download();
  const std::vector<double2> sums = dsums.download();
  for (int i = 0; i < n; ++i) {
    const float4 v = in[i];
    ASSERT_EQ(v.x * scale.x + offset.x, out[i].x) << "element " << i;
    ASSERT_EQ(v.y * scale.y + offset.y, out[i].y) << "element " << i;
    ASSERT_EQ(v.z * scale.z, out[i].z) << "element " << i;
    ASSERT_EQ(v.w * scale.w, out[i].w) << "element " << i;
    ASSERT_EQ(double(v.x) + double(v.y) + double(v.z) + double(v.w), sums[i].x) << "element " << i;
    ASSERT_EQ(double(offset.x) * offset.y + i, sums[i].y) << "element " << i;
  }
}

// The layout every device reports for them: CUDA's sizes and alignments.
TEST_P(KernelTest, VectorTypesParameterLayout) {
  ag_function function = module.function("vector_params");
  int count = 0;
  ASSERT_AG(agFunctionGetParamCount(function, &count));
  ASSERT_EQ(6, count);
  const size_t sizes[] = {16, 8, sizeof(void*), sizeof(void*), sizeof(void*), 4};
  const size_t alignments[] = {16, 8, alignof(void*), alignof(void*), alignof(void*), 4};
  const size_t offsets[] = {0, 16, 24, 32, 40, 48};
  const ag_param_kind kinds[] = {AG_PARAM_STRUCT,  AG_PARAM_STRUCT,  AG_PARAM_POINTER,
                                 AG_PARAM_POINTER, AG_PARAM_POINTER, AG_PARAM_INTEGER};
  for (int p = 0; p < count; ++p) {
    ag_param_info info{};
    info.struct_size = sizeof info;
    ASSERT_AG(agFunctionGetParamInfo(function, p, &info));
    EXPECT_EQ(sizes[p], info.size) << "parameter " << p;
    EXPECT_EQ(alignments[p], info.alignment) << "parameter " << p;
    EXPECT_EQ(offsets[p], info.offset) << "parameter " << p;
    EXPECT_EQ(kinds[p], info.kind) << "parameter " << p;
  }
}

// A 3-D grid of 3-D blocks; the extent is not a multiple of the block in any dimension.
TEST_P(KernelTest, Index3DOnA3DGridOf3DBlocks) {
  int nx = 19, ny = 11, nz = 5;
  const unsigned bx = 4, by = 3, bz = 2;
  DeviceBuffer<int> out(device, std::vector<int>(nx * ny * nz, -1));
  void* params[] = {&nx, &ny, &nz, out.param()};
  ASSERT_AG(agLaunchKernel(module.function("index3d"), blocks_for(nx, bx), blocks_for(ny, by),
                           blocks_for(nz, bz), bx, by, bz, 0, nullptr, params, nullptr));
  const std::vector<int> result = out.download();
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)
        ASSERT_EQ(x + 1000 * y + 1000000 * z, result[(z * ny + y) * nx + x])
            << "(" << x << ", " << y << ", " << z << ")";
}

// A single 16 x 16 block: every thread of a 2-D block meets at both barriers of each tile.
TEST_P(KernelTest, SgemmWithOneTileExactly) {
  int m = 16, n = 16, k = 16;
  std::vector<float> a(m * k, 1.0f), b(k * n, 2.0f);
  DeviceBuffer<float> da(device, a), db(device, b), dc(device, m * n);
  void* params[] = {&m, &n, &k, da.param(), db.param(), dc.param()};
  ASSERT_AG(agLaunchKernel(module.function("sgemm_tiled"), 1, 1, 1, 16, 16, 1, 0, nullptr, params,
                           nullptr));
  for (float value : dc.download()) ASSERT_EQ(32.0f, value);
}

// 3-D blocks in a 3-D grid with a barrier: the fibers rebuild each thread's x, y and z.
TEST_P(KernelTest, BlockReverse3DWithBarrier) {
  const unsigned bx = 5, by = 3, bz = 2, gx = 3, gy = 2, gz = 2;
  const unsigned threads = bx * by * bz, blocks = gx * gy * gz;
  std::vector<int> data(threads * blocks);
  std::iota(data.begin(), data.end(), 0);
  DeviceBuffer<int> d(device, data);
  void* params[] = {d.param()};
  ASSERT_AG(agLaunchKernel(module.function("block_reverse3d"), gx, gy, gz, bx, by, bz, 0, nullptr,
                           params, nullptr));
  const std::vector<int> out = d.download();
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t)
      ASSERT_EQ(data[b * threads + threads - 1 - t], out[b * threads + t])
          << "block " << b << ", thread " << t;
}

// A helper reads threadIdx and blockIdx from the context in a kernel without barriers.
TEST_P(KernelTest, HelperReadsTheThreadIndex) {
  int n = 1000;
  DeviceBuffer<int> out(device, std::vector<int>(n, -1));
  void* params[] = {&n, out.param()};
  ASSERT_AG(agLaunchKernel(module.function("helper_index"), blocks_for(n, 96), 1, 1, 96, 1, 1, 0,
                           nullptr, params, nullptr));
  std::vector<int> expected(n);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(expected, out.download());
}

// The kernel's only barrier is in a helper.
TEST_P(KernelTest, BarrierInsideAHelper) {
  const unsigned block = 128, grid = 5;
  std::vector<int> data(block * grid);
  std::iota(data.begin(), data.end(), 0);
  DeviceBuffer<int> d(device, data);
  void* params[] = {d.param()};
  ASSERT_AG(agLaunchKernel(module.function("helper_barrier_reverse"), grid, 1, 1, block, 1, 1, 0,
                           nullptr, params, nullptr));
  std::vector<int> expected(data.size());
  for (unsigned i = 0; i < data.size(); ++i)
    expected[i] = data[i / block * block + block - 1 - i % block];
  EXPECT_EQ(expected, d.download());
}

// A C kernel: no generated entry, called through libffi.
TEST_P(KernelTest, CKernelThroughLibffi) {
  SKIP_UNLESS_CPU_DEVICE(device, "c_scale, a C kernel,");
  int n = 1001;
  float a = -2.0f;
  std::vector<float> x(n);
  std::iota(x.begin(), x.end(), 1.0f);
  DeviceBuffer<float> dx(device, x);
  void* params[] = {&n, &a, dx.param()};
  ASSERT_AG(agLaunchKernel(module.function("c_scale"), blocks_for(n, 64), 1, 1, 64, 1, 1, 0,
                           nullptr, params, nullptr));
  const std::vector<float> out = dx.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(a * x[i], out[i]) << "element " << i;
}

// A C kernel with a barrier: libffi calls on fibers.
TEST_P(KernelTest, CKernelWithBarrier) {
  SKIP_UNLESS_CPU_DEVICE(device, "c_block_sum, a C kernel,");
  int n = 1001;
  const unsigned block = 100, grid = blocks_for(n, block);
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), 0);
  DeviceBuffer<int> din(device, in), dout(device, grid);
  void* params[] = {&n, din.param(), dout.param()};
  ASSERT_AG(agLaunchKernel(module.function("c_block_sum"), grid, 1, 1, block, 1, 1, 0, nullptr,
                           params, nullptr));
  EXPECT_EQ(block_sums(in, block), dout.download());
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, KernelTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
