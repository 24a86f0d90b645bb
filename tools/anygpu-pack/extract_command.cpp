// anygpu-pack extract FILE ID -o OUT: writes one bundle entry's bytes, from a bundle or from a
// program that embeds bundles (the first bundle found that has the id).
#include "embedded_bundles.h"
#include "pack.h"

namespace anygpu_pack {

using namespace anygpu;

int extract_command(const std::vector<std::string>& args) {
  if (args.size() != 4 || args[2] != "-o") return usage();
  const std::string &path = args[0], &id = args[1], &out = args[3];
  std::vector<unsigned char> bytes;
  std::string error;
  if (!read_file(path, &bytes, &error)) return report(error);
  const std::vector<FoundBundle> found = find_bundles(ByteReader(bytes.data(), bytes.size()));
  for (const FoundBundle& bundle : found) {
    for (const BundleEntry& entry : bundle.entries) {
      if (entry.id != id) continue;
      if (!write_file(out, entry.data, entry.size, &error)) return report(error);
      return 0;
    }
  }
  if (found.empty()) return report(path + " holds no offload bundle");
  return report(path + " has no entry '" + id + "' (anygpu-pack list shows the ids)");
}

}  // namespace anygpu_pack
