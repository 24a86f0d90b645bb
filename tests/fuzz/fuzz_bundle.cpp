// Fuzz target: the clang offload-bundle readers (the bundle format, and the object-file form's
// sections), and the writer on whatever they accept (a bundle read, written and read again holds
// the same entries).
#include "fuzz_support.h"
#include "shim/code_object/offload_bundle.h"

using namespace anygpu;

namespace {

// The object-file form: what detection sees agrees with what the reader reads, and every entry
// lies inside the file.
void check_sections(const uint8_t* data, size_t size) {
  OffloadBundle bundle;
  std::string error;
  const bool has_sections = has_offload_bundle_sections(ByteReader(data, size));
  if (!read_offload_bundle_sections(ByteReader(data, size), &bundle, &error)) {
    fuzz::check(!error.empty());
    return;
  }
  fuzz::check(has_sections && !bundle.entries.empty() && bundle.extent == size);
  for (const BundleEntry& entry : bundle.entries) {
    fuzz::check_inside(data, size, entry.data, entry.size);
    fuzz::check(!entry.whole_file || (entry.data == data && entry.size == size));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check_sections(data, size);
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
