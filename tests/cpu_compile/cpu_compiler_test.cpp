// The CPU backend's run-time compiler (loaders/cpu/cpu_compiler.h), called through its interface
// and through the C API (agProgramCompile, agModuleLoadSource): CUDA source and the AG_KERNEL
// dialect compiled, loaded from memory and run; shared memory and barriers (through the barrier
// pass's loops where the build has the plugin); defines and headers given as strings; and each
// failure: a compile error, a compiler past its time limit, a compiler that crashes.
#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <anygpu/kernel_host_abi.h>

#include "loaders/cpu/cpu_compiler.h"
#include "shim/core/error.h"
#include "test_support.h"

using namespace anygpu_test;

namespace {

// The C API's tests compile, not take an image from the cache on disk.
[[maybe_unused]] const int kNoCache = setenv("ANYGPU_CACHE", "0", 1);

using anygpu::CompileOutput;
using anygpu::CompileRequest;
using anygpu::RuntimeCompiler;
using anygpu::SourceFile;

const char* kSaxpy = R"(
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

// Each block reverses its slice through extern and static __shared__ arrays and a barrier.
const char* kReverse = R"(
__global__ void reverse(float* data, int n) {
  extern __shared__ float slice[];
  __shared__ int count;
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  if (t == 0) count = 0;
  __syncthreads();
  slice[t] = data[base + t];
  atomicAdd(&count, 1);
  __syncthreads();
  data[base + t] = slice[blockDim.x - 1 - t] + (count == (int)blockDim.x ? 0.0f : 1000.0f);
}
)";

// Sets an environment variable for a scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    const char* old = getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

RuntimeCompiler* compiler() {
  static std::string reason;
  static std::unique_ptr<RuntimeCompiler> made = anygpu::cpu::make_runtime_compiler(reason);
  EXPECT_NE(nullptr, made) << reason;
  return made.get();
}

CompileRequest request(const std::string& name, const std::string& text) {
  CompileRequest r;
  r.source = SourceFile{name, text};
  r.target.architecture = "x86_64-linux-gnu";
  return r;
}

// A directory of the test's own, removed at exit (scripts standing in for the compiler).
std::string scratch_directory() {
  // Never destroyed: the exit handler that removes it runs after static destructors.
  static const std::string* directory = [] {
    auto* path = new std::string("/tmp/anygpu-cpu-compile-test-XXXXXX");
    EXPECT_NE(nullptr, mkdtemp(path->data()));
    atexit([] {
      nftw(
          scratch_directory().c_str(),
          [](const char* entry, const struct stat*, int, struct FTW*) { return remove(entry); }, 8,
          FTW_DEPTH | FTW_PHYS);
    });
    return path;
  }();
  return *directory;
}

std::string write_script(const std::string& name, const std::string& body) {
  const std::string path = scratch_directory() + "/" + name;
  FILE* file = fopen(path.c_str(), "w");
  EXPECT_NE(nullptr, file);
  fputs(body.c_str(), file);
  fclose(file);
  chmod(path.c_str(), 0755);
  return path;
}

// Whether the host code object's descriptor of `mangled` has the barrier pass's loops.
bool has_work_item_loops(const std::vector<unsigned char>& image, const std::string& mangled) {
  static int count = 0;
  const std::string path = scratch_directory() + "/image" + std::to_string(count++) + ".so";
  FILE* file = fopen(path.c_str(), "wb");
  EXPECT_NE(nullptr, file);
  if (!file) return false;
  fwrite(image.data(), 1, image.size(), file);
  fclose(file);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(nullptr, handle) << dlerror();
  if (!handle) return false;
  auto describe = reinterpret_cast<const agk_kernel_desc* (*)()>(
      dlsym(handle, (AGK_KERNEL_SYMBOL_PREFIX + mangled).c_str()));
  EXPECT_NE(nullptr, describe) << mangled;
  const bool loops = describe && describe()->run_blocks_wi != nullptr;
  dlclose(handle);
  return loops;
}

