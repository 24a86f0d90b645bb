#include "shim/code_object/offload_bundle.h"

#include <elf.h>

#include <cinttypes>
#include <set>
#include <string_view>

#include "shim/code_object/elf_reader.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

constexpr size_t kCountOffset = kOffloadBundleMagicSize;
constexpr size_t kFirstEntryOffset = kCountOffset + sizeof(uint64_t);
constexpr size_t kEntryFieldsSize = 3 * sizeof(uint64_t);  // offset, size, id length
// Real ids are a few dozen characters; a longer one is a corrupt length, not an id.
constexpr uint64_t kMaxIdLength = 1024;

// An id must be safe to print in an error detail and to pass on a command line.
bool printable_id(const std::string& id) {
  if (id.empty()) return false;
  for (char c : id)
    if (c <= ' ' || c > '~') return false;
  return true;
}

struct EntryFields {
  uint64_t offset, size, id_length;
};

bool read_entry(ByteReader image, uint64_t index, uint64_t* position, BundleEntry* entry,
                std::string* error) {
  EntryFields fields;
  if (!image.read(*position, &fields)) {
    *error = strprintf("it is truncated: entry %" PRIu64 "'s header runs past its %zu bytes", index,
                       image.size());
    return false;
  }
  const uint64_t id_offset = *position + kEntryFieldsSize;
  if (fields.id_length == 0 || fields.id_length > kMaxIdLength) {
    *error = strprintf("entry %" PRIu64 "'s id length %" PRIu64 " is not in [1, %" PRIu64 "]",
                       index, fields.id_length, kMaxIdLength);
    return false;
  }
  if (!image.contains(id_offset, fields.id_length)) {
    *error = strprintf("it is truncated: entry %" PRIu64 "'s id runs past its %zu bytes", index,
                       image.size());
    return false;
  }
  entry->id.assign(reinterpret_cast<const char*>(image.data() + id_offset), fields.id_length);
  if (!printable_id(entry->id)) {
    *error = strprintf("entry %" PRIu64 "'s id holds a byte that is not printable ASCII", index);
    return false;
  }
  if (!image.contains(fields.offset, fields.size)) {
    *error = strprintf("entry %" PRIu64 " ('%s') at offset %" PRIu64 " with %" PRIu64
                       " bytes runs past the end of its %zu bytes",
                       index, entry->id.c_str(), fields.offset, fields.size, image.size());
    return false;
  }
  entry->data = image.data() + fields.offset;
  entry->size = static_cast<size_t>(fields.size);
  *position = id_offset + fields.id_length;
  return true;
}

void append_u64(std::vector<unsigned char>* out, uint64_t value) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
  out->insert(out->end(), bytes, bytes + sizeof value);
}

size_t align_up(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

bool check_ids(const std::vector<BundleEntry>& entries, std::string* error) {
  std::set<std::string> seen;
  for (const BundleEntry& entry : entries) {
    if (!printable_id(entry.id) || entry.id.size() > kMaxIdLength) {
      *error = strprintf("the entry id '%s' is empty, too long or not printable ASCII",
                         entry.id.c_str());
      return false;
    }
    if (!seen.insert(entry.id).second) {
      *error = strprintf("two entries have the id '%s'", entry.id.c_str());
      return false;
    }
  }
  return true;
}

// Object-file form: a section named "__CLANG_OFFLOAD_BUNDLE__<id>" with a non-empty id.
bool is_bundle_section(const ElfSection& section) {
  const std::string_view magic(kOffloadBundleMagic, kOffloadBundleMagicSize);
  return section.name.size() > magic.size() && section.name.substr(0, magic.size()) == magic;
}

// One bundle section's entry; its id has been checked.
bool read_section_entry(ByteReader image, const ElfSection& section, size_t index,
                        BundleEntry* entry, std::string* error) {
  if (section.type == SHT_NOBITS) {  // no bytes in the file: an empty entry
    entry->data = image.data();
    entry->size = 0;
    return true;
  }
  if (!image.contains(section.offset, section.size)) {
    *error = strprintf("entry '%s' (section %zu) at offset %" PRIu64 " with %" PRIu64
                       " bytes runs past the end of its %zu bytes",
                       entry->id.c_str(), index, section.offset, section.size, image.size());
    return false;
  }
  // clang-offload-bundler gives the host entry one zero byte and unbundles it as the whole file.
  entry->whole_file = section.size == 1 && image.data()[section.offset] == 0;
  entry->data = entry->whole_file ? image.data() : image.data() + section.offset;
  entry->size = entry->whole_file ? image.size() : static_cast<size_t>(section.size);
  return true;
}

}  // namespace

bool is_offload_bundle(ByteReader image) {
  return image.starts_with(kOffloadBundleMagic, kOffloadBundleMagicSize);
}

bool is_compressed_offload_bundle(ByteReader image) {
  return image.starts_with(kCompressedOffloadBundleMagic, sizeof kCompressedOffloadBundleMagic - 1);
}

