#include "embedded_bundles.h"

#include <cstring>

namespace anygpu_pack {
namespace {

using namespace anygpu;

void add_scanned_bundles(ByteReader file, std::vector<FoundBundle>* found) {
  size_t at = 0;
  while (at < file.size()) {
    const void* hit =
        memmem(file.data() + at, file.size() - at, kOffloadBundleMagic, kOffloadBundleMagicSize);
    if (!hit) return;
    at = static_cast<size_t>(static_cast<const unsigned char*>(hit) - file.data());
    OffloadBundle bundle;
    std::string error;
    if (read_offload_bundle(file.slice(at, file.size() - at), &bundle, &error) &&
        !bundle.entries.empty()) {
      found->push_back(FoundBundle{"bundle at offset " + std::to_string(at), bundle.entries});
      at += bundle.extent;  // a bundle's entries are not searched again
    } else {
      at += kOffloadBundleMagicSize;
    }
  }
}

// The object-file form, read as the runtime reads it (shim/offload_bundle.h); a malformed one is
// skipped like a malformed embedded bundle.
void add_section_bundle(ByteReader file, std::vector<FoundBundle>* found) {
  OffloadBundle bundle;
  std::string error;
  if (read_offload_bundle_sections(file, &bundle, &error))
    found->push_back(FoundBundle{"object-file bundle", bundle.entries});
}

}  // namespace

std::vector<FoundBundle> find_bundles(ByteReader file) {
  std::vector<FoundBundle> found;
  add_section_bundle(file, &found);
  add_scanned_bundles(file, &found);
  return found;
}

}  // namespace anygpu_pack