// Runs `kernel` of `image` on the CPU device over n floats, y[i] = i on entry; returns y.
std::vector<float> run_on_cpu(const std::vector<unsigned char>& image, const char* kernel, int n,
                              std::vector<void*> leading, unsigned block = 64, unsigned shared = 0,
                              bool n_last = false) {
  ag_device device = cpu_device();
  ag_module module = nullptr;
  EXPECT_AG(agModuleLoadData(device, image.data(), image.size(), &module));
  if (!module) return {};
  ag_function function = nullptr;
  EXPECT_AG(agModuleGetFunction(module, kernel, &function));
  std::vector<float> y(n), x(n);
  for (int i = 0; i < n; ++i) {
    y[i] = static_cast<float>(i);
    x[i] = static_cast<float>(2 * i);
  }
  std::vector<float> result;
  {
    DeviceBuffer<float> dx(device, x), dy(device, y);
    std::vector<void*> params = leading;
    if (n_last) {
      params.push_back(dy.param());
      params.push_back(&n);
    } else {
      params.insert(params.begin(), &n);
      params.push_back(dx.param());
      params.push_back(dy.param());
    }
    if (function) {
      EXPECT_AG(agLaunchKernel(function, (n + block - 1) / block, 1, 1, block, 1, 1, shared,
                               nullptr, params.data(), nullptr));
      EXPECT_AG(agDeviceSynchronize(device));
    }
    result = dy.download();
  }
  EXPECT_AG(agModuleUnload(module));
  return result;
}

TEST(CpuCompiler, CudaSaxpyCompilesLoadsAndRuns) {
  ASSERT_NE(nullptr, compiler());
  CompileOutput output;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_AG(compiler()->compile(request("saxpy.cu", kSaxpy), output)) << output.log;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  printf("saxpy.cu compiled (cold) in %.2f s by %s\n", seconds, compiler()->identity().c_str());
  ASSERT_GT(output.image.size(), 4u);
  EXPECT_EQ(0, memcmp(output.image.data(),
                      "\x7f"
                      "ELF",
                      4));
  float a = 3.0f;
  const std::vector<float> y = run_on_cpu(output.image, "saxpy", 1000, {&a});
  ASSERT_EQ(1000u, y.size());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(3.0f * (2 * i) + i, y[i]) << i;
}

TEST(CpuCompiler, IdentityNamesTheCompilerItsVersionAndThePass) {
  ASSERT_NE(nullptr, compiler());
  const std::string identity = compiler()->identity();
  EXPECT_EQ(0u, identity.find("clang++ ")) << identity;
  EXPECT_NE(std::string::npos, identity.find(" (/")) << identity;
#ifdef ANYGPU_TEST_BARRIER_PASS
  EXPECT_NE(std::string::npos, identity.find("+ barrier pass (")) << identity;
#endif
}

TEST(CpuCompiler, SharedMemoryAndBarriersRunThroughTheLoops) {
  ASSERT_NE(nullptr, compiler());
  CompileOutput output;
  ASSERT_AG(compiler()->compile(request("reverse.cu", kReverse), output)) << output.log;
  const unsigned block = 128;
  const int n = 4 * block;
  const std::vector<float> y =
      run_on_cpu(output.image, "reverse", n, {}, block, block * sizeof(float), true);
  ASSERT_EQ(static_cast<size_t>(n), y.size());
  for (int i = 0; i < n; ++i) {
    const int base = i / block * block;
    ASSERT_EQ(static_cast<float>(base + block - 1 - (i - base)), y[i]) << i;
  }
  // With the plugin, the kernel's descriptor has the loops' entry: it ran without fibers.
  const bool loops = has_work_item_loops(output.image, "_Z7reversePfi");
  EXPECT_EQ(compiler()->identity().find("+ barrier pass") != std::string::npos, loops)
      << compiler()->identity() << "\n"
      << output.log;
#ifdef ANYGPU_TEST_BARRIER_PASS
  EXPECT_TRUE(loops) << output.log;
#endif
}

