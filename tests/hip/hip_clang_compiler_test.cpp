// The HIP backend's clang-19 compiler (loaders/hip/hip_clang_compiler.cpp) alone, and behind
// hiprtc (loaders/hip/hip_compilers.cpp), with this machine's clang-19, ld.lld and ocml.bc, which
// compile without an AMD GPU. Each program is checked as an AMD code object of the target asked
// (ELF e_machine EM_AMDGPU, e_flags' mach and features, read by anygpu's code-object library).
// Through the public API the test driver's device is a gfx1101, which Debian's hiprtc (HIP 5.2)
// refuses, so clang compiles it; the code object is loaded and launched there. The test driver
// runs a launched kernel from the host build of the test kernels, by name (tests/drivers/hip): the
// sources compiled here are the test kernels' own files, so that the kernel the driver finds by
// the code object's name is the same code. A test skips, with the reason, where a tool is missing.
#include <gtest/gtest.h>

#include <elf.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "hip_compile_support.h"
#include "hip_driver_access.h"
#include "loaders/hip/hip_clang_compiler.h"
#include "loaders/hip/hip_compilers.h"
#include "loaders/hip/hiprtc_compiler.h"
#include "shim/code_object/amdgpu_target.h"
#include "shim/code_object/code_object.h"
#include "shim/code_object/code_object_target.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

// The clang compiler, made once: nullptr (and the reason) where a tool is missing.
anygpu::RuntimeCompiler* clang(std::string* reason = nullptr) {
  static std::string why;
  static std::unique_ptr<anygpu::RuntimeCompiler> made = anygpu::hip::make_clang_compiler(why);
  if (reason) *reason = why;
  return made.get();
}

#define REQUIRE_CLANG()                                                                          \
  do {                                                                                           \
    std::string reason;                                                                          \
    if (!clang(&reason)) GTEST_SKIP() << "no clang-19 with ld.lld and ocml.bc here: " << reason; \
  } while (0)

// Sets an environment variable for the life of the object, then puts the old value back.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnvironment() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

bool holds(const std::vector<unsigned char>& image, const std::string& text) {
  return std::string(image.begin(), image.end()).find(text) != std::string::npos;
}

TEST(HipClangCompiler, IdentityNamesClangLldOcmlAndCodeObjectVersion) {
  REQUIRE_CLANG();
  const std::string identity = clang()->identity();
  EXPECT_EQ(0u, identity.find("clang ")) << identity;
  EXPECT_NE(std::string::npos, identity.find("+ ld.lld, ocml (")) << identity;
  EXPECT_NE(std::string::npos, identity.find("ocml.bc, ")) << identity;
  EXPECT_NE(std::string::npos, identity.find(" bytes), code object v")) << identity;
}

// gfx1101 and gfx1200 are beyond hiprtc 5.2; gfx90a:xnack- checks that a feature reaches e_flags.
TEST(HipClangCompiler, CompilesAgKernelSourceForNewTargetsAndFeatures) {
  REQUIRE_CLANG();
  const std::string saxpy = read_source("kernels/saxpy.cpp");
  ASSERT_FALSE(saxpy.empty());
  for (const char* target : {"gfx1101", "gfx1200", "gfx90a:xnack-"}) {
    const Compiled compiled = compile(clang(), "saxpy.cpp", saxpy, target);
    ASSERT_EQ(AG_SUCCESS, compiled.result) << target << ": " << compiled.detail << "\n"
                                           << compiled.output.log;
    expect_amd_code_object(compiled.output.image, target);
    EXPECT_TRUE(holds(compiled.output.image, "saxpy")) << target;
  }
}

// CUDA syntax (.cu): the kernels found by the discovery compile, their mangled names in the code
// object.
TEST(HipClangCompiler, CompilesCudaSourceWithDiscoveredKernels) {
  REQUIRE_CLANG();
  const std::string transpose = read_source("tests/cuda_sources/transpose.cu");
  ASSERT_FALSE(transpose.empty());
  const Compiled compiled = compile(clang(), "transpose.cu", transpose, "gfx1101");
  ASSERT_EQ(AG_SUCCESS, compiled.result) << compiled.detail << "\n" << compiled.output.log;
  expect_amd_code_object(compiled.output.image, "gfx1101");
  for (const char* kernel : {"_Z14transposeNaivePfPKfii", "_Z18transposeCoalescedPfPKfii",
                             "_Z24transposeNoBankConflictsPfPKfii"})
    EXPECT_TRUE(holds(compiled.output.image, kernel)) << kernel;
}

