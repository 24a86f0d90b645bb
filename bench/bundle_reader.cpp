#include "bundle_reader.h"

#include <utility>

#include "shim/code_object/offload_bundle.h"

namespace anygpu_bench {

bool read_bundle(const unsigned char* bundle, size_t size, std::vector<BundleEntry>* entries,
                 std::string* error) {
  const anygpu::ByteReader image(bundle, size);
  anygpu::OffloadBundle read;
  if (!anygpu::is_offload_bundle(image)) {
    *error = "the embedded image is not an anygpu bundle";
    return false;
  }
  if (!anygpu::read_offload_bundle(image, &read, error)) return false;
  entries->clear();
  for (const anygpu::BundleEntry& entry : read.entries)
    entries->push_back(BundleEntry{entry.id, entry.data, entry.size});
  return true;
}

std::string bundle_ids(const std::vector<BundleEntry>& entries) {
  std::string ids;
  for (const BundleEntry& entry : entries) ids += (ids.empty() ? "" : ", ") + entry.id;
  return ids;
}

}  // namespace anygpu_bench
