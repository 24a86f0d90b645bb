// Files of the run-time compilers that run tools as processes (the CPU's host compiler, Level
// Zero's clang and llvm-spirv): a private temporary directory per process
// (mkdtemp, removed at exit) holding anygpu's embedded headers, written once, and a directory per
// compile inside it for the program's source, its headers and what the steps make.
#pragma once

#include <string>
#include <vector>

namespace anygpu {

// The process's directory with anygpu's headers under it (shim/core/embedded_headers.h), made on
// the first call in $TMPDIR (else /tmp) as anygpu-compile-<pid>-XXXXXX. False with `error` when it
// cannot be made. The first call also removes the directories of this user's processes that
// ended without removing theirs (remove_stale_compile_directories).
bool compile_include_directory(std::string* directory, std::string* error);

// How old a directory of an ended process must be before it is removed: a process in another PID
// namespace sharing $TMPDIR looks ended here, so a directory is left a day before it is taken
// for a crashed process's.
constexpr double kStaleCompileDirectorySeconds = 24 * 3600;

// Removes the anygpu-compile-<pid>-* directories in `directory` that belong to this user, are at
// least `min_age_seconds` old, and whose process no longer exists; returns how many.
int remove_stale_compile_directories(const std::string& directory, double min_age_seconds);

// A directory of one compile, inside the process's; removed with everything in it when destroyed.
class JobDirectory {
 public:
  JobDirectory() = default;
  JobDirectory(const JobDirectory&) = delete;
  JobDirectory& operator=(const JobDirectory&) = delete;
  ~JobDirectory();
  bool create(std::string* error);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// True when `name` can be a file under a directory: relative, no "..", "." or empty component.
bool is_relative_file_name(const std::string& name);
// Writes `text` to `path`, making the directories above it under `root`.
bool write_file_under(const std::string& root, const std::string& name, const std::string& text,
                      std::string* error);
bool read_whole_file(const std::string& path, std::vector<unsigned char>* bytes,
                     std::string* error);

// The time limit of one compile: ANYGPU_COMPILE_TIMEOUT_S, default 300 seconds.
double compile_timeout_seconds();

}  // namespace anygpu
