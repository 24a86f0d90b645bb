#include "loaders/level_zero/level_zero_compiler.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

#include "loaders/compile_workspace.h"
#include "loaders/level_zero/level_zero_module.h"
#include "shim/core/environment.h"
#include "shim/core/error.h"
#include "shim/kernel_build/kernel_discovery.h"
#include "shim/kernel_build/kernel_registration.h"
#include "shim/kernel_build/spirv_block_order.h"
#include "shim/kernel_build/spirv_shared_memory.h"
#include "shim/support/string_format.h"
#include "shim/support/subprocess.h"

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

using Clock = std::chrono::steady_clock;

bool is_program(const std::string& path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

// `name` on the PATH, or "".
std::string search_path(const std::string& name) {
  const char* path = getenv("PATH");
  std::stringstream directories(path ? path : "/usr/local/bin:/usr/bin:/bin");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    const std::string candidate = (directory.empty() ? "." : directory) + "/" + name;
    if (is_program(candidate)) return candidate;
  }
  return "";
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}
bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

void replace_all(std::string* text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size()))
    text->replace(at, from.size(), to);
}

// The first line of the compiler's output that says "error:", or its first line.
std::string first_error_line(const std::string& log) {
  size_t begin = 0;
  std::string first;
  while (begin < log.size()) {
    size_t end = log.find('\n', begin);
    if (end == std::string::npos) end = log.size();
    const std::string line = log.substr(begin, end - begin);
    if (line.find("error:") != std::string::npos) return line;
    if (first.empty()) first = line;
    begin = end + 1;
  }
  return first.empty() ? "no message" : first;
}

// The file name the program's source is written under (as the CPU compiler does).
std::string source_file_name(const std::string& name) {
  std::string base = name.substr(name.rfind('/') + 1);
  if (!is_relative_file_name(base)) base = ends_with(name, ".cu") ? "program.cu" : "program.cpp";
  return base;
}

