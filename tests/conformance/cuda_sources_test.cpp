// The kernels of tests/cuda_sources/*.cu, written in CUDA's own kernel language, on every device
// present (the CPU, and the CUDA, HIP and Level Zero test drivers in their suites), each result
// checked against a host reference. Kernels are asked for by their mangled names, which every
// code object of the image gives them.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>

#include "test_support.h"

using namespace anygpu_test;

namespace {

unsigned blocks_for(unsigned n, unsigned block) {
  return (n + block - 1) / block;
}

class CudaSourceTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
  TestModule module{device};
};

TEST_P(CudaSourceTest, GlobalFunctionWithRestrictPointers) {
  int n = 4099;
  float a = -0.75f;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 101);
    y[i] = static_cast<float>(i % 7) - 3.0f;
  }
  DeviceBuffer<float> dx(device, x), dy(device, y);
  void* params[] = {&n, &a, dx.param(), dy.param()};
  ASSERT_AG(agLaunchKernel(module.function("_Z5saxpyifPKfPf"), blocks_for(n, 128), 1, 1, 128, 1, 1,
                           0, nullptr, params, nullptr));
  const std::vector<float> result = dy.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(a * x[i] + y[i], result[i]) << "element " << i;
}

// A template instantiated twice, each instance with its own block size, summing in extern
// __shared__ memory the launch sizes.
TEST_P(CudaSourceTest, TemplateInstancesWithExternSharedMemory) {
  unsigned n = 10007;
  std::vector<float> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<float>(i % 13);
  DeviceBuffer<float> din(device, in);
  const struct {
    const char* kernel;
    unsigned block;
  } instances[] = {{"_Z10block_sumsILj64EEvPKfPfj", 64}, {"_Z10block_sumsILj256EEvPKfPfj", 256}};
  for (const auto& instance : instances) {
    const unsigned grid = blocks_for(n, instance.block);
    DeviceBuffer<float> dout(device, grid);
    void* params[] = {din.param(), dout.param(), &n};
    ASSERT_AG(agLaunchKernel(module.function(instance.kernel), grid, 1, 1, instance.block, 1, 1,
                             instance.block * sizeof(float), nullptr, params, nullptr));
    std::vector<float> expected(grid, 0.0f);
    for (unsigned i = 0; i < n; ++i) expected[i / instance.block] += in[i];
    EXPECT_EQ(expected, dout.download()) << instance.kernel;
  }
}

// SPIR-V has no unsized shared arrays: there the build sizes each extern __shared__ array, and the
// Level Zero backend refuses a launch that asks for more, naming the limit.
TEST_P(CudaSourceTest, DynamicSharedBeyondTheSpirvArraysIsRefusedOnLevelZero) {
  ag_device_properties properties{};
  properties.struct_size = sizeof properties;
  ASSERT_AG(agDeviceGetProperties(device, &properties));
  if (properties.backend != AG_BACKEND_LEVEL_ZERO)
    GTEST_SKIP() << "only Level Zero devices run SPIR-V";
  unsigned n = 64;
  DeviceBuffer<float> din(device, std::vector<float>(n, 1.0f)), dout(device, 1);
  void* params[] = {din.param(), dout.param(), &n};
  EXPECT_EQ(AG_ERROR_INVALID_VALUE,
            agLaunchKernel(module.function("_Z10block_sumsILj64EEvPKfPfj"), 1, 1, 1, 64, 1, 1,
                           49152 + 4, nullptr, params, nullptr));
  EXPECT_NE(std::string::npos, last_detail().find("49152 bytes")) << last_detail();
  void* ok[] = {din.param(), dout.param(), &n};
  ASSERT_AG(agLaunchKernel(module.function("_Z10block_sumsILj64EEvPKfPfj"), 1, 1, 1, 64, 1, 1,
                           49152, nullptr, ok, nullptr));
  EXPECT_EQ(64.0f, dout.download()[0]);
}

// __shared__ declared in a __device__ helper, with a barrier there.
TEST_P(CudaSourceTest, SharedMemoryDeclaredInAHelper) {
  const unsigned block = 128, grid = 9;
  std::vector<float> in(block * grid);
  std::iota(in.begin(), in.end(), 0.0f);
  DeviceBuffer<float> din(device, in), dout(device, in.size());
  void* params[] = {din.param(), dout.param()};
  ASSERT_AG(agLaunchKernel(module.function("_Z18reverse_blocks_128PKfPf"), grid, 1, 1, block, 1, 1,
                           0, nullptr, params, nullptr));
  const std::vector<float> out = dout.download();
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t)
      ASSERT_EQ(in[b * block + block - 1 - t], out[b * block + t])
          << "block " << b << " thread " << t;
}