TEST(HipClangCompiler, CompileErrorIsCompileFailedWithTheLog) {
  REQUIRE_CLANG();
  const Compiled compiled = compile(
      clang(), "broken.cpp",
      "#include <anygpu/kernel.h>\nAG_KERNEL(broken, (int* p)) { *p = undeclared; }\n", "gfx1101");
  ASSERT_EQ(AG_ERROR_COMPILE_FAILED, compiled.result);
  EXPECT_NE(std::string::npos, compiled.detail.find("undeclared")) << compiled.detail;
  EXPECT_NE(std::string::npos, compiled.output.log.find("undeclared")) << compiled.output.log;
  EXPECT_TRUE(compiled.output.image.empty());
}

TEST(HipClangCompiler, ApplicationHeadersDefinesAndFastMath) {
  REQUIRE_CLANG();
  anygpu::CompileRequest request;
  request.source = {"scale.cpp",
                    "#include <anygpu/kernel.h>\n#include \"factor.h\"\n"
                    "AG_KERNEL(scale, (float* p)) { p[threadIdx.x] = expf(p[threadIdx.x]) * "
                    "FACTOR * EXTRA; }\n"};
  request.headers = {{"factor.h", "#define FACTOR 3.0f\n"}};
  request.options.defines = {"EXTRA=2"};
  request.options.fast_math = true;
  request.target.architecture = "gfx1101";
  anygpu::CompileOutput output;
  ASSERT_EQ(AG_SUCCESS, clang()->compile(request, output)) << last_detail() << output.log;
  expect_amd_code_object(output.image, "gfx1101");
  request.options.defines.clear();  // EXTRA now undeclared
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, clang()->compile(request, output));
}

// FLOAT_DENORM_MODE_32 of the kernel descriptor `kernel`.kd in an AMD code object: bits 16-17 of
// COMPUTE_PGM_RSRC1 (byte 48 of the 64-byte descriptor); 3 keeps float denormals, 0 flushes them.
// -1 where the object has no such symbol.
int float_denorm_mode(const std::vector<unsigned char>& image, const std::string& kernel) {
  if (image.size() < sizeof(Elf64_Ehdr)) return -1;
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof header);
  const auto section = [&](size_t index) {
    Elf64_Shdr s{};
    const size_t at = header.e_shoff + index * sizeof(Elf64_Shdr);
    if (at + sizeof s <= image.size()) std::memcpy(&s, image.data() + at, sizeof s);
    return s;
  };
  for (size_t i = 0; i < header.e_shnum; ++i) {
    const Elf64_Shdr symbols = section(i);
    if (symbols.sh_type != SHT_SYMTAB) continue;
    const Elf64_Shdr names = section(symbols.sh_link);
    for (size_t k = 0; k < symbols.sh_size / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym symbol;
      std::memcpy(&symbol, image.data() + symbols.sh_offset + k * sizeof symbol, sizeof symbol);
      const char* name =
          reinterpret_cast<const char*>(image.data() + names.sh_offset + symbol.st_name);
      if (kernel + ".kd" != name) continue;
      const Elf64_Shdr holder = section(symbol.st_shndx);
      uint32_t rsrc1 = 0;
      std::memcpy(&rsrc1, image.data() + holder.sh_offset + (symbol.st_value - holder.sh_addr) + 48,
                  sizeof rsrc1);
      return static_cast<int>((rsrc1 >> 16) & 3u);
    }
  }
  return -1;
}

// FAST_MATH as the build has it: float denormals flushed in the kernel descriptor (the build's
// objects' approximate division check_math_instructions.sh fast-amdgpu reads).
TEST(HipClangCompiler, FastMathFlushesFloatDenormals) {
  REQUIRE_CLANG();
  anygpu::CompileRequest request;
  request.source = {"divide.cpp",
                    "#include <anygpu/kernel.h>\n"
                    "AG_KERNEL(divide, (float* p)) { p[threadIdx.x] = 1.0f / p[threadIdx.x]; }\n"};
  request.target.architecture = "gfx1101";
  anygpu::CompileOutput output;
  ASSERT_EQ(AG_SUCCESS, clang()->compile(request, output)) << last_detail() << output.log;
  EXPECT_EQ(3, float_denorm_mode(output.image, "divide")) << "IEEE: denormals kept";
  request.options.fast_math = true;
  ASSERT_EQ(AG_SUCCESS, clang()->compile(request, output)) << last_detail() << output.log;
  EXPECT_EQ(0, float_denorm_mode(output.image, "divide")) << "FAST_MATH: denormals flushed";
}

