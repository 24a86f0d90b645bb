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
  while ((n = fread(buffer, 1, sizeof buffer, file)) > 0)
    bytes->insert(bytes->end(), buffer, buffer + n);
  const bool ok = !ferror(file);
  fclose(file);
  if (!ok) *error = "cannot read " + path;
  return ok;
}

bool write_file(const std::string& path, const unsigned char* data, size_t size,
                std::string* error) {
  FILE* file = fopen(path.c_str(), "wb");
  if (!file) {
    *error = "cannot create " + path + ": " + strerror(errno);
    return false;
  }
  const bool written = size == 0 || fwrite(data, 1, size, file) == size;
  const bool closed = fclose(file) == 0;
  if (!written || !closed) {
    *error = "cannot write " + path;
    remove(path.c_str());
    return false;
  }
  return true;
}

}  // namespace anygpu_pack
