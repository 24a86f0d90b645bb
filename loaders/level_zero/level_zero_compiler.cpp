#include "loaders/level_zero/level_zero_compiler.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "loaders/compile_workspace.h"
#include "loaders/level_zero/level_zero_module.h"
#include "loaders/tool_compile.h"
#include "shim/core/error.h"
#include "shim/kernel_build/kernel_discovery.h"
#include "shim/kernel_build/spirv_block_order.h"
#include "shim/kernel_build/spirv_shared_memory.h"
#include "shim/kernel_build/spirv_subgroup_size.h"

// Set by loaders/level_zero/CMakeLists.txt: the tools this build found (cmake/AnygpuKernels.cmake's
// cache variables of the same names; empty when not found) and the highest SPIR-V version
// llvm-spirv may emit.
#ifndef ANYGPU_SPIRV_CLANG
#define ANYGPU_SPIRV_CLANG ""
#endif
#ifndef ANYGPU_SPIRV_LINK
#define ANYGPU_SPIRV_LINK ""
#endif
#ifndef ANYGPU_SPIRV_AS
#define ANYGPU_SPIRV_AS ""
#endif
#ifndef ANYGPU_LLVM_SPIRV
#define ANYGPU_LLVM_SPIRV ""
#endif
#ifndef ANYGPU_SPIRV_VERSION
#define ANYGPU_SPIRV_VERSION "1.2"
#endif

namespace anygpu {
namespace level_zero {

namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// What the build's sed does to the linked module (_anygpu_add_spirv): loop metadata dropped,
// `freeze` made a no-op, llvm.compiler.used dropped, the OpenCL versions made one.
std::string rewrite_linked_module(const std::string& ir) {
  std::istringstream lines(ir);
  std::string out;
  out.reserve(ir.size());
  for (std::string line; std::getline(lines, line);) {
    if (starts_with(line, "@llvm.compiler.used = ")) continue;
    // ", !llvm.loop !N"
    for (size_t at = line.find(", !llvm.loop !"); at != std::string::npos;
         at = line.find(", !llvm.loop !", at)) {
      size_t end = at + 14;
      while (end < line.size() && isdigit(static_cast<unsigned char>(line[end]))) ++end;
      if (end == at + 14) {
        at = end;
        continue;
      }
      line.erase(at, end - at);
    }
    // "= freeze i1 X" -> "= and i1 X, true"; "= freeze T X" -> "= bitcast T X to T"
    const size_t freeze = line.find("= freeze ");
    if (freeze != std::string::npos) {
      const size_t type_begin = freeze + 9;
      size_t type_end = type_begin;
      while (type_end < line.size() && (isalnum(static_cast<unsigned char>(line[type_end]))))
        ++type_end;
      if (type_end > type_begin && type_end < line.size() && line[type_end] == ' ' &&
          type_end + 1 < line.size()) {
        const std::string type = line.substr(type_begin, type_end - type_begin);
        const std::string value = line.substr(type_end + 1);
        line.erase(freeze);
        if (type == "i1") {
          line.append("= and i1 ").append(value).append(", true");
        } else {
          line.append("= bitcast ").append(type).append(" ").append(value).append(" to ");
          line.append(type);
        }
      }
    }
    // "!opencl.ocl.version = !{!N, !M, ...}" -> "!opencl.ocl.version = !{!N}"
    if (starts_with(line, "!opencl.ocl.version = !{!")) {
      size_t end = 25;
      while (end < line.size() && isdigit(static_cast<unsigned char>(line[end]))) ++end;
      if (end > 25) line = line.substr(0, end) + "}";
    }
    out += line;
    out += '\n';
  }
  return out;
}

struct SpirvTools {
  std::string clang, link, as, spirv;
  std::string clang_version, spirv_version;
};

class LevelZeroCompiler final : public ToolCompiler {
 public:
  explicit LevelZeroCompiler(SpirvTools tools)
      : ToolCompiler("", "SPIR-V"), tools_(std::move(tools)) {}
  std::string identity() const override {
    return "clang " + tools_.clang_version + " (" + tools_.clang + ") + llvm-spirv " +
           tools_.spirv_version + " (" + tools_.spirv + "), SPIR-V " + ANYGPU_SPIRV_VERSION +
           ", llvm-link (" + tools_.link + "), llvm-as (" + tools_.as + ")";
  }

