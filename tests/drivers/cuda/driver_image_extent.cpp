// How far an image given to cuModuleLoadDataEx reaches. The real driver reads the image's own
// headers; so does this, a field at a time, so that a short image of another kind is not read
// past what its first bytes promise. An ELF image's extent is tests/drivers/common's.
#include <cstdint>
#include <cstring>

#include "driver_elf_extent.h"
#include "driver_image.h"
#include "shim/code_object/fatbin_reader.h"

namespace anygpu::cuda_test_driver {
namespace {

using test_driver::elf_extent;
using test_driver::kMaxImageBytes;
using test_driver::starts_with_elf_magic;

template <typename T>
T field(const unsigned char* bytes, size_t offset) {
  T value;
  memcpy(&value, bytes + offset, sizeof value);
  return value;
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
  if (starts_with_elf_magic(bytes)) return elf_extent(bytes);
  if (bytes[0] == (kFatbinMagic & 0xff) && bytes[1] == ((kFatbinMagic >> 8) & 0xff) &&
      bytes[2] == ((kFatbinMagic >> 16) & 0xff) && bytes[3] == kFatbinMagic >> 24)
    return fatbin_extent(bytes);
  return text_extent(bytes, unterminated_text);
}

}  // namespace anygpu::cuda_test_driver