TEST(CpuCompiler, WithoutThePluginBarriersRunOnFibersAndTheLogSaysSo) {
  ScopedEnv plugin_env("ANYGPU_BARRIER_PASS_PLUGIN", "/nonexistent/libanygpu_barrier_pass.so");
  std::string reason;
  std::unique_ptr<RuntimeCompiler> plain = anygpu::cpu::make_runtime_compiler(reason);
  ASSERT_NE(nullptr, plain) << reason;
  EXPECT_NE(std::string::npos, plain->identity().find(", no barrier pass")) << plain->identity();
  CompileOutput output;
  ASSERT_AG(plain->compile(request("reverse.cu", kReverse), output)) << output.log;
  EXPECT_NE(std::string::npos, output.log.find("kernels with barriers run on fibers"))
      << output.log;
  EXPECT_NE(std::string::npos, output.log.find("ANYGPU_BARRIER_PASS_PLUGIN")) << output.log;
  EXPECT_FALSE(has_work_item_loops(output.image, "_Z7reversePfi"));
  const unsigned block = 64;
  const int n = 2 * block;
  const std::vector<float> y =
      run_on_cpu(output.image, "reverse", n, {}, block, block * sizeof(float), true);
  ASSERT_EQ(static_cast<size_t>(n), y.size());
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(static_cast<float>(i / block * block + block - 1 - i % block), y[i]) << i;
}

TEST(CpuCompiler, AgKernelDialectSource) {
  ASSERT_NE(nullptr, compiler());
  const char* source = R"(
#include <anygpu/kernel.h>
AG_KERNEL(scale_add, (int n, float f, const AG_GLOBAL float* x, AG_GLOBAL float* y)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = f * x[i] - y[i];
}
)";
  CompileOutput output;
  ASSERT_AG(compiler()->compile(request("dialect.cpp", source), output)) << output.log;
  float f = 0.5f;
  const std::vector<float> y = run_on_cpu(output.image, "scale_add", 300, {&f});
  ASSERT_EQ(300u, y.size());
  for (int i = 0; i < 300; ++i) ASSERT_EQ(0.5f * (2 * i) - i, y[i]) << i;
}

const char* kDefined = R"(
#ifndef MUST_BE_DEFINED
#error MUST_BE_DEFINED is not defined
#endif
__global__ void set_value(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = VALUE + FACTOR;
}
)";

TEST(CpuCompiler, DefinesAndUserHeadersReachTheKernel) {
  ASSERT_NE(nullptr, compiler());
  CompileRequest r = request("defined.cu", std::string("#include \"params.h\"\n") + kDefined);
  r.headers = {{"params.h", "#include \"sub/factor.h\"\n"}, {"sub/factor.h", "#define FACTOR 5\n"}};
  r.options.defines = {"VALUE=37", "MUST_BE_DEFINED"};
  CompileOutput output;
  ASSERT_AG(compiler()->compile(r, output)) << output.log;
  const std::vector<float> y = run_on_cpu(output.image, "set_value", 100, {});
  ASSERT_EQ(100u, y.size());
  for (int i = 0; i < 100; ++i) ASSERT_EQ(42.0f, y[i]) << i;

  r.options.defines = {"VALUE=37"};  // without the define, the source's #error
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, compiler()->compile(r, output));
  EXPECT_NE(std::string::npos, output.log.find("MUST_BE_DEFINED is not defined")) << output.log;
}

TEST(CpuCompiler, HeaderNamesOutsideTheProgramAreRefused) {
  ASSERT_NE(nullptr, compiler());
  for (const char* name : {"../escape.h", "/etc/evil.h", "a//b.h", ""}) {
    CompileRequest r = request("saxpy.cu", kSaxpy);
    r.headers = {{name, "#define X 1\n"}};
    CompileOutput output;
    EXPECT_EQ(AG_ERROR_INVALID_VALUE, compiler()->compile(r, output)) << name;
  }
}

