// clang's offload-bundle container (clang-offload-bundler, hipcc), read and written. The
// uncompressed layout, all integers little-endian uint64:
//   "__CLANG_OFFLOAD_BUNDLE__"  entry count
//   per entry: offset (from the magic), size, id length, id bytes (no terminator)
//   the entries' bytes, anywhere after the header
// docs/bundle-format.md lists the entry ids anygpu writes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "byte_reader.h"

namespace anygpu {

constexpr char kOffloadBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr size_t kOffloadBundleMagicSize = sizeof kOffloadBundleMagic - 1;
// clang -offload-compress writes this container instead; anygpu does not decompress it.
constexpr char kCompressedOffloadBundleMagic[] = "CCOB";
// Entries start on this boundary, as hipcc's bundles do (clang -bundle-align=4096), so a code
// object inside an embedded bundle keeps its page alignment relative to the bundle.
constexpr size_t kOffloadBundleAlignment = 4096;

struct BundleEntry {
  std::string id;
  const unsigned char* data = nullptr;  // inside the image read (or the caller's bytes to write)
  size_t size = 0;
};

struct OffloadBundle {
  std::vector<BundleEntry> entries;
  size_t extent = 0;  // bytes from the magic to the end of the header or the last entry
};

bool is_offload_bundle(ByteReader image);
bool is_compressed_offload_bundle(ByteReader image);

// Reads the bundle that starts at the image's first byte; bytes after its last entry are ignored.
// False with `error` when it is malformed: every offset, size and count is checked.
bool read_offload_bundle(ByteReader image, OffloadBundle* bundle, std::string* error);

// Writes `entries` in their order. False with `error` for an empty, non-printable or repeated id.
bool write_offload_bundle(const std::vector<BundleEntry>& entries, std::vector<unsigned char>* out,
                          std::string* error);

// The entry with that id, or nullptr.
const BundleEntry* find_bundle_entry(const OffloadBundle& bundle, const std::string& id);

}  // namespace anygpu
