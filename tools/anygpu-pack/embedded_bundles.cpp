#include "embedded_bundles.h"

#include <elf.h>

#include <cstring>

#include "shim/elf_reader.h"

namespace anygpu_pack {
namespace {

using namespace anygpu;

constexpr char kHostKind[] = "host-";

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

void add_section_bundle(ByteReader file, std::vector<FoundBundle>* found) {
  std::vector<ElfSection> sections;
  std::string error;
  if (!is_elf(file) || !read_elf_sections(file, &sections, &error)) return;
  FoundBundle bundle{"object-file bundle", {}};
  for (const ElfSection& section : sections) {
    const std::string_view name = section.name;
    if (section.type == SHT_NOBITS || name.size() <= kOffloadBundleMagicSize ||
        name.compare(0, kOffloadBundleMagicSize, kOffloadBundleMagic) != 0)
      continue;
    BundleEntry entry;
    entry.id = std::string(name.substr(kOffloadBundleMagicSize));
    const bool host = entry.id.compare(0, sizeof kHostKind - 1, kHostKind) == 0;
    entry.data = host ? file.data() : file.data() + section.offset;
    entry.size = host ? file.size() : static_cast<size_t>(section.size);
    bundle.entries.push_back(entry);
  }
  if (!bundle.entries.empty()) found->push_back(bundle);
}

}  // namespace

std::vector<FoundBundle> find_bundles(ByteReader file) {
  std::vector<FoundBundle> found;
  add_section_bundle(file, &found);
  add_scanned_bundles(file, &found);
  return found;
}

}  // namespace anygpu_pack
