// How far an ELF image reaches when a vendor call takes it without a size (cuModuleLoadDataEx,
// hipModuleLoadData): the real drivers read the image's own headers, and so does this, a field at
// a time, so that a short image is not read past what its first bytes promise.
#pragma once

#include <cstddef>

namespace anygpu::test_driver {

// Images larger than this are refused (an extent of 0).
constexpr size_t kMaxImageBytes = size_t{1} << 30;

// True when the image starts with the ELF magic; compared a byte at a time, stopping at the first
// that differs.
bool starts_with_elf_magic(const unsigned char* bytes);

// The bytes an ELF64 little-endian file spans: its header, program and section tables, and every
// section's bytes. 0 for another class or byte order, or a table or section beyond
// kMaxImageBytes.
size_t elf_extent(const unsigned char* bytes);

}  // namespace anygpu::test_driver
