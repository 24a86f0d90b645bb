#include "loaders/cpu/cpu_compiler.h"

#include <cerrno>
#include <chrono>
#include <exception>
#include <vector>

#include "loaders/compile_workspace.h"
#include "loaders/cpu/host_toolchain.h"
#include "shim/core/error.h"
#include "shim/kernel_build/kernel_discovery.h"
#include "shim/kernel_build/kernel_registration.h"
#include "shim/support/string_format.h"
#include "shim/support/subprocess.h"

namespace anygpu {
namespace cpu {

namespace {

// anygpu_add_kernels' ANYGPU_CPU_DYNAMIC_SHARED_BYTES: the CPU device's shared memory per block.
constexpr unsigned long kDynamicSharedBytes = 65536;
// The libm functions whose glibc versions miss CUDA's bounds bind to math_host.h's own
// (anygpu_add_kernels' host link).
constexpr const char* kWrappedMath =
    "-Wl,--wrap=cbrt,--wrap=exp10,--wrap=tanh,--wrap=j0,--wrap=j1,--wrap=y0,--wrap=y1";

using Clock = std::chrono::steady_clock;

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
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

// The file name the program's source is written under: its own name's last part, or
// program.cu / program.cpp for a name that cannot be a file's.
std::string source_file_name(const std::string& name) {
  std::string base = name.substr(name.rfind('/') + 1);
  if (!is_relative_file_name(base)) base = ends_with(name, ".cu") ? "program.cu" : "program.cpp";
  return base;
}

class CpuCompiler final : public RuntimeCompiler {
 public:
  explicit CpuCompiler(HostToolchain toolchain) : toolchain_(std::move(toolchain)) {}
  std::string identity() const override { return toolchain_.identity(); }
  ag_result compile(const CompileRequest& request, CompileOutput& output) override {
    try {
      return compile_in(request, output);
    } catch (...) {
      return fail_from_exception();
    }
  }

 private:
  // One compile's state: where its files are, what the log says so far, the time left.
  struct Job {
    std::string name;     // the source's name, for messages
    std::string sources;  // <job>/src: the source and the application's headers
    std::string build;    // <job>/build: what the steps make
    std::string include;  // anygpu's headers
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
      return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot prepare the host compile of %s: %s",
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

    // anygpu_add_kernels' flags of every compile of an image: its headers, the program's, FLAGS.
    std::vector<std::string> common = {"-I" + job.include, "-I" + job.sources};
    for (const std::string& define : request.options.defines) common.push_back("-D" + define);
    if (request.options.fast_math) common.push_back("-DAGK_FAST_MATH=1");

    // 1. Discovery: the host compile with AGK_DISCOVER finds the __global__ functions.
    const bool cuda = ends_with(job.name, ".cu");
    const std::string discovered = job.build + "/discover.o";
    std::vector<std::string> argv = {
        toolchain_.compiler, "-std=c++17", "-x", "c++", "-O0", "-fPIC", "-w", "-DAGK_DISCOVER"};
    if (cuda) argv.insert(argv.end(), {"-include", "anygpu/cuda.h"});
    argv.insert(argv.end(), common.begin(), common.end());
    argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
    argv.insert(argv.end(), {"-c", source, "-o", discovered});
    ag_result result = run_step(job, argv, "finding the kernels of");
    if (result != AG_SUCCESS) return result;

    // 2. The registration file, and the storage of extern __shared__ arrays.
    std::vector<unsigned char> bytes;
    DiscoveredKernels found;
    std::string registration;
    if (!read_whole_file(discovered, &bytes, &error) ||
        !discover_kernels(bytes.data(), bytes.size(), "the discovery object of " + job.name, &found,
                          &error) ||
        !kernel_registration_file(source, cuda ? "anygpu/cuda.h" : "", found, &registration,
                                  &error) ||
        !write_file_under(job.build, "kernels.cpp", registration, &error))
      return fail(AG_ERROR_COMPILE_FAILED, "cannot register the kernels of %s: %s",
                  job.name.c_str(), error.c_str());
    std::string storage;
    if (!found.extern_shared.empty()) {
      storage = job.build + "/shared_memory.S";
      if (!write_file_under(job.build, "shared_memory.S",
                            host_shared_memory_assembly(found.extern_shared, kDynamicSharedBytes),
                            &error))
        return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot write the files of %s: %s", job.name.c_str(),
                    error.c_str());
    }

    // 3. The host code object: compiled (with the barrier pass where there is one) and linked.
    const std::string module = job.build + "/module.so";
    argv = {toolchain_.compiler,
            "-std=c++17",
            "-O" + std::to_string(std::min(3, std::max(0, request.options.optimization))),
            "-fPIC",
            "-fvisibility=hidden",
            "-fno-exceptions",
            "-ffp-contract=off"};
    if (!toolchain_.plugin.empty()) {
      argv.insert(argv.end(), {"-Wno-pass-failed", "-DANYGPU_WORKITEM_LOOPS",
                               "-fpass-plugin=" + toolchain_.plugin});
    } else {
      output.log += "anygpu: no barrier pass (" + toolchain_.plugin_reason +
                    "): kernels with barriers run on fibers\n";
    }
    argv.insert(argv.end(), common.begin(), common.end());
    argv.insert(argv.end(), request.options.vendor.begin(), request.options.vendor.end());
    argv.push_back(job.build + "/kernels.cpp");
    if (!storage.empty()) argv.push_back(storage);
    argv.insert(argv.end(), {"-shared", "-o", module, kWrappedMath, "-lm"});
    result = run_step(job, argv, "compiling");
    if (result != AG_SUCCESS) return result;
    if (!read_whole_file(module, &output.image, &error))
      return fail(AG_ERROR_COMPILE_FAILED, "the host compile of %s made no code object: %s",
                  job.name.c_str(), error.c_str());
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
        const std::string detail = strprintf(
            "the host compiler %s %s while %s %s (%s; its output is in the log)",
            toolchain_.compiler.c_str(), run.describe(job.timeout).c_str(), what, job.name.c_str(),
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
                "cannot run the host compiler %s: %s", toolchain_.compiler.c_str(),
                run.error.c_str());
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