TEST(CpuCompiler, SyntaxErrorIsCompileFailedWithTheLog) {
  ASSERT_NE(nullptr, compiler());
  CompileOutput output;
  const char* source = "__global__ void broken(float* y) {\n  y[0] = 1.0f +;\n}\n";
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, compiler()->compile(request("broken.cu", source), output));
  EXPECT_TRUE(output.image.empty());
  EXPECT_NE(std::string::npos, output.log.find("broken.cu:2:")) << output.log;
  EXPECT_NE(std::string::npos, output.log.find("error: expected expression")) << output.log;
  EXPECT_EQ(std::string::npos, output.log.find("anygpu-compile-"))
      << "temporary paths: " << output.log;
  const std::string detail = anygpu::last_error_detail();
  EXPECT_NE(std::string::npos, detail.find("broken.cu:2:")) << detail;
  EXPECT_NE(std::string::npos, detail.find("error:")) << detail;
}

TEST(CpuCompiler, WarningsOfASuccessfulCompileAreInTheLog) {
  ASSERT_NE(nullptr, compiler());
  CompileRequest r = request("warns.cu", "__global__ void w(float* y) { int unused = 3; }\n");
  r.options.vendor = {"-Wunused-variable"};
  CompileOutput output;
  ASSERT_AG(compiler()->compile(r, output)) << output.log;
  EXPECT_NE(std::string::npos, output.log.find("warning: unused variable")) << output.log;
}

// A stand-in compiler that answers --version as clang 19 does, then does `body`.
std::string fake_compiler(const std::string& name, const std::string& body) {
  return write_script(name,
                      "#!/bin/sh\n"
                      "if [ \"$1\" = --version ]; then echo 'fake clang version 19.1.0'; exit 0; "
                      "fi\n" +
                          body);
}

TEST(CpuCompiler, CompilerPastTheTimeLimitIsStopped) {
  ScopedEnv compiler_env("ANYGPU_HOST_COMPILER",
                         fake_compiler("sleeps.sh", "sleep 60 &\nsleep 60\n"));
  ScopedEnv timeout_env("ANYGPU_COMPILE_TIMEOUT_S", "1");
  std::string reason;
  std::unique_ptr<RuntimeCompiler> slow = anygpu::cpu::make_runtime_compiler(reason);
  ASSERT_NE(nullptr, slow) << reason;
  EXPECT_NE(std::string::npos, slow->identity().find("clang++ 19.1.0 (")) << slow->identity();
  CompileOutput output;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, slow->compile(request("saxpy.cu", kSaxpy), output));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);
  EXPECT_GE(seconds, 0.9);
  const std::string detail = anygpu::last_error_detail();
  EXPECT_NE(std::string::npos, detail.find("did not finish within 1 s")) << detail;
  EXPECT_NE(std::string::npos, detail.find("ANYGPU_COMPILE_TIMEOUT_S")) << detail;
}

TEST(CpuCompiler, CompilerThatCrashesIsAnErrorNotACrash) {
  ScopedEnv compiler_env("ANYGPU_HOST_COMPILER",
                         fake_compiler("crashes.sh", "echo 'about to crash' >&2\nkill -SEGV $$\n"));
  std::string reason;
  std::unique_ptr<RuntimeCompiler> crashing = anygpu::cpu::make_runtime_compiler(reason);
  ASSERT_NE(nullptr, crashing) << reason;
  CompileOutput output;
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, crashing->compile(request("saxpy.cu", kSaxpy), output));
  const std::string detail = anygpu::last_error_detail();
  EXPECT_NE(std::string::npos, detail.find("killed by signal 11 (SIGSEGV)")) << detail;
  EXPECT_NE(std::string::npos, detail.find("crash of the compiler")) << detail;
  EXPECT_NE(std::string::npos, output.log.find("about to crash")) << output.log;
}

TEST(CpuCompiler, NoCompilerIsNoFactoryResultWithAReason) {
  ScopedEnv compiler_env("ANYGPU_HOST_COMPILER", "/nonexistent/clang++-19");
  std::string reason;
  EXPECT_EQ(nullptr, anygpu::cpu::make_runtime_compiler(reason));
  EXPECT_NE(std::string::npos, reason.find("/nonexistent/clang++-19")) << reason;
  const std::string script = write_script("fails_version.sh", "#!/bin/sh\nexit 4\n");
  ScopedEnv broken_env("ANYGPU_HOST_COMPILER", script);
  EXPECT_EQ(nullptr, anygpu::cpu::make_runtime_compiler(reason));
  EXPECT_NE(std::string::npos, reason.find("exited with status 4")) << reason;
}

