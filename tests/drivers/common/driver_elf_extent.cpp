#include "driver_elf_extent.h"

#include <elf.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace anygpu::test_driver {
namespace {

template <typename T>
T field(const unsigned char* bytes, size_t offset) {
  T value;
  memcpy(&value, bytes + offset, sizeof value);
  return value;
}

}  // namespace

bool starts_with_elf_magic(const unsigned char* bytes) {
  return bytes[0] == ELFMAG0 && bytes[1] == ELFMAG1 && bytes[2] == ELFMAG2 && bytes[3] == ELFMAG3;
}

size_t elf_extent(const unsigned char* bytes) {
  if (bytes[EI_CLASS] != ELFCLASS64 || bytes[EI_DATA] != ELFDATA2LSB) return 0;
  const auto header = field<Elf64_Ehdr>(bytes, 0);
  uint64_t end = sizeof(Elf64_Ehdr);
  if (header.e_phoff > kMaxImageBytes || header.e_shoff > kMaxImageBytes) return 0;
  const uint64_t program_end = header.e_phoff + uint64_t{header.e_phnum} * header.e_phentsize;
  const uint64_t section_end = header.e_shoff + uint64_t{header.e_shnum} * header.e_shentsize;
  end = std::max({end, program_end, section_end});
  if (header.e_shnum && header.e_shentsize < sizeof(Elf64_Shdr)) return 0;
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    const auto section =
        field<Elf64_Shdr>(bytes, header.e_shoff + uint64_t{i} * header.e_shentsize);
    if (section.sh_type == SHT_NOBITS) continue;
    if (section.sh_offset > kMaxImageBytes || section.sh_size > kMaxImageBytes) return 0;
    end = std::max(end, section.sh_offset + section.sh_size);
  }
  return end > kMaxImageBytes ? 0 : static_cast<size_t>(end);
}

}  // namespace anygpu::test_driver
