#include "interpose/image_format.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace anygpu::intercept {
namespace {

constexpr char kFatbinWrapperMagic[] = "\xb1\x43\x62\x46";  // 0x466243b1, little-endian
constexpr char kFatbinMagic[] = "\x50\xed\x55\xba";         // 0xba55ed50
constexpr uint16_t kMachineCuda = 190;
constexpr uint16_t kMachineAmdgpu = 224;
constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr size_t kMaxPtxBytes = size_t{1} << 30;  // text longer than this is not taken for PTX

// Byte by byte, stopping at the first difference: never reads past the end of a short text.
bool starts_with(const unsigned char* bytes, const char* magic, size_t length) {
  for (size_t i = 0; i < length; ++i)
    if (bytes[i] != static_cast<unsigned char>(magic[i])) return false;
  return true;
}

template <typename T>
T read(const unsigned char* bytes, size_t offset) {
  T value;
  memcpy(&value, bytes + offset, sizeof value);
  return value;
}

// ELF64: the furthest of the section header table, the program header table, and every section's
// and segment's file contents.
size_t elf_size(const unsigned char* bytes) {
  uint64_t program_headers = read<uint64_t>(bytes, 32), section_headers = read<uint64_t>(bytes, 40);
  uint16_t program_entry = read<uint16_t>(bytes, 54), program_count = read<uint16_t>(bytes, 56);
  uint16_t section_entry = read<uint16_t>(bytes, 58), section_count = read<uint16_t>(bytes, 60);
  uint64_t end = 64;
  if (program_count)
    end = std::max<uint64_t>(end, program_headers + uint64_t{program_entry} * program_count);
  if (section_count)
    end = std::max<uint64_t>(end, section_headers + uint64_t{section_entry} * section_count);
  for (uint16_t i = 0; i < section_count && section_entry >= 64; ++i) {
    const unsigned char* section = bytes + section_headers + uint64_t{section_entry} * i;
    if (read<uint32_t>(section, 4) == 8) continue;  // SHT_NOBITS takes no file space
    end = std::max<uint64_t>(end, read<uint64_t>(section, 24) + read<uint64_t>(section, 32));
  }
  for (uint16_t i = 0; i < program_count && program_entry >= 56; ++i) {
    const unsigned char* segment = bytes + program_headers + uint64_t{program_entry} * i;
    end = std::max<uint64_t>(end, read<uint64_t>(segment, 8) + read<uint64_t>(segment, 32));
  }
  return end;
}

size_t bundle_size(const unsigned char* bytes) {
  uint64_t count = read<uint64_t>(bytes, 24);
  uint64_t end = 32, at = 32;
  for (uint64_t i = 0; i < count && i < 4096; ++i) {
    uint64_t offset = read<uint64_t>(bytes, at), size = read<uint64_t>(bytes, at + 8);
    uint64_t id_size = read<uint64_t>(bytes, at + 16);
    at += 24 + id_size;
    end = std::max({end, at, offset + size});
  }
  return end;
}

bool looks_like_ptx(const unsigned char* bytes) {
  size_t length = strnlen(reinterpret_cast<const char*>(bytes), kMaxPtxBytes);
  if (length == kMaxPtxBytes) return false;
  for (size_t i = 0; i < length; ++i)
    if (bytes[i] < 0x20 && bytes[i] != '\n' && bytes[i] != '\r' && bytes[i] != '\t') return false;
  return strstr(reinterpret_cast<const char*>(bytes), ".version") != nullptr;
}

}  // namespace

ImageExtent image_extent(const void* image) {
  ImageExtent extent;
  auto bytes = static_cast<const unsigned char*>(image);
  if (!bytes) return extent;
  if (starts_with(bytes, kFatbinWrapperMagic, 4)) {  // {magic, version, data, filename}
    bytes = read<const unsigned char*>(bytes, 8);
    if (!bytes) return extent;
  }
  extent.data = bytes;
  if (starts_with(bytes, kFatbinMagic, 4)) {  // {magic, u16 version, u16 header, u64 size}
    extent.size = read<uint16_t>(bytes, 6) + read<uint64_t>(bytes, 8);
    extent.extension = "fatbin";
  } else if (starts_with(bytes,
                         "\x7f"
                         "ELF"
                         "\x02",
                         5)) {
    extent.size = elf_size(bytes);
    uint16_t machine = read<uint16_t>(bytes, 18);
    extent.extension = machine == kMachineCuda     ? "cubin"
                       : machine == kMachineAmdgpu ? "hsaco"
                                                   : "bin";
  } else if (starts_with(bytes, kBundleMagic, sizeof kBundleMagic - 1)) {
    extent.size = bundle_size(bytes);
  } else if (looks_like_ptx(bytes)) {
    extent.size = strlen(reinterpret_cast<const char*>(bytes));
    extent.extension = "ptx";
  }
  return extent;
}

}  // namespace anygpu::intercept
