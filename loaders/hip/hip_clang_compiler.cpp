#include "loaders/hip/hip_clang_compiler.h"

#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "loaders/compile_workspace.h"
#include "loaders/tool_compile.h"
#include "shim/core/environment.h"
#include "shim/core/error.h"
#include "shim/kernel_build/kernel_discovery.h"
#include "shim/support/subprocess.h"

// Set by loaders/hip/CMakeLists.txt: the clang-19 and ocml.bc this build found
// (cmake/AnygpuKernels.cmake's cache variables of the same names; empty when not found) and the
// code-object version the build's AMD code objects have.
#ifndef ANYGPU_GPU_CLANG
#define ANYGPU_GPU_CLANG ""
#endif
#ifndef ANYGPU_OCML
#define ANYGPU_OCML ""
#endif
#ifndef ANYGPU_AMDGPU_CODE_OBJECT_VERSION
#define ANYGPU_AMDGPU_CODE_OBJECT_VERSION "4"
#endif

namespace anygpu::hip {
namespace {

constexpr const char* kClangVariable = "ANYGPU_HIP_CLANG";
constexpr const char* kOcmlVariable = "ANYGPU_OCML";
constexpr const char* kOcmlInstall = "install rocm-device-libs, or set ANYGPU_OCML";

struct ClangTools {
  std::string clang, clang_version, lld, ocml;
  long long ocml_bytes = 0;
};

// -I options only: what the host's discovery compile needs of the vendor options, which are
// otherwise for amdgcn (-mcumode, -mwavefrontsize64) and which the host compile may refuse.
std::vector<std::string> include_options(const std::vector<std::string>& vendor) {
  std::vector<std::string> includes;
  for (const std::string& option : vendor)
    if (option.compare(0, 2, "-I") == 0) includes.push_back(option);
  return includes;
}

class HipClangCompiler final : public ToolCompiler {
 public:
  explicit HipClangCompiler(ClangTools tools) : ToolCompiler("", "AMD"), tools_(std::move(tools)) {}

  bool links_sources() const override { return true; }
  std::string identity() const override {
    return "clang " + tools_.clang_version + " (" + tools_.clang + ") + ld.lld, ocml (" +
           tools_.ocml + ", " + std::to_string(tools_.ocml_bytes) + " bytes), code object v" +
           ANYGPU_AMDGPU_CODE_OBJECT_VERSION;
  }

 private:
  ag_result compile_steps(ToolCompile& job, const CompileRequest& request,
                          CompileOutput& output) override {
    const std::string& target = request.target.architecture;
    if (target.compare(0, 3, "gfx") != 0)
      return fail(AG_ERROR_INVALID_VALUE, "%s compiles for AMD GPUs (gfx...), not '%s'",
                  identity().c_str(), target.c_str());
    const std::vector<std::string> common = job.common_flags(request.options);
    const std::string level =
        "-O" + std::to_string(std::min(3, std::max(0, request.options.optimization)));
    const std::string version =
        std::string("-mcode-object-version=") + ANYGPU_AMDGPU_CODE_OBJECT_VERSION;
    const std::vector<std::string> includes = include_options(request.options.vendor);
    // Each source (a portable source may have several) to bitcode, as the build does.
    std::vector<std::string> bitcode;
    for (size_t i = 0; i < job.source_count(); ++i) {
      const bool cuda = job.cuda(i);
      const std::string stem = "source" + std::to_string(i);
      // 1. Discovery: the host compile with AGK_DISCOVER finds the __global__ functions.
      const std::string discovered = job.build() + "/" + stem + ".discover.o";
      std::vector<std::string> argv = {tools_.clang, "-std=c++17", "-x", "c++",
                                       "-O0",        "-fPIC",      "-w", "-DAGK_DISCOVER"};
      if (cuda) argv.insert(argv.end(), {"-include", "anygpu/cuda.h"});
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), includes.begin(), includes.end());
      argv.insert(argv.end(), {"-c", job.source_path(i), "-o", discovered});
      ag_result result = job.run(argv, "finding the kernels of", i);
      if (result != AG_SUCCESS) return result;

      // 2. The registration file, compiled in HIP mode for the target with ocml linked in.
      DiscoveredKernels found;
      const std::string registration = stem + ".kernels.cpp";
      result =
          job.register_kernels(i, discovered, cuda ? "anygpu/cuda.h" : "", registration, &found);
      if (result != AG_SUCCESS) return result;
      bitcode.push_back(job.build() + "/" + stem + ".bc");
      argv = {tools_.clang,
              "-x",
              "hip",
              "--cuda-device-only",
              "-nogpuinc",
              "-nogpulib",
              "--offload-arch=" + target,
              version,
              level,
              "-Xclang",
              "-mlink-builtin-bitcode",
              "-Xclang",
              tools_.ocml};
      // FAST_MATH as the build has it (cmake/AnygpuKernels.cmake): -use_fast_math's denormal
      // flushing and float division and sqrt.
      if (request.options.fast_math)
        argv.insert(argv.end(), {"-fgpu-flush-denormals-to-zero",
                                 "-fno-hip-fp32-correctly-rounded-divide-sqrt"});
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
      argv.insert(argv.end(), {"-Wno-pass-failed", "-emit-llvm", "-c",
                               job.build() + "/" + registration, "-o", bitcode.back()});
      result = job.run(argv, "compiling", i);
      if (result != AG_SUCCESS) return result;
    }