// "15.0.6" from "Debian clang version 15.0.6"; the first line of the output when it says none.
std::string version_of(const std::string& output) {
  std::istringstream lines(output);
  std::string first;
  for (std::string line; std::getline(lines, line);) {
    if (first.empty()) first = line;
    const size_t at = line.find("version ");
    if (at == std::string::npos) continue;
    const size_t begin = at + 8;
    return line.substr(begin, line.find(' ', begin) - begin);
  }
  return first;
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

class LevelZeroCompiler final : public RuntimeCompiler {
 public:
  explicit LevelZeroCompiler(SpirvTools tools) : tools_(std::move(tools)) {}
  std::string identity() const override {
    return "clang " + tools_.clang_version + " (" + tools_.clang + ") + llvm-spirv " +
           tools_.spirv_version + " (" + tools_.spirv + "), SPIR-V " + ANYGPU_SPIRV_VERSION;
  }
  ag_result compile(const CompileRequest& request, CompileOutput& output) override {
    try {
      return compile_in(request, output);
    } catch (...) {
      return fail_from_exception();
    }
  }

 private:
  struct Job {
    std::string name;
    std::string sources;
    std::string build;
    std::string include;
    double timeout = 0;
    Clock::time_point deadline;
    std::string* log = nullptr;
  };

  ag_result compile_in(const CompileRequest& request, CompileOutput& output) {
    output.image.clear();
    output.log.clear();
    Job job;
    job.name = request.source.name.empty() ? "program.cu" : request.source.name;
    job.log = &output.log;
    job.timeout = compile_timeout_seconds();
    job.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(job.timeout));
    for (const SourceFile& header : request.headers)
      if (!is_relative_file_name(header.name))
        return fail(AG_ERROR_INVALID_VALUE,
                    "the header name \"%s\" is not a relative file name (no leading '/', no "
                    "'..' or empty part)",
                    header.name.c_str());
    std::string error;
    JobDirectory directory;
    if (!compile_include_directory(&job.include, &error) || !directory.create(&error))
      return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot prepare the SPIR-V compile of %s: %s",
                  job.name.c_str(), error.c_str());
    job.sources = directory.path() + "/src";
    job.build = directory.path() + "/build";
    const std::string file = source_file_name(job.name);
    const std::string source = job.sources + "/" + file;
    bool ok = write_file_under(directory.path(), "src/" + file, request.source.text, &error) &&
              write_file_under(directory.path(), "build/.keep", "", &error);
    for (size_t i = 0; ok && i < request.headers.size(); ++i)
      ok = write_file_under(job.sources, request.headers[i].name, request.headers[i].text, &error);
    if (!ok)
      return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot write the files of %s: %s", job.name.c_str(),
                  error.c_str());

    std::vector<std::string> common = {"-I" + job.include, "-I" + job.sources};
    for (const std::string& define : request.options.defines) common.push_back("-D" + define);
    if (request.options.fast_math) common.push_back("-DAGK_FAST_MATH=1");
    const std::string level =
        "-O" + std::to_string(std::min(2, std::max(0, request.options.optimization)));

    const bool cuda = ends_with(job.name, ".cu");
    const std::string bitcode = job.build + "/program.bc";
    std::vector<std::string> argv;
    if (cuda) {
      // 1. Discovery: the host compile with AGK_DISCOVER finds the __global__ functions.
      const std::string discovered = job.build + "/discover.o";
      argv = {tools_.clang, "-std=c++17",     "-x",       "c++",          "-O0", "-fPIC",
              "-w",         "-DAGK_DISCOVER", "-include", "anygpu/cuda.h"};
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), {"-c", source, "-o", discovered});
      ag_result result = run_step(job, argv, "finding the kernels of");
      if (result != AG_SUCCESS) return result;
      // 2. The registration file, compiled in HIP mode for spirv64.
      std::vector<unsigned char> bytes;
      DiscoveredKernels found;
      std::string registration;
      if (!read_whole_file(discovered, &bytes, &error) ||
          !discover_kernels(bytes.data(), bytes.size(), "the discovery object of " + job.name,
                            &found, &error) ||
          !kernel_registration_file(source, "anygpu/cuda.h", found, &registration, &error) ||
          !write_file_under(job.build, "kernels.cpp", registration, &error))
        return fail(AG_ERROR_COMPILE_FAILED, "cannot register the kernels of %s: %s",
                    job.name.c_str(), error.c_str());
      argv = {tools_.clang, "-std=c++17",        "-x",
              "hip",        "--offload=spirv64", "--cuda-device-only",
              "-nogpulib",  "-nogpuinc",         "-Wno-unknown-cuda-version",
              level};
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
      argv.insert(argv.end(), {"-Wno-pass-failed", "-emit-llvm", "-c", job.build + "/kernels.cpp",
                               "-o", bitcode});
      result = run_step(job, argv, "compiling");
      if (result != AG_SUCCESS) return result;
    } else {
      // AG_KERNEL sources: C++ for OpenCL, no registration.
      argv = {tools_.clang, "-x",     "clcpp",          "-cl-std=clc++2021",
              "-target",    "spir64", "-ffreestanding", level};
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
      argv.insert(argv.end(), {"-Wno-pass-failed", "-emit-llvm", "-c", source, "-o", bitcode});
      const ag_result result = run_step(job, argv, "compiling");
      if (result != AG_SUCCESS) return result;
    }

    // 3. Linked (as the build links its modules), rewritten, assembled, translated.
    const std::string linked = job.build + "/program.ll";
    ag_result result = run_step(job, {tools_.link, "-S", bitcode, "-o", linked}, "linking");
    if (result != AG_SUCCESS) return result;
    std::vector<unsigned char> text;
    if (!read_whole_file(linked, &text, &error))
      return fail(AG_ERROR_COMPILE_FAILED, "llvm-link made no module of %s: %s", job.name.c_str(),
                  error.c_str());
    std::string sized, ordered;
    if (!size_extern_shared_arrays(rewrite_linked_module(std::string(text.begin(), text.end())),
                                   kSpirvExternSharedBytes, &sized, &error) ||
        !order_blocks_by_dominance(sized, &ordered, &error)) {
      *job.log += "anygpu: " + error + "\n";
      return fail(AG_ERROR_COMPILE_FAILED, "cannot prepare %s for llvm-spirv: %s", job.name.c_str(),
                  error.c_str());
    }
    if (!write_file_under(job.build, "ordered.ll", ordered, &error))
      return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot write the files of %s: %s", job.name.c_str(),
                  error.c_str());
    const std::string assembled = job.build + "/ordered.bc";
    result = run_step(job, {tools_.as, job.build + "/ordered.ll", "-o", assembled}, "assembling");
    if (result != AG_SUCCESS) return result;
    const std::string spirv = job.build + "/program.spv";
    result = run_step(job,
                      {tools_.spirv, std::string("--spirv-max-version=") + ANYGPU_SPIRV_VERSION,
                       "--spirv-ext=+SPV_INTEL_subgroups", assembled, "-o", spirv},
                      "translating");
    if (result != AG_SUCCESS) return result;
    if (!read_whole_file(spirv, &output.image, &error))
      return fail(AG_ERROR_COMPILE_FAILED, "llvm-spirv made no SPIR-V of %s: %s", job.name.c_str(),
                  error.c_str());
    return AG_SUCCESS;
  }

  // Runs one step within the compile's time left; its output goes to the log, with the job's
  // directories taken out of the paths.
  ag_result run_step(const Job& job, const std::vector<std::string>& argv, const char* what) {
    SubprocessOptions options;
    options.timeout_seconds = std::chrono::duration<double>(job.deadline - Clock::now()).count();
    if (options.timeout_seconds <= 0) options.timeout_seconds = 0.001;
    const SubprocessResult run = run_subprocess(argv, options);
    std::string text = run.output;
    replace_all(&text, job.sources + "/", "");
    replace_all(&text, job.build + "/", "");
    replace_all(&text, job.include + "/", "");
    *job.log += text;
    if (run.output_truncated) *job.log += "\nanygpu: the compiler's output was cut here\n";
    switch (run.outcome) {
      case SubprocessResult::Outcome::exited:
        if (run.exit_status == 0) return AG_SUCCESS;
        return fail(AG_ERROR_COMPILE_FAILED, "%s", first_error_line(text).c_str());
      case SubprocessResult::Outcome::signaled:
      case SubprocessResult::Outcome::timed_out: {
        const std::string detail =
            strprintf("%s %s while %s %s (%s; its output is in the log)", argv[0].c_str(),
                      run.describe(job.timeout).c_str(), what, job.name.c_str(),
                      run.outcome == SubprocessResult::Outcome::timed_out
                          ? "the limit is ANYGPU_COMPILE_TIMEOUT_S"
                          : "a crash of the compiler, not of this program");
        *job.log += "anygpu: " + detail + "\n";
        return fail(AG_ERROR_COMPILE_FAILED, "%s", detail.c_str());
      }
      case SubprocessResult::Outcome::not_run:
        break;
    }
    const int e = run.spawn_error;
    const bool resources = e == EAGAIN || e == ENOMEM || e == EMFILE || e == ENFILE;
    return fail(resources ? AG_ERROR_OUT_OF_RESOURCES : AG_ERROR_COMPILE_FAILED,
                "cannot run %s: %s", argv[0].c_str(), run.error.c_str());
  }

  SpirvTools tools_;
};

