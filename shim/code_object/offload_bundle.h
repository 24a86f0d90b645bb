// clang's offload-bundle container (clang-offload-bundler, hipcc), read and written. The
// uncompressed layout, all integers little-endian uint64:
//   "__CLANG_OFFLOAD_BUNDLE__"  entry count
//   per entry: offset (from the magic), size, id length, id bytes (no terminator)
//   the entries' bytes, anywhere after the header
// clang-offload-bundler -type=o writes another form when its host input is an ELF file: a copy of
// that file with one section "__CLANG_OFFLOAD_BUNDLE__<id>" per entry; a section holding a single
// zero byte stands for the file itself (the host entry: clang unbundles it as the whole file).
// docs/bundle-format.md lists the entry ids anygpu writes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "shim/code_object/byte_reader.h"

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
  // Object-file form: the entry is the whole file that carries the bundle (the host entry), so
  // it is not opened as a container again.
  bool whole_file = false;
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

// Object-file form (ELF64 little-endian, any machine and type): whether the ELF file has a section
// named "__CLANG_OFFLOAD_BUNDLE__<id>". Only the section table and the names are read.
bool has_offload_bundle_sections(ByteReader image);

// Reads the entries of the object-file form, in section order; `extent` is the whole file. False
// with `error` when the section table or a name lies outside the file, there is no bundle section,
// an id is not printable ASCII or is repeated, or a bundle section's bytes lie outside the file.
// A bundle section of type SHT_NOBITS is an empty entry.
bool read_offload_bundle_sections(ByteReader image, OffloadBundle* bundle, std::string* error);

// Writes `entries` in their order. False with `error` for an empty, non-printable or repeated id.
bool write_offload_bundle(const std::vector<BundleEntry>& entries, std::vector<unsigned char>* out,
                          std::string* error);

// The entry with that id, or nullptr.
const BundleEntry* find_bundle_entry(const OffloadBundle& bundle, const std::string& id);

}  // namespace anygpu