    // 3. Linked by ld.lld (LTO) into the code object.
    const std::string code_object = job.build() + "/program.co";
    std::vector<std::string> link = {
        tools_.clang, "--target=amdgcn-amd-amdhsa", "-mcpu=" + target, "-nogpulib", version, level,
        "-flto"};
    link.insert(link.end(), bitcode.begin(), bitcode.end());
    link.insert(link.end(), {"-o", code_object});
    const ag_result result = job.run(link, "linking");
    if (result != AG_SUCCESS) return result;
    std::string error;
    if (!read_whole_file(code_object, &output.image, &error))
      return fail(AG_ERROR_COMPILE_FAILED, "ld.lld made no code object of %s: %s",
                  job.name().c_str(), error.c_str());
    return AG_SUCCESS;
  }

  ClangTools tools_;
};

// clang: the environment's, else the build's, else clang-19 on the PATH; its version.
bool find_clang(ClangTools* tools, std::string* reason) {
  std::string given;
  tools->clang = find_program(kClangVariable, {ANYGPU_GPU_CLANG, search_path("clang-19")}, &given);
  if (tools->clang.empty()) {
    *reason = given.empty() ? std::string("clang-19 not found (install clang-19 lld-19, or set ") +
                                  kClangVariable + ")"
                            : std::string(kClangVariable) + "=" + given +
                                  " is not a program that can be run (install clang-19 lld-19, or "
                                  "point " +
                                  kClangVariable + " at clang-19)";
    return false;
  }
  std::string output;
  if (!ask_version(tools->clang, "", &output, reason)) return false;
  tools->clang_version = version_in(output);
  return true;
}

// The ld.lld clang links amdgcn code objects with: what -print-prog-name says, absolute and there.
bool find_lld(ClangTools* tools, std::string* reason) {
  SubprocessOptions options;
  options.timeout_seconds = 60;
  options.max_output_bytes = 4096;
  const SubprocessResult answer =
      run_subprocess({tools->clang, "-print-prog-name=ld.lld"}, options);
  std::string lld = answer.succeeded() ? answer.output : "";
  while (!lld.empty() && (lld.back() == '\n' || lld.back() == '\r' || lld.back() == ' '))
    lld.pop_back();
  if (lld.empty() || lld[0] != '/' || !is_program(lld)) {
    *reason = "ld.lld for " + tools->clang + " not found (install lld-19)";
    return false;
  }
  tools->lld = lld;
  return true;
}

// The size of the file at `path`, or -1 when it is not a regular file.
long long file_bytes(const std::string& path) {
  struct stat info{};
  if (path.empty() || stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return -1;
  return static_cast<long long>(info.st_size);
}

// ocml.bc: the environment's, else the build's, else Debian's, else $ROCM_PATH's.
bool find_ocml(ClangTools* tools, std::string* reason) {
  const std::string given = environment(kOcmlVariable);
  std::vector<std::string> candidates;
  if (!given.empty()) {
    candidates = {given};
  } else {
    candidates = {ANYGPU_OCML, "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ocml.bc"};
    const std::string rocm = environment("ROCM_PATH");
    if (!rocm.empty()) candidates.push_back(rocm + "/amdgcn/bitcode/ocml.bc");
  }
  for (const std::string& candidate : candidates) {
    const long long bytes = file_bytes(candidate);
    if (bytes < 0) continue;
    tools->ocml = candidate;
    tools->ocml_bytes = bytes;
    return true;
  }
  *reason =
      given.empty()
          ? std::string("ROCm's ocml.bc, the math library AMD kernels link, not found (") +
                kOcmlInstall + ")"
          : std::string(kOcmlVariable) + "=" + given + " is not a file (" + kOcmlInstall + ")";
  return false;
}

}  // namespace

std::unique_ptr<RuntimeCompiler> make_clang_compiler(std::string& reason) {
  ClangTools tools;
  if (!find_clang(&tools, &reason) || !find_lld(&tools, &reason) || !find_ocml(&tools, &reason))
    return nullptr;
  return std::make_unique<HipClangCompiler>(std::move(tools));
}

}  // namespace anygpu::hip
