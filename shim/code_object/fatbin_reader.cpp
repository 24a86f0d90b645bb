#include "shim/code_object/fatbin_reader.h"

#include <cinttypes>

#include "shim/support/string_format.h"

namespace anygpu {
namespace {

struct ContainerHeader {
  uint32_t magic;
  uint16_t version;
  uint16_t header_size;
  uint64_t entries_size;
};

struct EntryHeader {
  uint16_t kind;
  uint16_t unknown0;
  uint32_t header_size;
  uint64_t payload_size;
  uint32_t compressed_size;
  uint32_t unknown1;
  uint16_t ptx_minor;
  uint16_t ptx_major;
  uint32_t sm;
  uint32_t unknown2[2];
  uint64_t flags;
  uint64_t unknown3;
  uint64_t uncompressed_size;
};
static_assert(sizeof(EntryHeader) == 64, "a fatbin entry header is 64 bytes");

constexpr uint16_t kKindPtx = 1, kKindElf = 2;
constexpr uint64_t kFlagCompressedLz4 = 0x2000, kFlagCompressedZstd = 0x8000;

const char* compression_of(uint64_t flags) {
  if (flags & kFlagCompressedZstd) return "zstd";
  if (flags & kFlagCompressedLz4) return "LZ4";
  return nullptr;
}

bool read_entry(ByteReader container, uint64_t* position, FatbinEntry* entry, std::string* error) {
  EntryHeader header;
  if (!container.read(*position, &header) || header.header_size < sizeof header ||
      !container.contains(*position, header.header_size)) {
    *error = strprintf("the entry header at byte %" PRIu64 " runs past its container", *position);
    return false;
  }
  const uint64_t payload = *position + header.header_size;
  if (!container.contains(payload, header.payload_size)) {
    *error = strprintf("the entry at byte %" PRIu64 " declares %" PRIu64
                       " payload bytes, past the end of its container",
                       *position, header.payload_size);
    return false;
  }
  entry->kind_code = header.kind;
  entry->kind = header.kind == kKindPtx   ? FatbinEntryKind::ptx
                : header.kind == kKindElf ? FatbinEntryKind::elf
                                          : FatbinEntryKind::other;
  entry->sm = header.sm;
  entry->ptx_major = header.ptx_major;
  entry->ptx_minor = header.ptx_minor;
  entry->compression = compression_of(header.flags);
  entry->size = static_cast<size_t>(header.payload_size);
  entry->uncompressed_size = entry->compression ? header.uncompressed_size : header.payload_size;
  if (entry->compression) {
    if (header.compressed_size > header.payload_size) {
      *error = strprintf("the entry at byte %" PRIu64 " has more compressed bytes than payload",
                         *position);
      return false;
    }
    entry->size = header.compressed_size;
  }
  entry->data = container.data() + payload;
  *position = payload + header.payload_size;
  return true;
}

bool read_container(ByteReader image, uint64_t start, std::vector<FatbinEntry>* entries,
                    uint64_t* end, std::string* error) {
  ContainerHeader header;
  if (!image.read(start, &header) || header.magic != kFatbinMagic) {
    *error = strprintf("no fatbin header at byte %" PRIu64, start);
    return false;
  }
  if (header.header_size < sizeof header || !image.contains(start, header.header_size) ||
      !image.contains(start + header.header_size, header.entries_size)) {
    *error = strprintf("the container at byte %" PRIu64 " declares %" PRIu64
                       " bytes of entries, past the end of its %zu bytes",
                       start, header.entries_size, image.size());
    return false;
  }
  const ByteReader container = image.slice(start + header.header_size, header.entries_size);
  uint64_t position = 0;
  while (position < container.size()) {
    FatbinEntry entry;
    if (!read_entry(container, &position, &entry, error)) return false;
    entries->push_back(entry);
  }
  *end = start + header.header_size + header.entries_size;
  return true;
}

}  // namespace

bool is_fatbin(ByteReader image) {
  uint32_t magic = 0;
  return image.read(0, &magic) && magic == kFatbinMagic;
}

bool read_fatbin(ByteReader image, std::vector<FatbinEntry>* entries, std::string* error) {
  entries->clear();
  uint64_t position = 0;
  // Containers may be concatenated (a linked .nv_fatbin section); padding may follow the last.
  do {
    if (!read_container(image, position, entries, &position, error)) return false;
    while (position < image.size() && position % 8 && image.data()[position] == 0) ++position;
  } while (is_fatbin(image.slice(position, image.size() - position)));
  return true;
}

const char* fatbin_kind_name(FatbinEntryKind kind) {
  switch (kind) {
    case FatbinEntryKind::ptx:
      return "PTX";
    case FatbinEntryKind::elf:
      return "cubin";
    case FatbinEntryKind::other:
      break;
  }
  return "other";
}

}  // namespace anygpu
