// Run-time compilation on every device whose backend has a compiler here: CUDA source and the
// AG_KERNEL dialect compiled, loaded and launched; agModuleLoadSource; the image and log; a
// compile error; a second compile served by the cache. On a test driver the launched kernel runs
// from the host build of the test kernels by name, so the kernels here have the names and
// parameters of test kernels (vector_add); on the CPU device the compiled code itself runs.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

// A cache of this process's own, so that the first compile really compiles.
const std::string kPrivateCache = use_private_compile_cache("anygpu-runtime-compile");

// CUDA source as a CUDA programmer writes it (a C++ kernel: extern "C" kernels in CUDA source are
// not found on the CPU device, docs/runtime-compilation.md).
constexpr const char* kCudaCountPositive = R"(
__global__ void count_positive(const int* values, int n, unsigned int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && values[i] > 0) atomicAdd(count, 1u);
}
)";

constexpr const char* kDialectVectorAdd = R"(
#include <anygpu/kernel.h>
AG_KERNEL(vector_add, (int n, const AG_GLOBAL float* a, const AG_GLOBAL float* b,
                       AG_GLOBAL float* c)) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
)";

class RuntimeCompileTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ag_device_properties properties{};
    properties.struct_size = sizeof properties;
    ASSERT_AG(agDeviceGetProperties(device, &properties));
    int backends = 0;
    ASSERT_AG(agBackendGetCount(&backends));
    for (int i = 0; i < backends; ++i) {
      ag_backend_info backend{};
      backend.struct_size = sizeof backend;
      ASSERT_AG(agBackendGetInfo(i, &backend));
      if (backend.kind != properties.backend) continue;
      ag_compiler_info compiler{};
      compiler.struct_size = sizeof compiler;
      ASSERT_AG(agBackendGetCompilerInfo(i, &compiler));
      if (!compiler.available)
        GTEST_SKIP() << backend.label << " has no run-time compiler here: " << compiler.reason;
      return;
    }
    FAIL() << "the device's backend is not listed";
  }

  ag_device device = device_at(GetParam());
};

