// How far an image given to cuModuleLoadDataEx reaches. The real driver reads the image's own
// headers; so does this, a field at a time, so that a short image of another kind is not read
// past what its first bytes promise.
#include <elf.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "driver_image.h"
#include "shim/fatbin_reader.h"

namespace anygpu::cuda_test_driver {
namespace {

constexpr uint64_t kMaxImageBytes = uint64_t{1} << 30;

template <typename T>
T field(const unsigned char* bytes, size_t offset) {
  T value;
  memcpy(&value, bytes + offset, sizeof value);
  return value;
}

// The header, the program and section tables, and every section's bytes.
size_t elf_extent(const unsigned char* bytes) {
  if (bytes[EI_CLASS] != ELFCLASS64 || bytes[EI_DATA] != ELFDATA2LSB) return 0;
  const auto header = field<Elf64_Ehdr>(bytes, 0);
  uint64_t end = sizeof(Elf64_Ehdr);
  const uint64_t program_end = header.e_phoff + uint64_t{header.e_phnum} * header.e_phentsize;
  const uint64_t section_end = header.e_shoff + uint64_t{header.e_shnum} * header.e_shentsize;
  if (header.e_phoff > kMaxImageBytes || header.e_shoff > kMaxImageBytes) return 0;
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

// One container: its header and the entries' bytes it announces.
size_t fatbin_extent(const unsigned char* bytes) {
  const auto header_size = field<uint16_t>(bytes, 6);
  const auto entries_size = field<uint64_t>(bytes, 8);
  if (header_size < 16 || entries_size > kMaxImageBytes) return 0;
  return header_size + static_cast<size_t>(entries_size);
}

// Text up to its NUL, reading no further than the first byte that is not text (a binary of
// another kind, or text whose NUL is missing).
size_t text_extent(const unsigned char* bytes, bool* unterminated) {
  for (size_t length = 0; length < kMaxImageBytes; ++length) {
    const unsigned char c = bytes[length];
    if (c == 0) return length;
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') {
      *unterminated = true;
      return length;
    }
  }
  return 0;
}

}  // namespace

size_t image_extent(const void* image, bool* unterminated_text) {
  const auto* bytes = static_cast<const unsigned char*>(image);
  *unterminated_text = false;
  // Compared a byte at a time, stopping at the first that differs.
  if (bytes[0] == ELFMAG0 && bytes[1] == ELFMAG1 && bytes[2] == ELFMAG2 && bytes[3] == ELFMAG3)
    return elf_extent(bytes);
  if (bytes[0] == (kFatbinMagic & 0xff) && bytes[1] == ((kFatbinMagic >> 8) & 0xff) &&
      bytes[2] == ((kFatbinMagic >> 16) & 0xff) && bytes[3] == kFatbinMagic >> 24)
    return fatbin_extent(bytes);
  return text_extent(bytes, unterminated_text);
}

}  // namespace anygpu::cuda_test_driver
