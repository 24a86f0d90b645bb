#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "pack.h"

namespace anygpu_pack {

bool read_file(const std::string& path, std::vector<unsigned char>* bytes, std::string* error) {
  FILE* file = fopen(path.c_str(), "rb");
  if (!file) {
    *error = "cannot open " + path + ": " + strerror(errno);
    return false;
  }
  bytes->clear();
  unsigned char buffer[65536];
  size_t n;
  do {  // a short read is the end of the file or an error: no read after it
    n = fread(buffer, 1, sizeof buffer, file);
    bytes->insert(bytes->end(), buffer, buffer + n);
  } while (n == sizeof buffer);
  const bool ok = !ferror(file);
  fclose(file);
  if (!ok) *error = "cannot read " + path;
  return ok;
}

// Writes to a temporary file beside `path` and renames it into place: a failed write leaves
// whatever was at `path` as it was, and the tool never removes a file it did not create. An
// existing `path` that is not a regular file (a device, a FIFO, a directory) is refused.
bool write_file(const std::string& path, const unsigned char* data, size_t size,
                std::string* error) {
  struct stat existing;
  if (stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    *error = path + " exists and is not a regular file; anygpu-pack writes only regular files";
    return false;
  }
  const size_t slash = path.rfind('/');
  const std::string directory = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  std::string temporary = directory + "/.anygpu-pack-XXXXXX";
  const int fd = mkstemp(temporary.data());
  if (fd < 0) {
    *error = "cannot create " + path + ": " + strerror(errno);
    return false;
  }
  const mode_t mask = umask(0);
  umask(mask);
  bool ok = fchmod(fd, 0666 & ~mask) == 0;
  for (size_t done = 0; ok && done < size;) {
    const ssize_t n = write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  int saved = ok ? 0 : errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    unlink(temporary.c_str());  // ours: made by mkstemp above
    *error = "cannot write " + path + ": " + strerror(saved ? saved : EIO);
  }
  return ok;
}

bool discover_kernels(const std::string& path, anygpu::DiscoveredKernels* found,
                      std::string* error) {
  std::vector<unsigned char> bytes;
  return read_file(path, &bytes, error) &&
         anygpu::discover_kernels(bytes.data(), bytes.size(), path, found, error);
}

}  // namespace anygpu_pack
