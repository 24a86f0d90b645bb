// The Level Zero backend's run-time compiler (loaders/level_zero/level_zero_compiler.h): CUDA
// source and an AG_KERNEL source compiled to SPIR-V (checked by spirv-val where it is installed),
// loaded on the test driver's device and run (the driver runs a kernel from the test kernels' host
// build by its name, so the programs' kernels are ones that build has); a compile error; a missing
// tool; and the C API's agProgramCompile through the backend's descriptor.
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "loaders/level_zero/level_zero_compiler.h"
#include "test_driver_control.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

[[maybe_unused]] const int kNoCache = setenv("ANYGPU_CACHE", "0", 1);

using anygpu::CompileOutput;
using anygpu::CompileRequest;
using anygpu::RuntimeCompiler;

// cuda_syntax.cu's saxpy (the same mangled name: the test kernels' host build has it).
const char* kCudaSaxpy = R"(
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

RuntimeCompiler* compiler() {
  static std::unique_ptr<RuntimeCompiler> made = [] {
    std::string reason;
    auto c = anygpu::level_zero::make_runtime_compiler(reason);
    if (!c) fprintf(stderr, "no Level Zero compiler: %s\n", reason.c_str());
    return c;
  }();
  return made.get();
}

CompileRequest request(const std::string& name, const std::string& text) {
  CompileRequest r;
  r.source = {name, text};
  r.target.architecture = "spirv";
  return r;
}

// spirv-val on `image`: "" when it passes or is absent (`skipped` says why), else its output.
std::string validate(const std::vector<unsigned char>& image, std::string* skipped) {
  std::string tool = ANYGPU_TEST_SPIRV_VAL;
  if (tool.empty() || access(tool.c_str(), X_OK) != 0) {
    *skipped = "spirv-val not found (install spirv-tools)";
    return "";
  }
  char path[] = "/tmp/anygpu_l0_compile_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return "cannot write a temporary file";
  const bool written = write(fd, image.data(), image.size()) == static_cast<ssize_t>(image.size());
  close(fd);
  std::string output;
  if (written) {
    const std::string command = tool + " " + path + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    char buffer[4096];
    size_t got;
    while (pipe && (got = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, got);
    const int status = pipe ? pclose(pipe) : -1;
    if (status == 0)
      output.clear();
    else if (output.empty())
      output = "spirv-val failed";
  } else {
    output = "cannot write a temporary file";
  }
  unlink(path);
  return output;
}

class LevelZeroCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.device(AG_BACKEND_LEVEL_ZERO);
    ASSERT_NE(nullptr, device);
  }

  // Loads `image` on the test driver's device and runs `kernel` as saxpy over n floats.
  void run_saxpy(const std::vector<unsigned char>& image, const char* kernel) {
    ag_module module = nullptr;
    ASSERT_AG(agModuleLoadData(device, image.data(), image.size(), &module));
    ag_function function = nullptr;
    EXPECT_AG(agModuleGetFunction(module, kernel, &function));
    if (function) {
      int n = 1000;
      float a = 3.0f;
      std::vector<float> x(n), y(n);
      for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(2 * i);
        y[i] = static_cast<float>(i);
      }
      DeviceBuffer<float> dx(device, x), dy(device, y);
      void* params[] = {&n, &a, dx.param(), dy.param()};
      EXPECT_AG(
          agLaunchKernel(function, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
      EXPECT_AG(agDeviceSynchronize(device));
      const std::vector<float> result = dy.download();
      for (int i = 0; i < n; ++i) ASSERT_EQ(3.0f * (2 * i) + i, result[i]) << i;
    }
    EXPECT_AG(agModuleUnload(module));
  }

  TestDriverControl driver{ANYGPU_TEST_DRIVER_PATH, "anygpu_l0_test"};
  ag_device device = nullptr;
};

TEST_F(LevelZeroCompile, CudaSaxpyCompilesValidatesLoadsAndRuns) {
  ASSERT_NE(nullptr, compiler());
  CompileOutput output;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_AG(compiler()->compile(request("saxpy.cu", kCudaSaxpy), output)) << output.log;
  printf("saxpy.cu compiled (cold) in %.2f s by %s\n",
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
         compiler()->identity().c_str());
  ASSERT_GT(output.image.size(), 20u);
  EXPECT_EQ(0x07230203u, *reinterpret_cast<const unsigned*>(output.image.data()));
  std::string skipped;
  EXPECT_EQ("", validate(output.image, &skipped));
  if (!skipped.empty()) printf("spirv-val check skipped: %s\n", skipped.c_str());
  run_saxpy(output.image, "_Z5saxpyifPKfPf");
}

