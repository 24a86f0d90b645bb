#include "loaders/tool_compile.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <set>
#include <sstream>

#include "loaders/compile_log.h"
#include "shim/core/environment.h"
#include "shim/core/error.h"
#include "shim/kernel_build/kernel_registration.h"
#include "shim/support/string_format.h"
#include "shim/support/subprocess.h"

namespace anygpu {

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void replace_all(std::string* text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size()))
    text->replace(at, from.size(), to);
}

// Why a tool's exit status is unknown (SubprocessResult::Outcome::status_lost).
const char kStatusLost[] =
    "the application ignores or reaps SIGCHLD, so anygpu cannot learn the compiler's exit "
    "status; leave SIGCHLD at SIG_DFL";

// The file name the program's source is written under: its own name's last part, with every
// character outside [A-Za-z0-9._+-] made '_', or program.cu / program.cpp for a name that cannot
// be a file's.
std::string source_file_name(const std::string& name) {
  std::string base = name.substr(name.rfind('/') + 1);
  for (char& c : base) {
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '+' || c == '-';
    if (!plain) c = '_';
  }
  if (!is_relative_file_name(base)) base = ends_with(name, ".cu") ? "program.cu" : "program.cpp";
  return base;
}

}  // namespace

bool is_program(const std::string& path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

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

std::string find_program(const char* variable, const std::vector<std::string>& candidates,
                         std::string* given) {
  *given = environment(variable);
  if (!given->empty()) {
    const std::string path = given->find('/') == std::string::npos ? search_path(*given) : *given;
    return is_program(path) ? path : "";
  }
  for (const std::string& candidate : candidates)
    if (is_program(candidate)) return candidate;
  return "";
}

bool ask_version(const std::string& tool, const std::string& label, std::string* output,
                 std::string* reason) {
  SubprocessOptions options;
  options.timeout_seconds = std::min(60.0, compile_timeout_seconds());
  options.max_output_bytes = 4096;
  const SubprocessResult answer = run_subprocess({tool, "--version"}, options);
  if (answer.outcome == SubprocessResult::Outcome::status_lost) {
    *reason = label + tool + " ran when asked its --version, but " + kStatusLost;
    return false;
  }
  if (!answer.succeeded()) {
    *reason =
        label + tool + " " + answer.describe(options.timeout_seconds) + " when asked its --version";
    return false;
  }
  *output = answer.output;
  return true;
}

std::string version_in(const std::string& output) {
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

ag_result ToolCompile::start(const CompileRequest& request, CompileOutput& output) {
  output.image.clear();
  output.log.clear();
  name_ = request.source.name.empty() ? "program.cu" : request.source.name;
  log_ = &output.log;
  timeout_ = compile_timeout_seconds();
  deadline_ = Clock::now() +
              std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_));
  for (const SourceFile& header : request.headers)
    if (!is_relative_file_name(header.name))
      return fail(AG_ERROR_INVALID_VALUE,
                  "the header name \"%s\" is not a relative file name (no leading '/', no "
                  "'..' or empty part)",
                  header.name.c_str());
  std::string error;
  if (!compile_include_directory(&include_, &error) || !directory_.create(&error))
    return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot prepare the %s compile of %s: %s", kind_,
                name_.c_str(), error.c_str());
  sources_ = directory_.path() + "/src";
  build_ = directory_.path() + "/build";
  const std::string file = source_file_name(name_);
  source_ = sources_ + "/" + file;
  bool ok = write_file_under(directory_.path(), "src/" + file, request.source.text, &error) &&
            write_file_under(directory_.path(), "build/.keep", "", &error);
  source_paths_ = {source_};
  source_names_ = {name_};
  std::set<std::string> taken = {file};
  for (size_t i = 0; ok && i < request.more_sources.size(); ++i) {
    const SourceFile& more = request.more_sources[i];
    std::string more_file = source_file_name(more.name);
    while (!taken.insert(more_file).second) more_file.insert(0, std::to_string(i + 1) + "_");
    ok = write_file_under(sources_, more_file, more.text, &error);
    source_paths_.push_back(sources_ + "/" + more_file);
    source_names_.push_back(more.name);
  }
  for (size_t i = 0; ok && i < request.headers.size(); ++i)
    ok = write_file_under(sources_, request.headers[i].name, request.headers[i].text, &error);
  if (!ok)
    return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot write the files of %s: %s", name_.c_str(),
                error.c_str());
  return AG_SUCCESS;
}