TEST(HipClangCompiler, RefusesATargetThatIsNotAmd) {
  REQUIRE_CLANG();
  const Compiled compiled =
      compile(clang(), "saxpy.cpp", read_source("kernels/saxpy.cpp"), "sm_90");
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, compiled.result);
  EXPECT_NE(std::string::npos, compiled.detail.find("sm_90")) << compiled.detail;
}

// ---- the factories, with the environment they read
// -----------------------------------------------

TEST(HipCompilerFactory, MissingClangNamesWhatToInstall) {
  ScopedEnvironment no_clang("ANYGPU_HIP_CLANG", "/nonexistent/clang-19");
  std::string reason;
  EXPECT_EQ(nullptr, anygpu::hip::make_clang_compiler(reason));
  EXPECT_NE(std::string::npos, reason.find("ANYGPU_HIP_CLANG=/nonexistent/clang-19")) << reason;
  EXPECT_NE(std::string::npos, reason.find("install clang-19 lld-19")) << reason;
}

TEST(HipCompilerFactory, MissingOcmlNamesWhatToInstall) {
  REQUIRE_CLANG();
  ScopedEnvironment no_ocml("ANYGPU_OCML", "/nonexistent/ocml.bc");
  std::string reason;
  EXPECT_EQ(nullptr, anygpu::hip::make_clang_compiler(reason));
  EXPECT_NE(std::string::npos, reason.find("ANYGPU_OCML=/nonexistent/ocml.bc")) << reason;
  EXPECT_NE(std::string::npos, reason.find("rocm-device-libs")) << reason;
}

TEST(HipCompilerFactory, NeitherInstalledNamesBoth) {
  ScopedEnvironment no_hiprtc("ANYGPU_HIPRTC_LIBRARY", "/nonexistent/libhiprtc.so");
  ScopedEnvironment no_clang("ANYGPU_HIP_CLANG", "/nonexistent/clang-19");
  std::string reason;
  EXPECT_EQ(nullptr, anygpu::hip::make_runtime_compiler(reason));
  EXPECT_NE(std::string::npos, reason.find("/nonexistent/libhiprtc.so")) << reason;
  EXPECT_NE(std::string::npos, reason.find("libhiprtc.so.6")) << reason;
  EXPECT_NE(std::string::npos, reason.find("/nonexistent/clang-19")) << reason;
  EXPECT_NE(std::string::npos, reason.find("lld-19")) << reason;
}

// Without clang the backend's compiler is hiprtc alone: nothing to fall back to.
TEST(HipCompilerFactory, WithoutClangHiprtcAlone) {
  std::string hiprtc_reason;
  if (!anygpu::hip::make_hiprtc_compiler(hiprtc_reason))
    GTEST_SKIP() << "no hiprtc here: " << hiprtc_reason;
  ScopedEnvironment no_clang("ANYGPU_HIP_CLANG", "/nonexistent/clang-19");
  std::string reason;
  std::unique_ptr<anygpu::RuntimeCompiler> made = anygpu::hip::make_runtime_compiler(reason);
  ASSERT_NE(nullptr, made) << reason;
  EXPECT_EQ(0u, made->identity().find("hiprtc ")) << made->identity();
  EXPECT_EQ(std::string::npos, made->identity().find("; else ")) << made->identity();
}

// Without hiprtc the backend's compiler is clang alone, and it compiles.
TEST(HipCompilerFactory, WithoutHiprtcClangAlone) {
  REQUIRE_CLANG();
  ScopedEnvironment no_hiprtc("ANYGPU_HIPRTC_LIBRARY", "/nonexistent/libhiprtc.so");
  std::string reason;
  std::unique_ptr<anygpu::RuntimeCompiler> made = anygpu::hip::make_runtime_compiler(reason);
  ASSERT_NE(nullptr, made) << reason;
  EXPECT_EQ(clang()->identity(), made->identity());
  const Compiled compiled =
      compile(made.get(), "saxpy.cpp", read_source("kernels/saxpy.cpp"), "gfx1030");
  ASSERT_EQ(AG_SUCCESS, compiled.result) << compiled.detail << "\n" << compiled.output.log;
  expect_amd_code_object(compiled.output.image, "gfx1030");
}

// ---- both: hiprtc first, clang for what hiprtc cannot compile
// -------------------------------------

class HipBothCompilers : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_CLANG();
    std::string reason;
    if (!anygpu::hip::make_hiprtc_compiler(reason)) GTEST_SKIP() << "no hiprtc here: " << reason;
    both = anygpu::hip::make_runtime_compiler(reason);
    ASSERT_NE(nullptr, both) << reason;
  }
  std::unique_ptr<anygpu::RuntimeCompiler> both;
};

