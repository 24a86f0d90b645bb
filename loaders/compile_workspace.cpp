#include "loaders/compile_workspace.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "shim/core/embedded_headers.h"
#include "shim/core/environment.h"
#include "shim/core/log.h"
#include "shim/support/string_format.h"

namespace anygpu {

namespace {

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
  remove(path);
  return 0;
}

void remove_tree(const std::string& path) {
  if (!path.empty()) nftw(path.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

struct ProcessDirectory {
  std::mutex mutex;
  bool made = false;
  std::string root, include, error;
  pid_t owner = 0;
};

ProcessDirectory& process_directory() {
  static ProcessDirectory* directory = new ProcessDirectory;  // outlives the atexit handler
  return *directory;
}

// At exit, the process that made the directory removes it (a forked child leaves it).
void remove_process_directory() {
  ProcessDirectory& directory = process_directory();
  std::lock_guard<std::mutex> lock(directory.mutex);
  if (directory.made && directory.owner == getpid()) remove_tree(directory.root);
  directory.made = false;
}

bool make_directories_for(const std::string& root, const std::string& name, std::string* error) {
  for (size_t slash = name.find('/'); slash != std::string::npos;
       slash = name.find('/', slash + 1)) {
    const std::string directory = root + "/" + name.substr(0, slash);
    if (mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST) {
      *error = strprintf("cannot make %s: %s", directory.c_str(), strerror(errno));
      return false;
    }
  }
  return true;
}

constexpr char kDirectoryPrefix[] = "anygpu-compile-";

std::string temporary_directory() {
  std::string directory = environment("TMPDIR");
  return directory.empty() ? "/tmp" : directory;
}

// The process's directory names its process, so that a later process can tell one left by a
// process that ended without its atexit handler (a crash, a kill).
std::string temporary_root(const std::string& directory) {
  return directory + "/" + kDirectoryPrefix + std::to_string(getpid()) + "-XXXXXX";
}

// The process id in "anygpu-compile-<pid>-XXXXXX" (digits only); 0 for any other name.
pid_t directory_owner(const char* name) {
  const size_t prefix = sizeof kDirectoryPrefix - 1;
  if (strncmp(name, kDirectoryPrefix, prefix) != 0) return 0;
  long long pid = 0;
  const char* at = name + prefix;
  for (; *at >= '0' && *at <= '9'; ++at) {
    pid = pid * 10 + (*at - '0');
    if (pid > INT_MAX) return 0;
  }
  if (at == name + prefix || pid == 0 || *at != '-' || strlen(at + 1) != 6) return 0;
  return static_cast<pid_t>(pid);
}

}  // namespace

bool is_relative_file_name(const std::string& name) {
  if (name.empty() || name[0] == '/' || name.back() == '/') return false;
  size_t begin = 0;
  for (;;) {
    const size_t end = name.find('/', begin);
    const std::string part = name.substr(begin, end - begin);
    if (part.empty() || part == "." || part == "..") return false;
    if (end == std::string::npos) return name.find('\0') == std::string::npos;
    begin = end + 1;
  }
}

bool write_file_under(const std::string& root, const std::string& name, const std::string& text,
                      std::string* error) {
  if (!make_directories_for(root, name, error)) return false;
  const std::string path = root + "/" + name;
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    *error = strprintf("cannot create %s: %s", path.c_str(), strerror(errno));
    return false;
  }
  bool ok = true;
  for (size_t done = 0; ok && done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  const int saved = errno;
  if (close(fd) != 0) ok = false;
  if (!ok) *error = strprintf("cannot write %s: %s", path.c_str(), strerror(saved ? saved : EIO));
  return ok;
}

bool read_whole_file(const std::string& path, std::vector<unsigned char>* bytes,
                     std::string* error) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = strprintf("cannot open %s: %s", path.c_str(), strerror(errno));
    return false;
  }
  bytes->clear();
  unsigned char buffer[65536];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = strprintf("cannot read %s: %s", path.c_str(), strerror(errno));
      close(fd);
      return false;
    }
    if (n == 0) break;
    bytes->insert(bytes->end(), buffer, buffer + n);
  }
  close(fd);
  return true;
}

