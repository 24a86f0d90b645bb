#include "bundle_reader.h"

#include <cstdint>
#include <cstring>
#include <utility>

namespace anygpu_bench {
namespace {

// docs/bundle-format.md: magic, entry count, then per entry offset, size, id length, id.
constexpr char kMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr size_t kMagicSize = sizeof kMagic - 1;

bool read_u64(const unsigned char* bundle, size_t size, size_t* position, uint64_t* value) {
  if (size < sizeof *value || *position > size - sizeof *value) return false;
  std::memcpy(value, bundle + *position, sizeof *value);  // little-endian, as is the host
  *position += sizeof *value;
  return true;
}

}  // namespace

bool read_bundle(const unsigned char* bundle, size_t size, std::vector<BundleEntry>* entries,
                 std::string* error) {
  if (size < kMagicSize || std::memcmp(bundle, kMagic, kMagicSize) != 0) {
    *error = "the embedded image is not an anygpu bundle";
    return false;
  }
  size_t position = kMagicSize;
  uint64_t count = 0;
  if (!read_u64(bundle, size, &position, &count)) {
    *error = "truncated bundle header";
    return false;
  }
  entries->clear();
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t offset = 0, bytes = 0, id_length = 0;
    if (!read_u64(bundle, size, &position, &offset) || !read_u64(bundle, size, &position, &bytes) ||
        !read_u64(bundle, size, &position, &id_length) || id_length > size - position ||
        offset > size || bytes > size - offset) {
      *error = "malformed bundle entry " + std::to_string(i);
      return false;
    }
    BundleEntry entry;
    entry.id.assign(reinterpret_cast<const char*>(bundle + position), id_length);
    entry.data = bundle + offset;
    entry.size = bytes;
    position += id_length;
    entries->push_back(std::move(entry));
  }
  return true;
}

std::string bundle_ids(const std::vector<BundleEntry>& entries) {
  std::string ids;
  for (const BundleEntry& entry : entries) ids += (ids.empty() ? "" : ", ") + entry.id;
  return ids;
}

}  // namespace anygpu_bench
