// Fuzz target: the PTX reader (.version, .target, .entry names).
#include "fuzz_support.h"
#include "shim/ptx_reader.h"

using namespace anygpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  PtxInfo info;
  std::string error;
  if (!read_ptx(ByteReader(data, size), &info, &error)) return 0;
  size_t names = 0;
  for (const std::string& entry : info.entries) names += entry.size();
  fuzz::check(names <= size);
  return 0;
}