int remove_stale_compile_directories(const std::string& directory, double min_age_seconds) {
  DIR* listing = opendir(directory.c_str());
  if (!listing) return 0;
  const time_t now = time(nullptr);
  int removed = 0;
  while (const dirent* entry = readdir(listing)) {
    const pid_t owner = directory_owner(entry->d_name);
    if (owner == 0 || owner == getpid()) continue;
    const std::string path = directory + "/" + entry->d_name;
    struct stat status{};
    if (lstat(path.c_str(), &status) != 0 || !S_ISDIR(status.st_mode) ||
        status.st_uid != geteuid() || difftime(now, status.st_mtime) < min_age_seconds)
      continue;
    if (kill(owner, 0) == 0 || errno != ESRCH) continue;  // its process (or another) lives
    remove_tree(path);
    ++removed;
  }
  closedir(listing);
  if (removed)
    log(LogLevel::info, "removed %d compile director%s left in %s by processes that ended", removed,
        removed == 1 ? "y" : "ies", directory.c_str());
  return removed;
}

bool compile_include_directory(std::string* directory, std::string* error) {
  ProcessDirectory& process = process_directory();
  std::lock_guard<std::mutex> lock(process.mutex);
  struct stat status{};
  // Kept while it is there; one removed meanwhile (a /tmp cleaner) is made again.
  if (process.made && process.owner == getpid() && stat(process.include.c_str(), &status) == 0) {
    *directory = process.include;
    return true;
  }
  const std::string temporary = temporary_directory();
  remove_stale_compile_directories(temporary, kStaleCompileDirectorySeconds);
  std::string root = temporary_root(temporary);
  if (!mkdtemp(root.data())) {
    *error = strprintf("cannot make a temporary directory %s: %s", root.c_str(), strerror(errno));
    return false;
  }
  const std::string include = root + "/include";
  bool ok = mkdir(include.c_str(), 0700) == 0;
  if (!ok) *error = strprintf("cannot make %s: %s", include.c_str(), strerror(errno));
  size_t count = 0;
  const EmbeddedHeader* headers = embedded_headers(&count);
  for (size_t i = 0; ok && i < count; ++i) {
    if (!is_relative_file_name(headers[i].name)) continue;  // never outside the directory
    ok = write_file_under(include, headers[i].name, std::string(headers[i].text, headers[i].size),
                          error);
  }
  if (!ok) {
    remove_tree(root);
    return false;
  }
  static const bool registered = atexit(remove_process_directory) == 0;
  (void)registered;
  process.made = true;
  process.owner = getpid();
  process.root = root;
  process.include = include;
  *directory = include;
  return true;
}

JobDirectory::~JobDirectory() {
  remove_tree(path_);
}

bool JobDirectory::create(std::string* error) {
  std::string root;
  {
    ProcessDirectory& process = process_directory();
    std::lock_guard<std::mutex> lock(process.mutex);
    root = process.root;
  }
  if (root.empty()) {
    *error = "no temporary directory";
    return false;
  }
  std::string path = root + "/job-XXXXXX";
  if (!mkdtemp(path.data())) {
    *error = strprintf("cannot make a temporary directory %s: %s", path.c_str(), strerror(errno));
    return false;
  }
  path_ = path;
  return true;
}

double compile_timeout_seconds() {
  constexpr double kDefault = 300;
  const std::string value = environment("ANYGPU_COMPILE_TIMEOUT_S");
  if (value.empty()) return kDefault;
  char* end = nullptr;
  const double seconds = strtod(value.c_str(), &end);
  if (end == nullptr || *end != '\0' || !std::isfinite(seconds) || !(seconds > 0)) {
    log(LogLevel::warn, "ANYGPU_COMPILE_TIMEOUT_S=%s is not a number of seconds above 0; using %g",
        value.c_str(), kDefault);
    return kDefault;
  }
  return std::min(seconds, 1e6);  // at most 1e6 s: a deadline that far fits every clock
}

}  // namespace anygpu
