// The CUDA backend's run-time compiler, NVRTC (loaders/cuda/nvrtc_compiler.cpp): CUDA sources and
// the AG_KERNEL dialect through anygpu's headers under NVRTC, checked by ptxas for sm_70, sm_80
// and sm_90; compile errors; a missing library; and the image loaded and run on the CUDA test
// driver, as PTX where the driver takes NVRTC's PTX ISA and as a cubin where it is older.
// Tests that need NVRTC (or ptxas) skip, saying why, where there is none.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "loaders/cuda/nvrtc_compiler.h"
#include "loaders/cuda/ptx_isa.h"
#include "shim/core/error.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

using anygpu::CompileOutput;
using anygpu::CompileRequest;
using anygpu::RuntimeCompiler;

// The compiler, made once (the first make is the cold load, timed by IdentityNamesVersionAndPath).
struct Nvrtc {
  std::unique_ptr<RuntimeCompiler> compiler;
  std::string reason;
  int major = 0;
  Nvrtc() {
    compiler = anygpu::cuda::make_nvrtc_compiler(reason);
    if (compiler) std::sscanf(compiler->identity().c_str(), "NVRTC %d.", &major);
  }
};
Nvrtc& nvrtc() {
  static Nvrtc instance;
  return instance;
}
#define REQUIRE_NVRTC() \
  if (!nvrtc().compiler) GTEST_SKIP() << "no NVRTC here (" << nvrtc().reason << ")"

std::string detail() {
  return anygpu::last_error_detail();
}

struct Compiled {
  ag_result result = AG_ERROR_UNKNOWN;
  CompileOutput output;
  std::string text() const { return std::string(output.image.begin(), output.image.end()); }
};

Compiled compile(const std::string& name, const std::string& text, const std::string& arch,
                 unsigned max_ptx = 0, std::vector<anygpu::SourceFile> headers = {},
                 anygpu::CompileOptions options = {}) {
  CompileRequest request;
  request.source = {name, text};
  request.headers = std::move(headers);
  request.options = std::move(options);
  request.target.architecture = arch;
  request.target.max_ir_version = max_ptx;
  Compiled compiled;
  anygpu::clear_last_error_detail();
  compiled.result = nvrtc().compiler->compile(request, compiled.output);
  return compiled;
}

bool is_cubin(const std::vector<unsigned char>& image) {
  return image.size() > 4 && std::memcmp(image.data(),
                                         "\x7f"
                                         "ELF",
                                         4) == 0;
}

std::string ptxas_path() {
  for (std::string candidate :
       {std::string(getenv("CUDA_PATH") ? getenv("CUDA_PATH") : "") + "/bin/ptxas",
        std::string("/usr/local/cuda/bin/ptxas")})
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  return "";
}

// Runs ptxas for `arch` on `ptx`; "" when it accepts it, else its exit and messages.
std::string ptxas_rejects(const std::string& ptx, const std::string& arch) {
  char directory[] = "/tmp/anygpu_nvrtc_XXXXXX";
  if (!mkdtemp(directory)) return "mkdtemp failed";
  const std::string in = std::string(directory) + "/kernel.ptx";
  const std::string out = std::string(directory) + "/kernel.cubin";
  const std::string log = std::string(directory) + "/ptxas.log";
  std::ofstream(in) << ptx;
  const std::string command =
      ptxas_path() + " -arch=" + arch + " " + in + " -o " + out + " >" + log + " 2>&1";
  const int status = std::system(command.c_str());
  std::stringstream messages;
  messages << std::ifstream(log).rdbuf();
  std::remove(in.c_str());
  std::remove(out.c_str());
  std::remove(log.c_str());
  rmdir(directory);
  if (status == 0) return "";
  return "ptxas exit " + std::to_string(WEXITSTATUS(status)) + ": " + messages.str();
}