std::vector<std::string> ToolCompile::common_flags(const CompileOptions& options) const {
  std::vector<std::string> flags = {"-I" + include_, "-I" + sources_};
  for (const std::string& define : options.defines) flags.push_back("-D" + define);
  if (options.fast_math) flags.push_back("-DAGK_FAST_MATH=1");
  return flags;
}

bool ToolCompile::cuda(size_t index) const {
  return ends_with(source_names_[index], ".cu");
}

bool ToolCompile::cuda() const {
  return ends_with(name_, ".cu");
}

ag_result ToolCompile::run(const std::vector<std::string>& argv, const char* what, size_t source) {
  const std::string& subject = source < source_names_.size() ? source_names_[source] : name_;
  SubprocessOptions options;
  options.timeout_seconds = std::chrono::duration<double>(deadline_ - Clock::now()).count();
  if (options.timeout_seconds <= 0) options.timeout_seconds = 0.001;
  const SubprocessResult run = run_subprocess(argv, options);
  std::string text = run.output;
  replace_all(&text, sources_ + "/", "");
  replace_all(&text, build_ + "/", "");
  replace_all(&text, include_ + "/", "");
  *log_ += text;
  if (run.output_truncated) *log_ += "\nanygpu: the compiler's output was cut here\n";
  switch (run.outcome) {
    case SubprocessResult::Outcome::exited:
      if (run.exit_status == 0) return AG_SUCCESS;
      return fail(AG_ERROR_COMPILE_FAILED, "%s",
                  first_error_line(text, "error:", false, "no message").c_str());
    case SubprocessResult::Outcome::signaled:
    case SubprocessResult::Outcome::timed_out: {
      const std::string detail =
          strprintf("%s%s %s while %s %s (%s; its output is in the log)", tool_label_.c_str(),
                    argv[0].c_str(), run.describe(timeout_).c_str(), what, subject.c_str(),
                    run.outcome == SubprocessResult::Outcome::timed_out
                        ? "the limit is ANYGPU_COMPILE_TIMEOUT_S"
                        : "a crash of the compiler, not of this program");
      *log_ += "anygpu: " + detail + "\n";
      return fail(AG_ERROR_COMPILE_FAILED, "%s", detail.c_str());
    }
    case SubprocessResult::Outcome::status_lost: {
      const std::string detail = strprintf("%s%s ran while %s %s, but %s", tool_label_.c_str(),
                                           argv[0].c_str(), what, subject.c_str(), kStatusLost);
      *log_ += "anygpu: " + detail + "\n";
      return fail(AG_ERROR_NOT_SUPPORTED, "%s", detail.c_str());
    }
    case SubprocessResult::Outcome::not_run:
      break;
  }
  // A tool that cannot be executed (missing, not executable, not a program) is not a fault of the
  // program: the compile is not supported here.
  const int e = run.spawn_error;
  const bool resources = e == EAGAIN || e == ENOMEM || e == EMFILE || e == ENFILE;
  return fail(resources ? AG_ERROR_OUT_OF_RESOURCES : AG_ERROR_NOT_SUPPORTED, "cannot run %s%s: %s",
              tool_label_.c_str(), argv[0].c_str(), run.error.c_str());
}

ag_result ToolCompile::register_kernels(const std::string& discovered, const char* include,
                                        DiscoveredKernels* found) {
  return register_kernels(0, discovered, include, "kernels.cpp", found);
}

ag_result ToolCompile::register_kernels(size_t index, const std::string& discovered,
                                        const char* include, const std::string& output,
                                        DiscoveredKernels* found) {
  const std::string& name = source_names_[index];
  std::vector<unsigned char> bytes;
  std::string registration, error;
  if (!read_whole_file(discovered, &bytes, &error) ||
      !discover_kernels(bytes.data(), bytes.size(), "the discovery object of " + name, found,
                        &error) ||
      !kernel_registration_file(source_paths_[index], include, *found, &registration, &error) ||
      !write_file_under(build_, output, registration, &error))
    return fail(AG_ERROR_COMPILE_FAILED, "cannot register the kernels of %s: %s", name.c_str(),
                error.c_str());
  return AG_SUCCESS;
}

ag_result ToolCompile::write_build_file(const std::string& name, const std::string& text) {
  std::string error;
  if (!write_file_under(build_, name, text, &error))
    return fail(AG_ERROR_OUT_OF_RESOURCES, "cannot write the files of %s: %s", name_.c_str(),
                error.c_str());
  return AG_SUCCESS;
}

}  // namespace anygpu
