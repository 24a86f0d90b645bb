// NVIDIA fatbin containers (nvcc -fatbin, the .nv_fatbin section): their entries, what each one
// is built for, and whether it is compressed, which anygpu does not support. Layout (little-endian;
// NVIDIA does not document it, this follows what nvcc 11 to 13 write):
//   header: uint32 magic 0xBA55ED50, uint16 version 1, uint16 header size, uint64 entries' bytes
//   entry:  uint16 kind (1 PTX, 2 ELF), uint16, uint32 header size, uint64 payload size,
//           uint32 compressed size, uint32, uint16 PTX minor, uint16 PTX major, uint32 SM,
//           uint32, uint32, uint64 flags, uint64, uint64 uncompressed size, then the payload
// Containers may follow one another; each is read.
#pragma once

#include <string>
#include <vector>

#include "shim/code_object/byte_reader.h"

namespace anygpu {

constexpr uint32_t kFatbinMagic = 0xBA55ED50;

enum class FatbinEntryKind { ptx, elf, other };

struct FatbinEntry {
  FatbinEntryKind kind = FatbinEntryKind::other;
  unsigned kind_code = 0;                 // the raw kind, for entries of another kind
  unsigned sm = 0;                        // 80 for sm_80
  unsigned ptx_major = 0, ptx_minor = 0;  // the PTX ISA version of a PTX entry
  const char* compression = nullptr;      // "zstd" or "LZ4" when compressed, else nullptr
  const unsigned char* data = nullptr;    // the payload as stored (compressed or not)
  size_t size = 0;
  uint64_t uncompressed_size = 0;
};

bool is_fatbin(ByteReader image);

// False with `error` when a header or payload runs past the image or a size is inconsistent.
bool read_fatbin(ByteReader image, std::vector<FatbinEntry>* entries, std::string* error);

const char* fatbin_kind_name(FatbinEntryKind kind);  // "PTX", "cubin", "other"

}  // namespace anygpu