TEST(CpuCompiler, ManyThreadsCompileAtOnce) {
  ASSERT_NE(nullptr, compiler());
  std::vector<std::thread> threads;
  std::vector<ag_result> results(4, AG_ERROR_UNKNOWN);
  std::vector<CompileOutput> outputs(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      CompileRequest r = request("saxpy.cu", kSaxpy);
      r.options.defines = {"THREAD=" + std::to_string(t)};
      results[t] = compiler()->compile(r, outputs[t]);
    });
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(AG_SUCCESS, results[t]) << outputs[t].log;
    EXPECT_FALSE(outputs[t].image.empty());
  }
}

// ---- through the C API -----------------------------------------------------------------------

TEST(CpuCompilerApi, ProgramCompiledLoadedAndRun) {
  const char* names[] = {"params.h"};
  const char* headers[] = {"#define SCALE 2.0f\n"};
  const char* source = R"(
#include "params.h"
__global__ void scaled(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = SCALE * x[i] + OFFSET;
}
)";
  ag_program program = nullptr;
  ASSERT_AG(agProgramCreate(source, "scaled.cu", 1, headers, names, &program));
  const char* options[] = {"-DOFFSET=1.0f", "-O2"};
  ASSERT_AG(agProgramCompile(program, cpu_device(), 2, options));
  size_t size = 0;
  ASSERT_AG(agProgramGetImage(program, nullptr, &size));
  std::vector<unsigned char> image(size);
  ASSERT_AG(agProgramGetImage(program, image.data(), &size));
  EXPECT_AG(agProgramDestroy(program));
  const std::vector<float> y = run_on_cpu(image, "scaled", 200, {});
  ASSERT_EQ(200u, y.size());
  for (int i = 0; i < 200; ++i) ASSERT_EQ(2.0f * (2 * i) + 1.0f, y[i]) << i;
}

TEST(CpuCompilerApi, CompileErrorThroughTheApi) {
  ag_program program = nullptr;
  ASSERT_AG(agProgramCreate("__global__ void k(float* y) { y[0] = ; }\n", "bad.cu", 0, nullptr,
                            nullptr, &program));
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, agProgramCompile(program, cpu_device(), 0, nullptr));
  EXPECT_NE(std::string::npos, last_detail().find("error:")) << last_detail();
  size_t size = 0;
  ASSERT_AG(agProgramGetLog(program, nullptr, &size));
  std::string log(size, '\0');
  ASSERT_AG(agProgramGetLog(program, log.data(), &size));
  EXPECT_NE(std::string::npos, log.find("bad.cu:1:")) << log;
  EXPECT_NE(std::string::npos, log.find("error: expected expression")) << log;
  EXPECT_AG(agProgramDestroy(program));
}

TEST(CpuCompilerApi, ModuleLoadSourceRunsSharedMemoryKernel) {
  ag_module module = nullptr;
  ASSERT_AG(agModuleLoadSource(cpu_device(), kReverse, 0, nullptr, &module));
  ag_function function = nullptr;
  ASSERT_AG(agModuleGetFunction(module, "reverse", &function));
  const int n = 256;
  std::vector<float> values(n);
  for (int i = 0; i < n; ++i) values[i] = static_cast<float>(i);
  {
    DeviceBuffer<float> data(cpu_device(), values);
    int count = n;
    void* params[] = {data.param(), &count};
    ASSERT_AG(agLaunchKernel(function, 2, 1, 1, 128, 1, 1, 128 * sizeof(float), nullptr, params,
                             nullptr));
    ASSERT_AG(agDeviceSynchronize(cpu_device()));
    const std::vector<float> y = data.download();
    for (int i = 0; i < n; ++i) ASSERT_EQ(static_cast<float>(i / 128 * 128 + 127 - i % 128), y[i]);
  }
  EXPECT_AG(agModuleUnload(module));
}

}  // namespace
