#include "interpose/launcher/library_check.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace anygpu::intercept {
namespace {

#if defined(__x86_64__)
constexpr int kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr int kMachine = EM_AARCH64;
#else
constexpr int kMachine = EM_NONE;  // not checked
#endif

// `count` bytes at `offset` of the file, all of them or false.
bool read_at(int fd, void* data, size_t count, uint64_t offset, uint64_t file_size) {
  if (offset > file_size || count > file_size - offset) return false;
  return pread(fd, data, count, static_cast<off_t>(offset)) == static_cast<ssize_t>(count);
}

// A position-independent executable is ET_DYN too, marked DF_1_PIE in its dynamic section; the
// dynamic linker refuses to preload one.
bool is_executable(int fd, const Elf64_Ehdr& header, uint64_t file_size) {
  if (header.e_phentsize != sizeof(Elf64_Phdr)) return false;
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment = {};
    if (!read_at(fd, &segment, sizeof segment, header.e_phoff + uint64_t{i} * sizeof segment,
                 file_size))
      return false;
    if (segment.p_type != PT_DYNAMIC) continue;
    for (uint64_t at = 0; at + sizeof(Elf64_Dyn) <= segment.p_filesz; at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn entry = {};
      if (!read_at(fd, &entry, sizeof entry, segment.p_offset + at, file_size) ||
          entry.d_tag == DT_NULL)
        return false;
      if (entry.d_tag == DT_FLAGS_1) return (entry.d_un.d_val & DF_1_PIE) != 0;
    }
    return false;
  }
  return false;
}

}  // namespace

std::string check_shared_object(const std::string& path) {
  struct stat status = {};
  if (stat(path.c_str(), &status) != 0) return strerror(errno);
  if (!S_ISREG(status.st_mode)) return "not a regular file";
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return strerror(errno);
  const uint64_t size = static_cast<uint64_t>(status.st_size);
  Elf64_Ehdr header = {};
  std::string problem;
  if (!read_at(fd, &header, sizeof header, 0, size) || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    problem = "not an ELF file";
  else if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB)
    problem = "an ELF file, but not 64-bit little-endian";
  else if (header.e_type != ET_DYN || is_executable(fd, header, size))
    problem = "an ELF file, but not a shared object";
  else if (kMachine != EM_NONE && header.e_machine != kMachine)
    problem =
        "a shared object for another machine (e_machine " + std::to_string(header.e_machine) + ")";
  close(fd);
  return problem;
}

}  // namespace anygpu::intercept
