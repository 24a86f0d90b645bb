// Fuzz target: the clang offload-bundle reader, and the writer on whatever it accepts (a bundle
// read, written and read again holds the same entries).
#include "fuzz_support.h"
#include "shim/offload_bundle.h"

using namespace anygpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  OffloadBundle bundle;
  std::string error;
  if (!read_offload_bundle(ByteReader(data, size), &bundle, &error)) {
    fuzz::check(!error.empty());
    return 0;
  }
  fuzz::check(bundle.extent <= size);
  for (const BundleEntry& entry : bundle.entries)
    fuzz::check_inside(data, size, entry.data, entry.size);
  std::vector<unsigned char> written;
  if (!write_offload_bundle(bundle.entries, &written, &error)) __builtin_trap();
  OffloadBundle again;
  fuzz::check(read_offload_bundle(ByteReader(written.data(), written.size()), &again, &error));
  fuzz::check(again.entries.size() == bundle.entries.size());
  for (size_t i = 0; i < again.entries.size(); ++i) {
    fuzz::check(again.entries[i].id == bundle.entries[i].id);
    fuzz::check(again.entries[i].size == bundle.entries[i].size);
  }
  return 0;
}
