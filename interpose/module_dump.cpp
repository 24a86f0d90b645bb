#include "interpose/module_dump.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

#include "interpose/image_format.h"
#include "interpose/report.h"
#include "interpose/settings.h"

namespace anygpu::intercept {
namespace {

std::atomic<long> g_count{0};

// mkdir -p.
void make_directories(const std::string& dir) {
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    mkdir(dir.substr(0, slash).c_str(), 0755);
    if (slash == std::string::npos) return;
  }
}

std::string save(const char* function, const char* extension, const void* data, size_t size) {
  const std::string& dir = settings().dump_dir;
  make_directories(dir);
  std::string path = dir + "/" + std::to_string(getpid()) + "-" +
                     std::to_string(g_count.fetch_add(1) + 1) + "-" + function + "." + extension;
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool ok = fd >= 0;
  for (auto bytes = static_cast<const char*>(data); ok && size > 0;) {
    ssize_t written = write(fd, bytes, size);
    if (written < 0 && errno == EINTR) continue;
    ok = written > 0;
    if (ok) bytes += written, size -= static_cast<size_t>(written);
  }
  if (fd >= 0) close(fd);
  if (!ok) {
    report("cannot save the module image to %s: %s", path.c_str(), strerror(errno));
    return "";
  }
  return path;
}

}  // namespace

std::string dump_image(const char* function, const void* image) {
  ImageExtent extent = image_extent(image);
  if (extent.size == 0) {
    report("%s: the image's format is not recognised (its size is unknown), not saved", function);
    return "";
  }
  return save(function, extent.extension, extent.data, extent.size);
}

std::string dump_file(const char* function, const char* path) {
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0) return "";  // the driver reports the missing file to the program
  std::vector<char> bytes;
  char chunk[65536];
  for (ssize_t got; (got = read(fd, chunk, sizeof chunk)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    bytes.insert(bytes.end(), chunk, chunk + got);
  }
  close(fd);
  bytes.push_back('\0');  // PTX text read from a file has no NUL of its own
  ImageExtent extent = image_extent(bytes.data());
  const char* extension = extent.size ? extent.extension : "bin";
  return save(function, extension, bytes.data(), bytes.size() - 1);
}

void reset_dump_count() {
  g_count = 0;
}

}  // namespace anygpu::intercept