// CUDA sources, one per feature; all .cu, so anygpu/cuda.h comes first.
struct Feature {
  const char* name;
  const char* source;
  const char* ptx_must_hold;  // an instruction the feature compiles to
};
const Feature kFeatures[] = {
    {"saxpy",
     "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i < n) y[i] = a * x[i] + y[i];\n"
     "}\n",
     "fma.rn.f32"},
    {"shared_memory",
     "__global__ void reverse(float* data) {\n"
     "  __shared__ float tile[256];\n"
     "  tile[threadIdx.x] = data[blockIdx.x * 256 + threadIdx.x];\n"
     "  __syncthreads();\n"
     "  data[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];\n"
     "}\n",
     "bar.sync"},
    {"warp_shuffle_reduction",
     "__global__ void warp_sum(const float* in, float* out) {\n"
     "  float v = in[threadIdx.x];\n"
     "  for (int offset = 16; offset > 0; offset /= 2)\n"
     "    v += __shfl_down_sync(0xffffffffu, v, offset);\n"
     "  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;\n"
     "}\n",
     "shfl.sync.down"},
    {"atomics",
     "__global__ void count(const int* v, int n, unsigned* hits, float* sum,\n"
     "                      unsigned long long* bits, int* low) {\n"
     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "  if (i >= n) return;\n"
     "  atomicAdd(hits, 1u);\n"
     "  atomicAdd(sum, (float)v[i]);\n"
     "  atomicOr(bits, 1ull << (i % 64));\n"
     "  atomicMin(low, v[i]);\n"
     "  atomicCAS(hits + 1, 0u, (unsigned)i);\n"
     "  atomicAdd_block(hits + 2, 1u);\n"
     "}\n",
     "atom.global"},
    {"double_math",
     "__global__ void exp_double(const double* x, double* y) {\n"
     "  y[threadIdx.x] = exp(x[threadIdx.x]) + log1p(x[threadIdx.x]) + sqrt(x[threadIdx.x]);\n"
     "}\n",
     "sqrt.rn.f64"},
    {"half_arithmetic",
     "#include <cuda_fp16.h>\n"
     "__global__ void half_axpy(const __half* x, __half* y, __half a, __half2* pairs) {\n"
     "  y[threadIdx.x] = __hfma(a, x[threadIdx.x], y[threadIdx.x]) * a;\n"
     "  pairs[threadIdx.x] = __hmul2(pairs[threadIdx.x], __half2half2(a));\n"
     "}\n",
     "f16"},
    {"cooperative_groups_tiled_partition",
     "#include <cooperative_groups.h>\n"
     "#include <cooperative_groups/reduce.h>\n"
     "namespace cg = cooperative_groups;\n"
     "__global__ void tile_sums(const int* in, int* out) {\n"
     "  cg::thread_block block = cg::this_thread_block();\n"
     "  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"
     "  int v = in[block.thread_rank()];\n"
     "  v = cg::reduce(tile, v, cg::plus<int>());\n"
     "  v += tile.shfl_down(v, 1);\n"
     "  if (tile.thread_rank() == 0) out[block.thread_rank() / 32] = v;\n"
     "  block.sync();\n"
     "}\n",
     "shfl.sync"},
};

// The AG_KERNEL dialect: a C++ source that includes anygpu/kernel.h itself.
const char kDialectSource[] =
    "#include <anygpu/kernel.h>\n"
    "AG_KERNEL(dialect_block_sum, (int n, const AG_GLOBAL float* in, AG_GLOBAL float* out,\n"
    "                              AG_GLOBAL unsigned* flag)) {\n"
    "  __shared__ float partial[128];\n"
    "  AG_DYNAMIC_SHARED(float, extra);\n"
    "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  partial[threadIdx.x] = i < n ? in[i] : 0.0f;\n"
    "  extra[threadIdx.x] = sqrtf(fabsf(partial[threadIdx.x]));\n"
    "  __syncthreads();\n"
    "  if (threadIdx.x == 0) {\n"
    "    float s = 0;\n"
    "    for (unsigned t = 0; t < blockDim.x; ++t) s += partial[t];\n"
    "    atomicAdd(out, s + 0 * extra[0]);\n"
    "    atomicAdd_system(flag + 1, 1u);\n"
    "    atomicStore(flag, atomicLoad(flag) + (uint32_t)gridDim.x);\n"
    "  }\n"
    "}\n";

// The test kernels' saxpy (kernels/saxpy.cpp), which the CUDA test driver runs from its host
// build: the same source, as the application would hand it to agProgramCreate.
const char kSaxpySource[] =
    "#include <anygpu/kernel.h>\n"
    "AG_KERNEL(saxpy, (int n, float a, const AG_GLOBAL float* x, AG_GLOBAL float* y)) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

class NvrtcArchTest : public ::testing::TestWithParam<int> {};

