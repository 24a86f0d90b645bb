#include "loaders/cpu/cpu_compiler.h"

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "loaders/compile_workspace.h"
#include "loaders/cpu/host_toolchain.h"
#include "loaders/tool_compile.h"
#include "shim/core/error.h"
#include "shim/kernel_build/kernel_discovery.h"
#include "shim/kernel_build/kernel_registration.h"

namespace anygpu {
namespace cpu {

namespace {

// anygpu_add_kernels' ANYGPU_CPU_DYNAMIC_SHARED_BYTES: the CPU device's shared memory per block.
constexpr unsigned long kDynamicSharedBytes = 65536;
// The libm functions whose glibc versions miss CUDA's bounds bind to math_host.h's own
// (anygpu_add_kernels' host link).
constexpr const char* kWrappedMath =
    "-Wl,--wrap=cbrt,--wrap=exp10,--wrap=tanh,--wrap=j0,--wrap=j1,--wrap=y0,--wrap=y1";

class CpuCompiler final : public ToolCompiler {
 public:
  explicit CpuCompiler(HostToolchain toolchain)
      : ToolCompiler("the host compiler ", "host"), toolchain_(std::move(toolchain)) {}
  std::string identity() const override { return toolchain_.identity(); }

 private:
  ag_result compile_steps(ToolCompile& job, const CompileRequest& request,
                          CompileOutput& output) override {
    const std::vector<std::string> common = job.common_flags(request.options);

    // 1. Discovery: the host compile with AGK_DISCOVER finds the __global__ functions.
    const bool cuda = job.cuda();
    const std::string discovered = job.build() + "/discover.o";
    std::vector<std::string> argv = {
        toolchain_.compiler, "-std=c++17", "-x", "c++", "-O0", "-fPIC", "-w", "-DAGK_DISCOVER"};
    if (cuda) argv.insert(argv.end(), {"-include", "anygpu/cuda.h"});
    argv.insert(argv.end(), common.begin(), common.end());
    argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
    argv.insert(argv.end(), {"-c", job.source(), "-o", discovered});
    ag_result result = job.run(argv, "finding the kernels of");
    if (result != AG_SUCCESS) return result;

    // 2. The registration file, and the storage of extern __shared__ arrays.
    DiscoveredKernels found;
    result = job.register_kernels(discovered, cuda ? "anygpu/cuda.h" : "", &found);
    if (result != AG_SUCCESS) return result;
    std::string storage;
    if (!found.extern_shared.empty()) {
      storage = job.build() + "/shared_memory.S";
      result = job.write_build_file(
          "shared_memory.S", host_shared_memory_assembly(found.extern_shared, kDynamicSharedBytes));
      if (result != AG_SUCCESS) return result;
    }

    // 3. The host code object: compiled (with the barrier pass where there is one) and linked.
    const std::string module = job.build() + "/module.so";
    argv = {toolchain_.compiler,
            "-std=c++17",
            "-O" + std::to_string(std::min(3, std::max(0, request.options.optimization))),
            "-fPIC",
            "-fvisibility=hidden",
            "-fno-exceptions",
            "-ffp-contract=off",
            "-fno-math-errno"};
    if (!toolchain_.plugin.empty()) {
      argv.insert(argv.end(),
                  {"-Wno-pass-failed", "-DANYGPU_WORKITEM_LOOPS",
                   "-fpass-plugin=" + toolchain_.plugin, "-mllvm", "-force-ordered-reductions"});
    } else {
      output.log += "anygpu: no barrier pass (" + toolchain_.plugin_reason +
                    "): kernels with barriers run on fibers\n";
    }
    argv.insert(argv.end(), common.begin(), common.end());
    argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
    argv.push_back(job.build() + "/kernels.cpp");
    if (!storage.empty()) argv.push_back(storage);
    argv.insert(argv.end(), {"-shared", "-o", module, kWrappedMath, "-lm"});
    result = job.run(argv, "compiling");
    if (result != AG_SUCCESS) return result;
    std::string error;
    if (!read_whole_file(module, &output.image, &error))
      return fail(AG_ERROR_COMPILE_FAILED, "the host compile of %s made no code object: %s",
                  job.name().c_str(), error.c_str());
    return AG_SUCCESS;
  }

  HostToolchain toolchain_;
};

}  // namespace

std::unique_ptr<RuntimeCompiler> make_runtime_compiler(std::string& reason) {
  HostToolchain toolchain;
  if (!find_host_toolchain(&toolchain, &reason)) return nullptr;
  return std::make_unique<CpuCompiler>(std::move(toolchain));
}

}  // namespace cpu
}  // namespace anygpu
