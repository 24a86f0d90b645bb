// What the run-time compilers that run tools as processes (the CPU's host compiler, Level Zero's
// clang and llvm-spirv) share: finding a tool and asking its version, and the driver of one
// compile (its job directory with the program's source and headers, the time limit, the steps run
// with their output in the log, the kernels' registration file).
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "loaders/checked_compiler.h"
#include "loaders/compile_workspace.h"
#include "shim/core/runtime_compiler.h"
#include "shim/kernel_build/kernel_discovery.h"

namespace anygpu {

// True when `path` is a program this process may run.
bool is_program(const std::string& path);
// `name` on the PATH, or "".
std::string search_path(const std::string& name);
// A tool's program: `variable`'s when it is set (a name without '/' looked up on the PATH; `given`
// is set to its value), else the first of `candidates` (paths; "" is none) that is a program. ""
// when none is.
std::string find_program(const char* variable, const std::vector<std::string>& candidates,
                         std::string* given);
// Runs `tool --version` and gives its output, or false with `reason` ("<label><tool> ... when
// asked its --version").
bool ask_version(const std::string& tool, const std::string& label, std::string* output,
                 std::string* reason);
// "19.1.7" from the first line of `output` that says "version 19.1.7 ..."; its first line when
// none does.
std::string version_in(const std::string& output);

// One compile by tools run as processes: a job directory with <job>/src (the source and the
// application's headers) and <job>/build (what the steps make), removed when it ends.
class ToolCompile {
 public:
  // `tool_label` goes before a step's program in messages ("the host compiler "); `kind` names the
  // compile in them ("host": "cannot prepare the host compile of ...").
  ToolCompile(std::string tool_label, const char* kind)
      : tool_label_(std::move(tool_label)), kind_(kind) {}

  // Clears `output`, takes its log as the compile's, checks the headers' names, and writes the
  // source and headers into a new job directory.
  ag_result start(const CompileRequest& request, CompileOutput& output);

  // anygpu_add_kernels' flags of every compile of an image: anygpu's headers, the program's, the
  // defines, fast math.
  std::vector<std::string> common_flags(const CompileOptions& options) const;

  // Runs one step within the compile's time left; its output goes to the log, with the job's
  // directories taken out of the paths. `what` says what the step does to the program
  // ("compiling") to source `source` (source_name(source) in messages).
  ag_result run(const std::vector<std::string>& argv, const char* what, size_t source = 0);

  // The registration file <build>/kernels.cpp of the kernels the discovery object `discovered`
  // holds, for the source compiled with `include` first ("" for none).
  ag_result register_kernels(const std::string& discovered, const char* include,
                             DiscoveredKernels* found);
  // The same for source `index` (source_path(index)), written to <build>/`output`.
  ag_result register_kernels(size_t index, const std::string& discovered, const char* include,
                             const std::string& output, DiscoveredKernels* found);

  // Writes `text` to <build>/`name`.
  ag_result write_build_file(const std::string& name, const std::string& text);

  const std::string& name() const { return name_; }      // the source's name, for messages
  const std::string& source() const { return source_; }  // the source's path
  const std::string& build() const { return build_; }    // <job>/build
  bool cuda() const;                                     // whether the source is CUDA (".cu")
  // Every source of the program: the first (source()) and CompileRequest::more_sources, each
  // written under <job>/src with a name of its own.
  size_t source_count() const { return source_paths_.size(); }
  const std::string& source_path(size_t index) const { return source_paths_[index]; }
  const std::string& source_name(size_t index) const { return source_names_[index]; }
  bool cuda(size_t index) const;
  std::string* log() const { return log_; }

 private:
  using Clock = std::chrono::steady_clock;

  std::string tool_label_;
  const char* kind_;
  JobDirectory directory_;
  std::string name_, source_;
  std::vector<std::string> source_paths_, source_names_;
  std::string sources_, build_, include_;
  double timeout_ = 0;
  Clock::time_point deadline_;
  std::string* log_ = nullptr;
};

// A run-time compiler that runs tools: each compile is a ToolCompile, started (its files written)
// before compile_steps runs the steps.
class ToolCompiler : public CheckedCompiler {
 protected:
  ToolCompiler(std::string tool_label, const char* kind)
      : tool_label_(std::move(tool_label)), kind_(kind) {}
  virtual ag_result compile_steps(ToolCompile& job, const CompileRequest& request,
                                  CompileOutput& output) = 0;

 private:
  ag_result compile_checked(const CompileRequest& request, CompileOutput& output) final {
    ToolCompile job(tool_label_, kind_);
    const ag_result result = job.start(request, output);
    if (result != AG_SUCCESS) return result;
    return compile_steps(job, request, output);
  }

  std::string tool_label_;
  const char* kind_;
};

}  // namespace anygpu