TEST_P(NvrtcArchTest, CudaFeaturesPassPtxas) {
  REQUIRE_NVRTC();
  const int sm = GetParam();
  const std::string arch = "sm_" + std::to_string(sm);
  if (sm < 75 && nvrtc().major >= 13) {
    // CUDA 13 dropped sm_70: the compile is refused with what the compiler does compile for.
    const Compiled compiled = compile("saxpy.cu", kFeatures[0].source, arch);
    EXPECT_EQ(AG_ERROR_NOT_SUPPORTED, compiled.result);
    EXPECT_NE(std::string::npos, detail().find("not for the device's sm_70")) << detail();
    EXPECT_NE(std::string::npos, detail().find("compiles for sm_75 to")) << detail();
    GTEST_SKIP() << "NVRTC " << nvrtc().major << " compiles no PTX for " << arch
                 << " (its error was checked): " << detail();
  }
  if (ptxas_path().empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) to check the PTX with";
  for (const Feature& feature : kFeatures) {
    SCOPED_TRACE(feature.name);
    const Compiled compiled = compile(std::string(feature.name) + ".cu", feature.source, arch);
    ASSERT_EQ(AG_SUCCESS, compiled.result) << detail() << "\n" << compiled.output.log;
    ASSERT_FALSE(compiled.output.image.empty());
    EXPECT_EQ(0, compiled.output.image.back()) << "PTX is NUL-terminated";
    const std::string ptx = compiled.text();
    EXPECT_NE(std::string::npos, ptx.find(".target " + arch)) << ptx.substr(0, 400);
    EXPECT_NE(std::string::npos, ptx.find(feature.ptx_must_hold)) << ptx;
    EXPECT_EQ("", ptxas_rejects(compiled.text().c_str(), arch));
  }
  const Compiled dialect = compile("dialect.cpp", kDialectSource, arch);
  ASSERT_EQ(AG_SUCCESS, dialect.result) << detail() << "\n" << dialect.output.log;
  const std::string ptx = dialect.text();
  EXPECT_NE(std::string::npos, ptx.find(".entry dialect_block_sum(")) << ptx;
  EXPECT_NE(std::string::npos, ptx.find("anygpu_params_dialect_block_sum[")) << ptx;
  EXPECT_NE(std::string::npos, ptx.find("membar.gl")) << "atomicLoad/atomicStore fence";
  EXPECT_EQ("", ptxas_rejects(ptx.c_str(), arch));
}

INSTANTIATE_TEST_SUITE_P(Nvrtc, NvrtcArchTest, ::testing::Values(70, 80, 90),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "sm_" + std::to_string(info.param);
                         });

TEST(NvrtcTest, IdentityNamesVersionAndPath) {
  const auto start = std::chrono::steady_clock::now();
  REQUIRE_NVRTC();
  // "NVRTC 13.0 (/path/libnvrtc.so.13)", then perhaps " with headers from /path" (no std::regex:
  // GCC 12 warns inside it under the sanitizers' -O1).
  const std::string identity = nvrtc().compiler->identity();
  int major = -1, minor = -1;
  char slash = 0;
  EXPECT_EQ(3, std::sscanf(identity.c_str(), "NVRTC %d.%d (%c", &major, &minor, &slash))
      << identity;
  EXPECT_EQ('/', slash) << identity;
  const size_t library = identity.find("libnvrtc");
  ASSERT_NE(std::string::npos, library) << identity;
  EXPECT_NE(std::string::npos, identity.find(".so", library)) << identity;
  EXPECT_NE(std::string::npos, identity.find(')', library)) << identity;
  const Compiled saxpy = compile("saxpy.cu", kFeatures[0].source, "sm_80");
  ASSERT_EQ(AG_SUCCESS, saxpy.result) << detail();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Informational: the first compile of the process, library load included.
  std::printf("cold NVRTC compile of saxpy (load included, if first): %.3f s, %s\n", seconds,
              nvrtc().compiler->identity().c_str());
}

TEST(NvrtcTest, DoubleMathStaysDouble) {
  REQUIRE_NVRTC();
  const Compiled compiled = compile("exp.cu", kFeatures[4].source, "sm_80");
  ASSERT_EQ(AG_SUCCESS, compiled.result) << detail();
  const std::string ptx = compiled.text();
  EXPECT_EQ(std::string::npos, ptx.find("cvt.rn.f32.f64")) << "exp(double) went through float";
  EXPECT_NE(std::string::npos, ptx.find(".f64")) << ptx;
}