// One tool: the environment variable's program, else the build's, else `name` on the PATH.
bool find_tool(const char* variable, const char* built, const char* name, const char* package,
               std::string* path, std::string* reason) {
  const std::string given = environment(variable);
  if (!given.empty()) {
    *path = given.find('/') == std::string::npos ? search_path(given) : given;
    if (is_program(*path)) return true;
    *reason = std::string(variable) + "=" + given + " is not a program that can be run (install " +
              package + ", or point " + variable + " at " + name + ")";
    return false;
  }
  for (const std::string& candidate : {std::string(built), search_path(name)}) {
    if (is_program(candidate)) {
      *path = candidate;
      return true;
    }
  }
  *reason = std::string(name) + " not found (install " + package + ", or set " + variable + ")";
  return false;
}

// `tool --version`'s version, or false with `reason`.
bool ask_version(const std::string& tool, std::string* version, std::string* reason) {
  SubprocessOptions options;
  options.timeout_seconds = std::min(60.0, compile_timeout_seconds());
  options.max_output_bytes = 4096;
  const SubprocessResult answer = run_subprocess({tool, "--version"}, options);
  if (!answer.succeeded()) {
    *reason = tool + " " + answer.describe(options.timeout_seconds) + " when asked its --version";
    return false;
  }
  *version = version_of(answer.output);
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