bool read_offload_bundle(ByteReader image, OffloadBundle* bundle, std::string* error) {
  bundle->entries.clear();
  bundle->extent = 0;
  if (is_compressed_offload_bundle(image)) {
    *error =
        "it is a compressed offload bundle (CCOB, clang -offload-compress), which anygpu does "
        "not support; unpack it with clang-offload-bundler -unbundle and bundle it uncompressed";
    return false;
  }
  if (!is_offload_bundle(image)) {
    *error = "it does not start with __CLANG_OFFLOAD_BUNDLE__";
    return false;
  }
  uint64_t count = 0;
  if (!image.read(kCountOffset, &count)) {
    *error = "it is truncated: the entry count is missing";
    return false;
  }
  // Each entry takes at least its fields and a one-byte id: bound the count before reserving.
  const uint64_t room = (image.size() - kFirstEntryOffset) / (kEntryFieldsSize + 1);
  if (count > room) {
    *error = strprintf("it declares %" PRIu64 " entries, more than its %zu bytes can hold", count,
                       image.size());
    return false;
  }
  std::vector<BundleEntry> entries(static_cast<size_t>(count));
  std::set<std::string> ids;
  uint64_t position = kFirstEntryOffset, extent = 0;
  for (uint64_t i = 0; i < count; ++i) {
    if (!read_entry(image, i, &position, &entries[i], error)) return false;
    if (!ids.insert(entries[i].id).second) {
      *error = strprintf("two entries have the id '%s'", entries[i].id.c_str());
      return false;
    }
    const uint64_t end = static_cast<uint64_t>(entries[i].data - image.data()) + entries[i].size;
    if (end > extent) extent = end;
  }
  bundle->entries = std::move(entries);
  bundle->extent = static_cast<size_t>(extent > position ? extent : position);
  return true;
}

bool has_offload_bundle_sections(ByteReader image) {
  std::vector<ElfSection> sections;
  std::string error;
  if (!is_elf(image) || !read_elf_section_headers(image, &sections, &error)) return false;
  for (const ElfSection& section : sections)
    if (is_bundle_section(section)) return true;
  return false;
}

bool read_offload_bundle_sections(ByteReader image, OffloadBundle* bundle, std::string* error) {
  bundle->entries.clear();
  bundle->extent = 0;
  if (!is_elf(image)) {
    *error = "it is not an ELF file";
    return false;
  }
  std::vector<ElfSection> sections;
  std::string elf_error;
  if (!read_elf_section_headers(image, &sections, &elf_error)) {
    *error = "its ELF section table is malformed: " + elf_error;
    return false;
  }
  std::vector<BundleEntry> entries;
  std::set<std::string> ids;
  for (size_t i = 0; i < sections.size(); ++i) {
    if (!is_bundle_section(sections[i])) continue;
    BundleEntry entry;
    entry.id = std::string(sections[i].name.substr(kOffloadBundleMagicSize));
    if (!printable_id(entry.id) || entry.id.size() > kMaxIdLength) {
      *error = strprintf("section %zu's entry id is longer than %" PRIu64
                         " bytes or holds a byte that is not printable ASCII",
                         i, kMaxIdLength);
      return false;
    }
    if (!ids.insert(entry.id).second) {
      *error = strprintf("two sections have the entry id '%s'", entry.id.c_str());
      return false;
    }
    if (!read_section_entry(image, sections[i], i, &entry, error)) return false;
    entries.push_back(std::move(entry));
  }
  if (entries.empty()) {
    *error = "it has no section named __CLANG_OFFLOAD_BUNDLE__<id>";
    return false;
  }
  bundle->entries = std::move(entries);
  bundle->extent = image.size();
  return true;
}

bool write_offload_bundle(const std::vector<BundleEntry>& entries, std::vector<unsigned char>* out,
                          std::string* error) {
  if (!check_ids(entries, error)) return false;
  size_t header_size = kFirstEntryOffset;
  for (const BundleEntry& entry : entries) header_size += kEntryFieldsSize + entry.id.size();
  std::vector<size_t> offsets;
  size_t end = header_size;
  for (const BundleEntry& entry : entries) {
    // An empty entry (hipcc's host entry) needs no alignment and adds no padding.
    offsets.push_back(entry.size ? align_up(end, kOffloadBundleAlignment) : end);
    end = offsets.back() + entry.size;
  }
  std::vector<unsigned char> bytes(kOffloadBundleMagic,
                                   kOffloadBundleMagic + kOffloadBundleMagicSize);
  bytes.reserve(end);
  append_u64(&bytes, entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    append_u64(&bytes, offsets[i]);
    append_u64(&bytes, entries[i].size);
    append_u64(&bytes, entries[i].id.size());
    bytes.insert(bytes.end(), entries[i].id.begin(), entries[i].id.end());
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    bytes.resize(offsets[i], 0);
    if (entries[i].size)
      bytes.insert(bytes.end(), entries[i].data, entries[i].data + entries[i].size);
  }
  *out = std::move(bytes);
  return true;
}

const BundleEntry* find_bundle_entry(const OffloadBundle& bundle, const std::string& id) {
  for (const BundleEntry& entry : bundle.entries)
    if (entry.id == id) return &entry;
  return nullptr;
}

}  // namespace anygpu