TEST(NvrtcTest, OptionsReachTheCompiler) {
  REQUIRE_NVRTC();
  const char source[] =
      "#include \"params.h\"\n"
      "__global__ void scaled(float* y, float d) { y[threadIdx.x] = y[threadIdx.x] / d * SCALE; "
      "}\n";
  anygpu::CompileOptions options;
  options.defines = {"SCALE=FACTOR"};
  options.fast_math = true;
  const Compiled fast =
      compile("scaled.cu", source, "sm_80", 0, {{"params.h", "#define FACTOR 3.0f\n"}}, options);
  ASSERT_EQ(AG_SUCCESS, fast.result) << detail() << fast.output.log;
  // --use_fast_math: approximate division, flushing denormals; IEEE division without it.
  EXPECT_EQ(std::string::npos, fast.text().find("div.rn.f32")) << fast.text();
  EXPECT_NE(std::string::npos, fast.text().find(".ftz.f32")) << fast.text();
  EXPECT_NE(std::string::npos, fast.text().find("0f40400000")) << "3.0f from -D and the header";
  options.fast_math = false;
  const Compiled precise =
      compile("scaled.cu", source, "sm_80", 0, {{"params.h", "#define FACTOR 3.0f\n"}}, options);
  ASSERT_EQ(AG_SUCCESS, precise.result) << detail();
  EXPECT_NE(std::string::npos, precise.text().find("div.rn.f32")) << precise.text();
  EXPECT_EQ(std::string::npos, precise.text().find(".ftz")) << precise.text();
  options.vendor = {"--no-such-nvrtc-option"};
  const Compiled bad =
      compile("scaled.cu", source, "sm_80", 0, {{"params.h", "#define FACTOR 3.0f\n"}}, options);
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, bad.result);
  EXPECT_NE(std::string::npos, detail().find("NVRTC_ERROR_INVALID_OPTION")) << detail();
}

TEST(NvrtcTest, CompileErrorGivesLogAndFirstErrorLine) {
  REQUIRE_NVRTC();
  const Compiled compiled = compile(
      "broken.cu", "__global__ void broken(float* y) {\n  y[0] = undeclared_name;\n}\n", "sm_80");
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, compiled.result);
  EXPECT_TRUE(compiled.output.image.empty());
  EXPECT_NE(std::string::npos, compiled.output.log.find("undeclared_name")) << compiled.output.log;
  // The source's own line numbers (anygpu/cuda.h is included ahead of it).
  EXPECT_NE(std::string::npos, detail().find("broken.cu(2): error")) << detail();
  EXPECT_NE(std::string::npos, detail().find("undeclared_name")) << detail();
}

TEST(NvrtcTest, MissingLibraryNamesWhatToInstall) {
  const char* saved = getenv("ANYGPU_NVRTC_LIBRARY");
  const std::string previous = saved ? saved : "";
  setenv("ANYGPU_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so.13", 1);
  std::string reason;
  const auto compiler = anygpu::cuda::make_nvrtc_compiler(reason);
  if (saved)
    setenv("ANYGPU_NVRTC_LIBRARY", previous.c_str(), 1);
  else
    unsetenv("ANYGPU_NVRTC_LIBRARY");
  EXPECT_EQ(nullptr, compiler);
  EXPECT_NE(std::string::npos,
            reason.find("libnvrtc.so.13 not found (install the CUDA toolkit's NVRTC, or name the "
                        "library in ANYGPU_NVRTC_LIBRARY)"))
      << reason;
  EXPECT_NE(std::string::npos, reason.find("/nonexistent/libnvrtc.so.13")) << reason;
}

TEST(NvrtcTest, PtxNewerThanDriverWithoutCubinIsAClearError) {
  REQUIRE_NVRTC();
  // sm_130: NVRTC has no architecture of its major version, so no cubin can stand in for PTX
  // that a CUDA 12.4 driver (PTX ISA 8.4) cannot compile.
  const Compiled compiled = compile("saxpy.cu", kFeatures[0].source, "sm_130", 804);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, compiled.result);
  EXPECT_NE(std::string::npos, detail().find("the CUDA driver compiles PTX ISA 8.4 at most"))
      << detail();
  const size_t writes = detail().find("writes PTX ISA ");
  ASSERT_NE(std::string::npos, writes) << detail();
  int isa_major = -1, isa_minor = -1;
  EXPECT_EQ(2,
            std::sscanf(detail().c_str() + writes, "writes PTX ISA %d.%d", &isa_major, &isa_minor))
      << detail();
}