 private:
  ag_result compile_steps(ToolCompile& job, const CompileRequest& request,
                          CompileOutput& output) override {
    ag_result result = AG_SUCCESS;
    const std::vector<std::string> common = job.common_flags(request.options);
    const std::string level =
        "-O" + std::to_string(std::min(2, std::max(0, request.options.optimization)));

    const bool cuda = job.cuda();
    const std::string bitcode = job.build() + "/program.bc";
    // Both modes run without VectorCombine, as cmake/AnygpuKernels.cmake's SPIR-V builds do: it
    // fuses index arithmetic on the builtin variables' lanes into vectors llvm-spirv 15 cannot
    // translate.
    std::vector<std::string> argv;
    if (cuda) {
      // 1. Discovery: the host compile with AGK_DISCOVER finds the __global__ functions.
      const std::string discovered = job.build() + "/discover.o";
      argv = {tools_.clang, "-std=c++17",     "-x",       "c++",          "-O0", "-fPIC",
              "-w",         "-DAGK_DISCOVER", "-include", "anygpu/cuda.h"};
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
      argv.insert(argv.end(), {"-c", job.source(), "-o", discovered});
      result = job.run(argv, "finding the kernels of");
      if (result != AG_SUCCESS) return result;
      // 2. The registration file, compiled in HIP mode for spirv64.
      DiscoveredKernels found;
      result = job.register_kernels(discovered, "anygpu/cuda.h", &found);
      if (result != AG_SUCCESS) return result;
      argv = {tools_.clang,
              "-std=c++17",
              "-x",
              "hip",
              "--offload=spirv64",
              "--cuda-device-only",
              "-nogpulib",
              "-nogpuinc",
              "-Wno-unknown-cuda-version",
              level,
              "-mllvm",
              "-disable-vector-combine"};
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
      argv.insert(argv.end(), {"-Wno-pass-failed", "-emit-llvm", "-c", job.build() + "/kernels.cpp",
                               "-o", bitcode});
      result = job.run(argv, "compiling");
      if (result != AG_SUCCESS) return result;
    } else {
      // AG_KERNEL sources: C++ for OpenCL, no registration.
      argv = {tools_.clang,     "-x",  "clcpp",  "-cl-std=clc++2021",      "-target", "spir64",
              "-ffreestanding", level, "-mllvm", "-disable-vector-combine"};
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
      argv.insert(argv.end(),
                  {"-Wno-pass-failed", "-emit-llvm", "-c", job.source(), "-o", bitcode});
      result = job.run(argv, "compiling");
      if (result != AG_SUCCESS) return result;
    }

    // 3. Linked (as the build links its modules), rewritten, kernels with warp functions pinned
    // to 32-lane sub-groups, assembled, translated.
    const std::string linked = job.build() + "/program.ll";
    result = job.run({tools_.link, "-S", bitcode, "-o", linked}, "linking");
    if (result != AG_SUCCESS) return result;
    std::string error;
    std::vector<unsigned char> text;
    if (!read_whole_file(linked, &text, &error))
      return fail(AG_ERROR_COMPILE_FAILED, "llvm-link made no module of %s: %s", job.name().c_str(),
                  error.c_str());
    std::string sized, ordered, pinned;
    if (!size_extern_shared_arrays(rewrite_linked_module(std::string(text.begin(), text.end())),
                                   kSpirvExternSharedBytes, &sized, &error) ||
        !order_blocks_by_dominance(sized, &ordered, &error) ||
        !pin_subgroup_size(ordered, kSpirvWarpLanes, &pinned, nullptr, &error)) {
      *job.log() += "anygpu: " + error + "\n";
      return fail(AG_ERROR_COMPILE_FAILED, "cannot prepare %s for llvm-spirv: %s",
                  job.name().c_str(), error.c_str());
    }
    result = job.write_build_file("pinned.ll", pinned);
    if (result != AG_SUCCESS) return result;
    const std::string assembled = job.build() + "/pinned.bc";
    result = job.run({tools_.as, job.build() + "/pinned.ll", "-o", assembled}, "assembling");
    if (result != AG_SUCCESS) return result;
    const std::string spirv = job.build() + "/program.spv";
    result = job.run({tools_.spirv, std::string("--spirv-max-version=") + ANYGPU_SPIRV_VERSION,
                      "--spirv-ext=+SPV_INTEL_subgroups", assembled, "-o", spirv},
                     "translating");
    if (result != AG_SUCCESS) return result;
    if (!read_whole_file(spirv, &output.image, &error))
      return fail(AG_ERROR_COMPILE_FAILED, "llvm-spirv made no SPIR-V of %s: %s",
                  job.name().c_str(), error.c_str());
    return AG_SUCCESS;
  }

  SpirvTools tools_;
};

// One tool: the environment variable's program, else the build's, else `name` on the PATH.
bool find_tool(const char* variable, const char* built, const char* name, const char* package,
               std::string* path, std::string* reason) {
  std::string given;
  *path = find_program(variable, {built, search_path(name)}, &given);
  if (!path->empty()) return true;
  if (!given.empty())
    *reason = std::string(variable) + "=" + given + " is not a program that can be run (install " +
              package + ", or point " + variable + " at " + name + ")";
  else
    *reason = std::string(name) + " not found (install " + package + ", or set " + variable + ")";
  return false;
}

// `tool --version`'s version, or false with `reason`.
bool ask_version(const std::string& tool, std::string* version, std::string* reason) {
  std::string output;
  if (!anygpu::ask_version(tool, "", &output, reason)) return false;
  *version = version_in(output);
  return true;
}

}  // namespace

std::unique_ptr<RuntimeCompiler> make_runtime_compiler(std::string& reason) {
  SpirvTools tools;
  if (!find_tool("ANYGPU_SPIRV_CLANG", ANYGPU_SPIRV_CLANG, "clang-15", "clang-15", &tools.clang,
                 &reason) ||
      !find_tool("ANYGPU_SPIRV_LINK", ANYGPU_SPIRV_LINK, "llvm-link-15", "llvm-15", &tools.link,
                 &reason) ||
      !find_tool("ANYGPU_SPIRV_AS", ANYGPU_SPIRV_AS, "llvm-as-15", "llvm-15", &tools.as, &reason) ||
      !find_tool("ANYGPU_LLVM_SPIRV", ANYGPU_LLVM_SPIRV, "llvm-spirv-15", "llvm-spirv-15",
                 &tools.spirv, &reason) ||
      !ask_version(tools.clang, &tools.clang_version, &reason) ||
      !ask_version(tools.spirv, &tools.spirv_version, &reason))
    return nullptr;
  return std::make_unique<LevelZeroCompiler>(std::move(tools));
}

}  // namespace level_zero
}  // namespace anygpu
