// anygpu-trace: sets ANYGPU_INTERCEPT* from its options, puts libanygpu_intercept.so first in
// LD_PRELOAD (after any sanitizer runtime already leading it) and runs the program in its place
// (execvp), so the program's exit status is its own.
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "interpose/launcher/library_check.h"
#include "interpose/launcher/options.h"

namespace anygpu::intercept {
namespace {

// `library` first in LD_PRELOAD, after the sanitizer runtimes that lead it (libasan, libubsan,
// libtsan...): a sanitizer must be loaded before everything else, also to run a sanitized
// interposer in a program that is not itself sanitized.
std::string preload_list(const std::string& library, const std::string& preload) {
  std::string sanitizers, rest = preload;
  while (!rest.empty()) {
    const size_t end = rest.find_first_of(": ");
    const std::string entry = rest.substr(0, end);
    const size_t slash = entry.rfind('/');
    const std::string name = entry.substr(slash == std::string::npos ? 0 : slash + 1);
    if (!entry.empty() && !(name.rfind("lib", 0) == 0 && name.find("san.so") != std::string::npos))
      break;
    sanitizers += entry.empty() ? "" : entry + ":";
    rest = end == std::string::npos ? "" : rest.substr(end + 1);
  }
  return sanitizers + library + (rest.empty() ? "" : ":" + rest);
}

constexpr char kLibraryName[] = "libanygpu_intercept.so";

std::string directory_of_this_program() {
  char path[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return "";
  path[length] = '\0';
  std::string text = path;
  return text.substr(0, text.rfind('/'));
}

std::string absolute(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) ? std::string(resolved) : std::string();
}

// Next to anygpu-trace (the build tree), else in the installed library directory.
std::string find_library() {
  std::string dir = directory_of_this_program();
  for (const std::string& candidate :
       {dir + "/" + kLibraryName, dir + "/" + ANYGPU_TRACE_BIN_TO_LIB + "/" + kLibraryName}) {
    std::string found = absolute(candidate);
    if (!found.empty()) return found;
  }
  return "";
}

int fail(const std::string& message) {
  fprintf(stderr, "anygpu-trace: %s\n%s", message.c_str(), "Try 'anygpu-trace --help'.\n");
  return 2;
}

int run(int argc, char** argv) {
  TraceOptions options;
  std::string error = parse_options(argc, argv, &options);
  if (options.help) {
    fputs(kUsage, stdout);
    return 0;
  }
  if (!error.empty()) return fail(error);
  std::string library = options.library.empty() ? find_library() : absolute(options.library);
  if (library.empty())
    return fail(options.library.empty()
                    ? std::string("cannot find ") + kLibraryName + " next to anygpu-trace"
                    : "--library " + options.library + ": " + strerror(errno));
  std::string problem = options.library.empty() ? "" : check_shared_object(library);
  if (!problem.empty())
    return fail("--library " + options.library + ": " + problem + "; it must be the interposer, " +
                kLibraryName);

  std::string modes;
  for (auto [on, name] :
       {std::pair{options.trace, "trace"}, std::pair{options.stats, "stats"},
        std::pair{!options.faults.empty(), "fault"}, std::pair{options.dump, "dump"}})
    if (on) modes += std::string(modes.empty() ? "" : ",") + name;
  setenv("ANYGPU_INTERCEPT", modes.c_str(), 1);
  if (!options.trace_file.empty())
    setenv("ANYGPU_INTERCEPT_TRACE_FILE", options.trace_file.c_str(), 1);
  if (!options.stats_file.empty())
    setenv("ANYGPU_INTERCEPT_STATS_FILE", options.stats_file.c_str(), 1);
  if (!options.dump_dir.empty()) setenv("ANYGPU_INTERCEPT_DUMP_DIR", options.dump_dir.c_str(), 1);
  if (!options.faults.empty()) {
    std::string faults;
    for (const std::string& spec : options.faults) faults += (faults.empty() ? "" : ";") + spec;
    setenv("ANYGPU_INTERCEPT_FAULT", faults.c_str(), 1);
  }
  const char* preload = getenv("LD_PRELOAD");
  setenv("LD_PRELOAD", preload_list(library, preload ? preload : "").c_str(), 1);

  std::vector<char*> command;
  command.reserve(options.command.size() + 1);
  for (std::string& word : options.command) command.push_back(word.data());
  command.push_back(nullptr);
  execvp(command[0], command.data());
  fprintf(stderr, "anygpu-trace: cannot run %s: %s\n", command[0], strerror(errno));
  return errno == ENOENT ? 127 : 126;
}

}  // namespace
}  // namespace anygpu::intercept

int main(int argc, char** argv) {
  return anygpu::intercept::run(argc, argv);
}