// The CUDA test driver's device: its target as the backend gives it (code_target()).
ag_device cuda_device(anygpu::DeviceTarget* target) {
  int count = 0;
  EXPECT_EQ(AG_SUCCESS, agDeviceGetCount(&count));
  for (int i = 0; i < count; ++i) {
    ag_device device = device_at(i);
    ag_device_properties properties{};
    properties.struct_size = sizeof properties;
    if (agDeviceGetProperties(device, &properties) != AG_SUCCESS) continue;
    if (properties.backend != AG_BACKEND_CUDA) continue;
    target->architecture = properties.architecture;
    target->max_ir_version = anygpu::cuda::max_ptx_version_for_driver(properties.driver_version);
    return device;
  }
  return nullptr;
}

// saxpy compiled for the test driver's device, loaded and run. The driver takes NVRTC's PTX
// when it is as new as NVRTC (cuda.nvrtc_ptx_on_a_new_driver runs this with CUDA 13.0), and is
// given a cubin otherwise (the default test driver is CUDA 12.4: PTX ISA 8.4).
TEST(NvrtcTest, LoadsAndRunsOnTheTestDriver) {
  REQUIRE_NVRTC();
  anygpu::DeviceTarget target;
  ag_device device = cuda_device(&target);
  ASSERT_NE(nullptr, device) << "no CUDA test driver device";
  CompileRequest request;
  request.source = {"saxpy.cpp", kSaxpySource};
  request.target = target;
  CompileOutput output;
  ASSERT_EQ(AG_SUCCESS, nvrtc().compiler->compile(request, output)) << detail();
  const unsigned nvrtc_ptx =
      anygpu::cuda::max_ptx_version_for_driver(nvrtc().major * 1000);  // X.0's ISA at least
  if (target.max_ir_version >= nvrtc_ptx) {
    EXPECT_FALSE(is_cubin(output.image)) << "the driver takes NVRTC's PTX";
    EXPECT_NE(std::string::npos,
              std::string(output.image.begin(), output.image.end()).find(".entry saxpy("));
  } else {
    EXPECT_TRUE(is_cubin(output.image))
        << "driver PTX ISA " << target.max_ir_version << " < NVRTC's " << nvrtc_ptx;
  }
  ag_module module = nullptr;
  ASSERT_AG(agModuleLoadData(device, output.image.data(), output.image.size(), &module));
  ag_function function = nullptr;
  ASSERT_AG(agModuleGetFunction(module, "saxpy", &function));
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.0f;
  {
    DeviceBuffer<float> dx(device, x), dy(device, y);
    float a = 2.0f;
    int count = n;
    void* params[] = {&count, &a, dx.param(), dy.param()};
    ASSERT_AG(
        agLaunchKernel(function, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
    const std::vector<float> result = dy.download();
    for (int i = 0; i < n; ++i) ASSERT_EQ(2.0f * float(i) + 1.0f, result[i]) << i;
  }
  EXPECT_AG(agModuleUnload(module));
}

// The conformance suite's CUDA sources (tests/cuda_sources/*.cu), each compiled through NVRTC:
// what compiles under NVRTC with anygpu's headers.
TEST(NvrtcTest, ConformanceCudaSourcesCompile) {
  REQUIRE_NVRTC();
  const std::string directory = ANYGPU_NVRTC_CUDA_SOURCES;
  const char* sources[] = {"black_scholes.cu",     "cuda_syntax.cu",      "half_and_bits.cu",
                           "half_math.cu",         "histogram256.cu",     "kernel_names.cu",
                           "layernorm_forward.cu", "math_functions.cu",   "math_rounding.cu",
                           "matrix_mul.cu",        "module_variables.cu", "nbody.cu",
                           "printf_kernel.cu",     "reduction.cu",        "scan.cu",
                           "softmax_forward.cu",   "transpose.cu",        "warp_reduce.cu",
                           "warp_scan.cu",         "warp_softmax.cu",     "warp_vote.cu"};
  auto read = [&](const std::string& name) {
    std::stringstream text;
    text << std::ifstream(directory + "/" + name).rdbuf();
    return text.str();
  };
  for (const char* name : sources) {
    SCOPED_TRACE(name);
    const std::string text = read(name);
    ASSERT_FALSE(text.empty()) << directory << "/" << name;
    const Compiled compiled =
        compile(name, text, "sm_80", 0, {{"math_function_list.h", read("math_function_list.h")}});
    EXPECT_EQ(AG_SUCCESS, compiled.result) << detail() << "\n" << compiled.output.log;
  }
}

}  // namespace
}  // namespace anygpu_test