TEST_F(LevelZeroCompile, AgKernelSourceCompilesValidatesLoadsAndRuns) {
  ASSERT_NE(nullptr, compiler());
  const std::string text = read_text(ANYGPU_TEST_SAXPY_SOURCE);
  ASSERT_FALSE(text.empty()) << ANYGPU_TEST_SAXPY_SOURCE;
  CompileOutput output;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_AG(compiler()->compile(request("saxpy.cpp", text), output)) << output.log;
  printf("saxpy.cpp (AG_KERNEL) compiled in %.2f s\n",
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  std::string skipped;
  EXPECT_EQ("", validate(output.image, &skipped));
  if (!skipped.empty()) printf("spirv-val check skipped: %s\n", skipped.c_str());
  run_saxpy(output.image, "saxpy");
}

// extern __shared__ arrays (given a size), barriers and a loop (blocks put in dominance order):
// the rewrites before llvm-spirv, checked by spirv-val.
TEST_F(LevelZeroCompile, SharedMemoryAndLoopsMakeValidSpirv) {
  ASSERT_NE(nullptr, compiler());
  const char* source = R"(
__global__ void block_sum(const float* in, float* out, int n) {
  extern __shared__ float partial[];
  unsigned t = threadIdx.x;
  float sum = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  partial[t] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
)";
  CompileOutput output;
  ASSERT_AG(compiler()->compile(request("block_sum.cu", source), output)) << output.log;
  std::string skipped;
  EXPECT_EQ("", validate(output.image, &skipped));
  if (!skipped.empty()) printf("spirv-val check skipped: %s\n", skipped.c_str());
}

TEST_F(LevelZeroCompile, ACompileErrorIsCompileFailedWithTheLog) {
  ASSERT_NE(nullptr, compiler());
  CompileOutput output;
  EXPECT_EQ(
      AG_ERROR_COMPILE_FAILED,
      compiler()->compile(request("broken.cu", "__global__ void k() { undeclared(); }\n"), output));
  EXPECT_NE(std::string::npos, output.log.find("undeclared")) << output.log;
  EXPECT_NE(std::string::npos, last_detail().find("error:")) << last_detail();
  EXPECT_EQ(std::string::npos, output.log.find("/tmp/")) << output.log;
}

TEST_F(LevelZeroCompile, TheCApiCompilesForTheLevelZeroDevice) {
  ag_program program = nullptr;
  ASSERT_AG(agProgramCreate(kCudaSaxpy, "saxpy.cu", 0, nullptr, nullptr, &program));
  ASSERT_AG(agProgramCompile(program, device, 0, nullptr));
  size_t size = 0;
  ASSERT_AG(agProgramGetImage(program, nullptr, &size));
  std::vector<unsigned char> image(size);
  ASSERT_AG(agProgramGetImage(program, image.data(), &size));
  EXPECT_AG(agProgramDestroy(program));
  run_saxpy(image, "_Z5saxpyifPKfPf");
}

TEST(LevelZeroCompiler, AMissingToolIsNoCompilerWithTheReason) {
  const char* before = getenv("ANYGPU_LLVM_SPIRV");
  const std::string saved = before ? before : "";
  setenv("ANYGPU_LLVM_SPIRV", "/nonexistent/llvm-spirv-15", 1);
  std::string reason;
  EXPECT_EQ(nullptr, anygpu::level_zero::make_runtime_compiler(reason));
  EXPECT_NE(std::string::npos, reason.find("ANYGPU_LLVM_SPIRV=/nonexistent/llvm-spirv-15"))
      << reason;
  EXPECT_NE(std::string::npos, reason.find("llvm-spirv-15")) << reason;
  setenv("ANYGPU_SPIRV_CLANG", "/nonexistent/clang-15", 1);
  reason.clear();
  EXPECT_EQ(nullptr, anygpu::level_zero::make_runtime_compiler(reason));
  EXPECT_NE(std::string::npos, reason.find("install clang-15")) << reason;
  unsetenv("ANYGPU_SPIRV_CLANG");
  if (before)
    setenv("ANYGPU_LLVM_SPIRV", saved.c_str(), 1);
  else
    unsetenv("ANYGPU_LLVM_SPIRV");
}

}  // namespace
