// Modules on every device: loading from memory and from a file, several at once, unloading.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class ModuleTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
};

void expect_vector_add_works(ag_device device, ag_function function) {
  int n = 300;
  DeviceBuffer<float> a(device, std::vector<float>(n, 1.0f)),
      b(device, std::vector<float>(n, 2.0f)), c(device, n);
  void* params[] = {&n, a.param(), b.param(), c.param()};
  ASSERT_AG(agLaunchKernel(function, 2, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  for (float v : c.download()) ASSERT_EQ(3.0f, v);
}

// The host code object on its own, as the build wrote it.
TEST_P(ModuleTest, LoadHostCodeObjectFromFile) {
  SKIP_UNLESS_CPU_DEVICE(device, "a host code object");
  ag_module module;
  ASSERT_AG(agModuleLoad(device, ANYGPU_TEST_KERNELS_PATH, &module));
  ag_function function;
  ASSERT_AG(agModuleGetFunction(module, "vector_add", &function));
  expect_vector_add_works(device, function);
  ASSERT_AG(agModuleUnload(module));
}

// The whole bundle, written to a file: each device picks its entry from it.
TEST_P(ModuleTest, LoadBundleFromFile) {
  char path[] = "/tmp/anygpu-bundle-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ssize_t(anygpu_image_test_kernels_size),
            write(fd, anygpu_image_test_kernels, anygpu_image_test_kernels_size));
  close(fd);
  ag_module module;
  const ag_result loaded = agModuleLoad(device, path, &module);
  unlink(path);
  ASSERT_AG(loaded);
  ag_function function;
  ASSERT_AG(agModuleGetFunction(module, "vector_add", &function));
  expect_vector_add_works(device, function);
  ASSERT_AG(agModuleUnload(module));
}

// One handle per kernel name, as CUDA gives (issue 15, defect 6: a new handle on every call grew
// memory without bound and ran the function table out after 4,194,303 lookups).
TEST_P(ModuleTest, TheSameNameGivesTheSameFunctionHandle) {
  TestModule module(device);
  ag_function first = module.function("vector_add");
  for (int i = 0; i < 100000; ++i) {
    ag_function again = nullptr;
    ASSERT_AG(agModuleGetFunction(module.module(), "vector_add", &again));
    ASSERT_EQ(first, again) << "lookup " << i;
  }
  EXPECT_NE(first, module.function("saxpy"));
  expect_vector_add_works(device, first);
}

TEST_P(ModuleTest, TwoCopiesLoadedAtOnceAreIndependent) {
  TestModule first(device), second(device);
  ag_function f1 = first.function("vector_add"), f2 = second.function("vector_add");
  EXPECT_NE(f1, f2);
  expect_vector_add_works(device, f1);
  expect_vector_add_works(device, f2);
}

TEST_P(ModuleTest, UnloadInvalidatesItsFunctionsOnly) {
  TestModule kept(device);
  ag_function kept_function = kept.function("vector_add");
  ag_module module;
  ag_function function;
  ASSERT_AG(
      agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size, &module));
  ASSERT_AG(agModuleGetFunction(module, "vector_add", &function));
  ASSERT_AG(agModuleUnload(module));
  int count = -1;
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agFunctionGetParamCount(function, &count));
  EXPECT_EQ(-1, count);
  EXPECT_EQ(AG_ERROR_INVALID_HANDLE, agModuleUnload(module));
  expect_vector_add_works(device, kept_function);
}

TEST_P(ModuleTest, TheSameFunctionTwiceGivesTwoValidHandles) {
  TestModule module(device);
  ag_function a = module.function("saxpy"), b = module.function("saxpy");
  int count_a = 0, count_b = 0;
  ASSERT_AG(agFunctionGetParamCount(a, &count_a));
  ASSERT_AG(agFunctionGetParamCount(b, &count_b));
  EXPECT_EQ(4, count_a);
  EXPECT_EQ(count_a, count_b);
}

TEST_P(ModuleTest, EveryKernelHasItsLayout) {
  TestModule module(device);
  const std::pair<const char*, int> kernels[] = {
      {"saxpy", 4},        {"vector_add", 4},   {"empty", 0},
      {"block_reduce", 3}, {"sgemm_tiled", 6},  {"histogram", 4},
      {"mixed_params", 8}, {"index3d", 4},      {"reverse_blocks", 2},
      {"c_scale", 3},      {"c_block_sum", 3},  {"block_reverse3d", 1},
      {"wait_flag", 2},    {"helper_index", 2}, {"helper_barrier_reverse", 1}};
  for (const auto& [name, expected] : kernels) {
    const bool host_only = std::string(name).compare(0, 2, "c_") == 0;  // C kernels
    if (host_only && !is_cpu_device(device)) continue;
    int count = -1;
    ASSERT_AG(agFunctionGetParamCount(module.function(name), &count));
    EXPECT_EQ(expected, count) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, ModuleTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
