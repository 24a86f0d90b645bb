// Fuzz target: the NVIDIA fatbin reader.
#include "fuzz_support.h"
#include "shim/code_object/fatbin_reader.h"

using namespace anygpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<FatbinEntry> entries;
  std::string error;
  if (!read_fatbin(ByteReader(data, size), &entries, &error)) {
    fuzz::check(!error.empty());
    return 0;
  }
  for (const FatbinEntry& entry : entries) fuzz::check_inside(data, size, entry.data, entry.size);
  return 0;
}