void expect_vector_add_works(ag_device device, ag_module module) {
  ag_function function = nullptr;
  ASSERT_AG(agModuleGetFunction(module, "vector_add", &function));
  int n = 1000;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i) + 3.0f;
  }
  DeviceBuffer<float> da(device, a), db(device, b), dc(device, n);
  void* params[] = {&n, da.param(), db.param(), dc.param()};
  ASSERT_AG(
      agLaunchKernel(function, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> c = dc.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(a[i] + b[i], c[i]) << i;
}

void expect_count_positive_works(ag_device device, ag_module module) {
  ag_function function = nullptr;
  ASSERT_AG(agModuleGetFunction(module, "count_positive", &function));
  int n = 3000;
  std::vector<int> values(n);
  unsigned expected = 0;
  for (int i = 0; i < n; ++i) {
    values[i] = (i * 7919) % 13 - 6;
    expected += values[i] > 0;
  }
  DeviceBuffer<int> d_values(device, values);
  DeviceBuffer<unsigned> d_count(device, std::vector<unsigned>(1, 0));
  void* params[] = {d_values.param(), &n, d_count.param()};
  ASSERT_AG(
      agLaunchKernel(function, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(expected, d_count.download()[0]);
}

std::string program_log(ag_program program) {
  size_t size = 0;
  EXPECT_AG(agProgramGetLog(program, nullptr, &size));
  std::string log(size, '\0');
  EXPECT_AG(agProgramGetLog(program, log.data(), &size));
  log.resize(size ? size - 1 : 0);
  return log;
}

// Compiles `source` (named `name`) and loads the image agProgramGetImage gives.
void compile_and_load(ag_device device, const char* source, const char* name,
                      std::vector<const char*> options, ag_module* module) {
  ag_program program = nullptr;
  ASSERT_AG(agProgramCreate(source, name, 0, nullptr, nullptr, &program));
  const ag_result compiled =
      agProgramCompile(program, device, static_cast<int>(options.size()), options.data());
  ASSERT_AG(compiled) << program_log(program);
  size_t size = 0;
  ASSERT_AG(agProgramGetImage(program, nullptr, &size));
  ASSERT_GT(size, 0u);
  std::vector<unsigned char> image(size);
  ASSERT_AG(agProgramGetImage(program, image.data(), &size));
  ASSERT_AG(agProgramDestroy(program));  // the image is the caller's now
  ASSERT_AG(agModuleLoadData(device, image.data(), image.size(), module));
}

TEST_P(RuntimeCompileTest, CudaSourceCompilesLoadsAndRuns) {
  ag_module module = nullptr;
  ASSERT_NO_FATAL_FAILURE(
      compile_and_load(device, kCudaCountPositive, "count_positive.cu", {}, &module));
  expect_count_positive_works(device, module);
  ASSERT_AG(agModuleUnload(module));
}

TEST_P(RuntimeCompileTest, DialectSourceCompilesLoadsAndRuns) {
  ag_module module = nullptr;
  ASSERT_NO_FATAL_FAILURE(
      compile_and_load(device, kDialectVectorAdd, "vector_add.cpp", {"-O2"}, &module));
  expect_vector_add_works(device, module);
  ASSERT_AG(agModuleUnload(module));
}

TEST_P(RuntimeCompileTest, ModuleLoadSourceInOneCall) {
  const char* options[] = {"-DUNUSED=1", "-Xcuda=-lineinfo", "-Xhip=-Wno-unused"};
  ag_module module = nullptr;
  ASSERT_AG(agModuleLoadSource(device, kCudaCountPositive, 3, options, &module));
  expect_count_positive_works(device, module);
  ASSERT_AG(agModuleUnload(module));
}

TEST_P(RuntimeCompileTest, CompileErrorGivesTheLogAndNoImage) {
  ag_program program = nullptr;
  ASSERT_AG(agProgramCreate("__global__ void broken(float* p) { p[0] = undeclared_name; }\n",
                            "broken.cu", 0, nullptr, nullptr, &program));
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, agProgramCompile(program, device, 0, nullptr));
  const char* detail = "";
  ASSERT_AG(agGetLastErrorDetail(&detail));
  EXPECT_NE(nullptr, strstr(detail, "agProgramCompile")) << detail;
  EXPECT_NE(nullptr, strstr(detail, "undeclared_name")) << detail;
  EXPECT_NE(std::string::npos, program_log(program).find("undeclared_name"))
      << program_log(program);
  size_t size = 0;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agProgramGetImage(program, nullptr, &size));
  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED,
            agModuleLoadSource(device, "__global__ void k( {}\n", 0, nullptr, &module));
  EXPECT_EQ(nullptr, module);
  ASSERT_AG(agProgramDestroy(program));
}

// The same program twice: the second comes from the cache, byte for byte the same image.
TEST_P(RuntimeCompileTest, SecondCompileGivesTheSameImage) {
  ag_compile_cache_info cache{};
  cache.struct_size = sizeof cache;
  ASSERT_AG(agCompileCacheGetInfo(&cache));
  std::vector<unsigned char> images[2];
  for (auto& image : images) {
    ag_program program = nullptr;
    ASSERT_AG(agProgramCreate(kCudaCountPositive, "cached.cu", 0, nullptr, nullptr, &program));
    ASSERT_AG(agProgramCompile(program, device, 0, nullptr)) << program_log(program);
    size_t size = 0;
    ASSERT_AG(agProgramGetImage(program, nullptr, &size));
    image.resize(size);
    ASSERT_AG(agProgramGetImage(program, image.data(), &size));
    ASSERT_AG(agProgramDestroy(program));
  }
  EXPECT_EQ(images[0], images[1]);
  if (!cache.enabled) return;  // without a cache both were compiled
  ag_compile_cache_info after{};
  after.struct_size = sizeof after;
  ASSERT_AG(agCompileCacheGetInfo(&after));
  EXPECT_GE(after.entries, 1u);
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, RuntimeCompileTest,
                         ::testing::ValuesIn(all_device_ordinals()), device_test_name);

}  // namespace