TEST_F(HipBothCompilers, IdentityNamesBothInOrder) {
  const std::string identity = both->identity();
  EXPECT_EQ(0u, identity.find("hiprtc ")) << identity;
  EXPECT_NE(std::string::npos, identity.find("; else " + clang()->identity())) << identity;
  EXPECT_EQ(identity, both->identity());
}

// A target hiprtc compiles (gfx90a) is hiprtc's; one it refuses (gfx1101 under HIP 5.2's comgr)
// is clang's, and the log says why.
TEST_F(HipBothCompilers, ClangCompilesWhatHiprtcRefuses) {
  const std::string saxpy = read_source("kernels/saxpy.cpp");
  const Compiled hiprtc = compile(both.get(), "saxpy.cpp", saxpy, "gfx90a");
  ASSERT_EQ(AG_SUCCESS, hiprtc.result) << hiprtc.detail << "\n" << hiprtc.output.log;
  expect_amd_code_object(hiprtc.output.image, "gfx90a");
  EXPECT_EQ(std::string::npos, hiprtc.output.log.find("compiled with clang")) << hiprtc.output.log;

  for (const char* target : {"gfx1101", "gfx942", "gfx1200"}) {
    const Compiled compiled = compile(both.get(), "saxpy.cpp", saxpy, target);
    ASSERT_EQ(AG_SUCCESS, compiled.result) << target << ": " << compiled.detail << "\n"
                                           << compiled.output.log;
    expect_amd_code_object(compiled.output.image, target);
  }
}

// A source hiprtc finds wrong is its error, not compiled again by clang.
TEST_F(HipBothCompilers, HiprtcCompileErrorIsNotRetried) {
  const Compiled compiled = compile(
      both.get(), "broken.cpp",
      "#include <anygpu/kernel.h>\nAG_KERNEL(broken, (int* p)) { *p = undeclared; }\n", "gfx90a");
  ASSERT_EQ(AG_ERROR_COMPILE_FAILED, compiled.result);
  EXPECT_NE(std::string::npos, compiled.detail.find("undeclared")) << compiled.detail;
  EXPECT_EQ(std::string::npos, compiled.output.log.find("compiled with clang"))
      << compiled.output.log;
}

// A portable source (which the build compiled with clang-19) goes to clang first: here a CUDA
// source with __nv_bfloat16, which hiprtc 5.2 does not offer.
TEST_F(HipBothCompilers, APortableSourceGoesToTheBuildsCompilerFirst) {
  anygpu::CompileRequest request;
  request.source = {"widen.cu",
                    "__global__ void widen(const __nv_bfloat16* in, float* out) {\n"
                    "  out[threadIdx.x] = __bfloat162float(in[threadIdx.x]);\n}\n"};
  request.target.architecture = "gfx90a";
  anygpu::CompileOutput output;
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, both->compile(request, output)) << "hiprtc took it";
  request.from_portable_source = true;
  ASSERT_EQ(AG_SUCCESS, both->compile(request, output)) << last_detail() << "\n" << output.log;
  expect_amd_code_object(output.image, "gfx90a");
}

// Several sources are compiled each on its own and linked into one code object; hiprtc, which
// compiles one source at a time, hands them to clang.
TEST_F(HipBothCompilers, SeveralSourcesAreLinkedIntoOneCodeObject) {
  anygpu::CompileRequest request;
  request.source = {"saxpy.cpp", read_source("kernels/saxpy.cpp")};
  request.more_sources = {{"transpose.cu", read_source("tests/cuda_sources/transpose.cu")},
                          {"saxpy.cpp", read_source("kernels/vector_add.cpp")}};
  request.target.architecture = "gfx1030";
  anygpu::CompileOutput output;
  ASSERT_EQ(AG_SUCCESS, both->compile(request, output)) << last_detail() << "\n" << output.log;
  expect_amd_code_object(output.image, "gfx1030");
  EXPECT_NE(std::string::npos, output.log.find("one source at a time")) << output.log;
  const std::string image(output.image.begin(), output.image.end());
  for (const char* kernel : {"saxpy", "vector_add", "transposeCoalesced"})
    EXPECT_NE(std::string::npos, image.find(kernel)) << kernel;
}

// ---- through the public API on the test driver's gfx1101 device
// ----------------------------------

class HipClangOnDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_CLANG();
    ASSERT_TRUE(driver.loaded());
    device = driver.hip_device();
    ASSERT_NE(nullptr, device);
    ag_device_properties p{};
    p.struct_size = sizeof p;
    ASSERT_AG(agDeviceGetProperties(device, &p));
    ASSERT_STREQ("gfx1101", p.architecture);
  }
  void TearDown() override {
    if (module) {
      EXPECT_AG(agModuleUnload(module));
    }
  }

  HipDriverAccess driver;
  ag_device device = nullptr;
  ag_module module = nullptr;
  ag_function function = nullptr;
};

// agProgramCompile of an AG_KERNEL source, its image loaded and launched.
TEST_F(HipClangOnDevice, ProgramCompileSaxpy) {
  const std::string saxpy = read_source("kernels/saxpy.cpp");
  ag_program program = nullptr;
  ASSERT_AG(agProgramCreate(saxpy.c_str(), "saxpy.cpp", 0, nullptr, nullptr, &program));
  const ag_result compiled = agProgramCompile(program, device, 0, nullptr);
  size_t log_size = 0;
  ASSERT_AG(agProgramGetLog(program, nullptr, &log_size));
  std::string log(log_size, '\0');
  ASSERT_AG(agProgramGetLog(program, &log[0], &log_size));
  ASSERT_EQ(AG_SUCCESS, compiled) << last_detail() << "\n" << log;
  size_t size = 0;
  ASSERT_AG(agProgramGetImage(program, nullptr, &size));
  std::vector<unsigned char> image(size);
  ASSERT_AG(agProgramGetImage(program, image.data(), &size));
  ASSERT_AG(agProgramDestroy(program));
  expect_amd_code_object(image, "gfx1101");
  ASSERT_AG(agModuleLoadData(device, image.data(), image.size(), &module));
  EXPECT_EQ("gfx1101", driver.last_target());
  ASSERT_AG(agModuleGetFunction(module, "saxpy", &function));

  std::vector<float> x(512), y(512, 1.0f);
  for (int i = 0; i < 512; ++i) x[i] = static_cast<float>(i);
  DeviceBuffer<float> dx(device, x), dy(device, y);
  int n = 512;
  float a = 2;
  void* params[] = {&n, &a, dx.param(), dy.param()};
  ASSERT_AG(agLaunchKernel(function, 2, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> result = dy.download();
  for (int i = 0; i < 512; ++i) ASSERT_EQ(2.0f * i + 1, result[i]) << i;
}

// agModuleLoadSource of CUDA source (shared memory, __syncthreads), launched.
TEST_F(HipClangOnDevice, ModuleLoadSourceCudaTranspose) {
  const std::string transpose = read_source("tests/cuda_sources/transpose.cu");
  ASSERT_AG(agModuleLoadSource(device, transpose.c_str(), 0, nullptr, &module));
  EXPECT_EQ("gfx1101", driver.last_target());
  ASSERT_AG(agModuleGetFunction(module, "_Z18transposeCoalescedPfPKfii", &function));

  const int height = 64, width = 96;
  std::vector<float> in(height * width);
  for (int i = 0; i < height * width; ++i) in[i] = static_cast<float>(i);
  DeviceBuffer<float> din(device, in), dout(device, in.size());
  int w = width, h = height;
  void* params[] = {dout.param(), din.param(), &w, &h};
  ASSERT_AG(
      agLaunchKernel(function, width / 32, height / 32, 1, 32, 8, 1, 0, nullptr, params, nullptr));
  const std::vector<float> out = dout.download();
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      ASSERT_EQ(in[y * width + x], out[x * height + y]) << y << "," << x;
}

// A compile error through the public API: AG_ERROR_COMPILE_FAILED, the error in the log.
TEST_F(HipClangOnDevice, CompileErrorThroughTheApi) {
  ag_program program = nullptr;
  ASSERT_AG(agProgramCreate("__global__ void k(int* p) { *p = undeclared; }\n", "broken.cu", 0,
                            nullptr, nullptr, &program));
  EXPECT_EQ(AG_ERROR_COMPILE_FAILED, agProgramCompile(program, device, 0, nullptr));
  EXPECT_NE(std::string::npos, last_detail().find("undeclared")) << last_detail();
  size_t log_size = 0;
  ASSERT_AG(agProgramGetLog(program, nullptr, &log_size));
  std::string log(log_size, '\0');
  ASSERT_AG(agProgramGetLog(program, &log[0], &log_size));
  EXPECT_NE(std::string::npos, log.find("undeclared")) << log;
  ASSERT_AG(agProgramDestroy(program));
}

}  // namespace
}  // namespace anygpu_test