// Kernels in a namespace, a template over the element type, helpers that are __forceinline__ and
// __noinline__, CUDA's min and max, and an assert that holds.
TEST_P(CudaSourceTest, NamespacedTemplateKernels) {
  int n = 777;
  std::vector<float> xf(n);
  std::vector<int> xi(n);
  for (int i = 0; i < n; ++i) {
    xf[i] = 0.25f * i;
    xi[i] = i - 300;
  }
  DeviceBuffer<float> df(device, xf);
  DeviceBuffer<int> di(device, xi);
  float factor_f = 3.0f;
  int factor_i = -2;
  void* params_f[] = {df.param(), &n, &factor_f};
  void* params_i[] = {di.param(), &n, &factor_i};
  ASSERT_AG(agLaunchKernel(module.function("_ZN12cuda_sources13scale_clampedIfEEvPT_iS1_"),
                           blocks_for(n, 64), 1, 1, 64, 1, 1, 0, nullptr, params_f, nullptr));
  ASSERT_AG(agLaunchKernel(module.function("_ZN12cuda_sources13scale_clampedIiEEvPT_iS1_"),
                           blocks_for(n, 64), 1, 1, 64, 1, 1, 0, nullptr, params_i, nullptr));
  const std::vector<float> rf = df.download();
  const std::vector<int> ri = di.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(2.0f * xf[i] * factor_f, rf[i]) << "element " << i;
    ASSERT_EQ(2 * xi[i] * factor_i, ri[i]) << "element " << i;
  }
}

// atomicAdd on an unsigned counter with an unsigned literal, as CUDA code writes it.
TEST_P(CudaSourceTest, AtomicCountOnUnsignedCounter) {
  int n = 5000;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = (i * 7919) % 11 - 5;
  const auto positive = static_cast<unsigned>(
      std::count_if(values.begin(), values.end(), [](int v) { return v > 0; }));
  DeviceBuffer<int> dv(device, values);
  DeviceBuffer<unsigned> dcount(device, std::vector<unsigned>{0u});
  void* params[] = {dv.param(), &n, dcount.param()};
  ASSERT_AG(agLaunchKernel(module.function("_Z14count_positivePKiiPj"), blocks_for(n, 256), 1, 1,
                           256, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(positive, dcount.download()[0]);
}

// printf in a kernel prints where anygpu builds it: the CPU device and NVIDIA GPUs (and the test
// drivers, which run the host code object).
TEST_P(CudaSourceTest, PrintfFromAKernel) {
  ag_device_properties properties{};
  properties.struct_size = sizeof properties;
  ASSERT_AG(agDeviceGetProperties(device, &properties));
  if (properties.backend != AG_BACKEND_CPU && properties.backend != AG_BACKEND_CUDA)
    GTEST_SKIP() << "printf in kernels is built for the CPU device and NVIDIA GPUs only";
  int tag = 42;
  void* params[] = {&tag};
  ::testing::internal::CaptureStdout();
  const ag_result launched = agLaunchKernel(module.function("_Z17print_block_sizesi"), 3, 1, 1, 8,
                                            1, 1, 0, nullptr, params, nullptr);
  fflush(stdout);
  const std::string printed = ::testing::internal::GetCapturedStdout();
  ASSERT_AG(launched);
  for (unsigned block = 0; block < 3; ++block)
    EXPECT_NE(std::string::npos,
              printed.find("kernel 42: block " + std::to_string(block) + " of 8 threads\n"))
        << printed;
  EXPECT_EQ(3, std::count(printed.begin(), printed.end(), '\n')) << printed;
}

// Kernels as a CUDA program names them: plain, with template arguments (written as a launch
// writes them, without the demangler's 64u), in a namespace; each the same handle as its mangled
// name, and a name of two template instances an error that lists both.
TEST_P(CudaSourceTest, KernelsByTheNamesCudaCodeUses) {
  const std::pair<const char*, const char*> names[] = {
      {"block_sums<64>", "_Z10block_sumsILj64EEvPKfPfj"},
      {"block_sums<256>", "_Z10block_sumsILj256EEvPKfPfj"},
      {"reverse_blocks_128", "_Z18reverse_blocks_128PKfPf"},
      {"count_positive", "_Z14count_positivePKiiPj"},
      {"cuda_sources::scale_clamped<float>", "_ZN12cuda_sources13scale_clampedIfEEvPT_iS1_"},
      {"scale_clamped<int>", "_ZN12cuda_sources13scale_clampedIiEEvPT_iS1_"},
  };
  for (const auto& [plain, mangled] : names) {
    ag_function by_name = nullptr;
    ASSERT_AG(agModuleGetFunction(module.module(), plain, &by_name)) << plain;
    EXPECT_EQ(module.function(mangled), by_name) << plain;
  }
  ag_function none = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agModuleGetFunction(module.module(), "block_sums", &none));
  EXPECT_NE(std::string::npos, last_detail().find("block_sums<64u>")) << last_detail();
  EXPECT_EQ(nullptr, none);
}

// The parameter layout comes from the kernel's own types, whichever code object the device runs.
TEST_P(CudaSourceTest, ParameterLayoutOfAGlobalFunction) {
  ag_function function = module.function("_ZN12cuda_sources13scale_clampedIfEEvPT_iS1_");
  int count = 0;
  ASSERT_AG(agFunctionGetParamCount(function, &count));
  ASSERT_EQ(3, count);
  const ag_param_kind kinds[] = {AG_PARAM_POINTER, AG_PARAM_INTEGER, AG_PARAM_FLOAT};
  const size_t sizes[] = {8, 4, 4};
  for (int p = 0; p < count; ++p) {
    ag_param_info info{};
    info.struct_size = sizeof info;
    ASSERT_AG(agFunctionGetParamInfo(function, p, &info));
    EXPECT_EQ(kinds[p], info.kind) << "parameter " << p;
    EXPECT_EQ(sizes[p], info.size) << "parameter " << p;
  }
}

// cooperative_groups.h at the block and grid level (tests/cuda_sources/cooperative_groups.cu):
// ranks, sizes and indices as CUDA defines them, and cg::sync ordering shared memory.
TEST_P(CudaSourceTest, CooperativeGroupsOfTheBlockAndTheGrid) {
  const struct {
    unsigned grid[3], block[3];
  } launches[] = {{{3, 2, 2}, {4, 2, 2}}, {{2, 1, 1}, {96, 1, 1}}};
  for (const auto& l : launches) {
    const unsigned block_size = l.block[0] * l.block[1] * l.block[2];
    const unsigned blocks = l.grid[0] * l.grid[1] * l.grid[2];
    DeviceBuffer<unsigned> out(device, size_t{8} * blocks * block_size);
    void* params[] = {out.param()};
    ASSERT_AG(agLaunchKernel(module.function("_Z11group_ranksPj"), l.grid[0], l.grid[1], l.grid[2],
                             l.block[0], l.block[1], l.block[2], 0, nullptr, params, nullptr));
    const std::vector<unsigned> words = out.download();
    for (unsigned bz = 0; bz < l.grid[2]; ++bz)
      for (unsigned by = 0; by < l.grid[1]; ++by)
        for (unsigned bx = 0; bx < l.grid[0]; ++bx)
          for (unsigned tz = 0; tz < l.block[2]; ++tz)
            for (unsigned ty = 0; ty < l.block[1]; ++ty)
              for (unsigned tx = 0; tx < l.block[0]; ++tx) {
                const unsigned block_rank = (bz * l.grid[1] + by) * l.grid[0] + bx;
                const unsigned rank = (tz * l.block[1] + ty) * l.block[0] + tx;
                const unsigned expected[8] = {
                    rank,
                    block_size,
                    bx + 100 * by + 10000 * bz,
                    tx + 100 * ty + 10000 * tz + 1000000 * block_size,
                    block_rank,
                    blocks,
                    blocks * block_size,
                    (block_size - 1 - rank) + 1000 + 2000 + 4000};  // grid.is_valid() is false
                const unsigned* got = &words[size_t{8} * (block_rank * block_size + rank)];
                for (int w = 0; w < 8; ++w)
                  ASSERT_EQ(expected[w], got[w])
                      << "word " << w << " of thread (" << tx << "," << ty << "," << tz
                      << ") in block (" << bx << "," << by << "," << bz << ")";
              }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, CudaSourceTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
