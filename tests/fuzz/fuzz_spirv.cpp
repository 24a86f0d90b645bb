// Fuzz target: the SPIR-V reader (entry points and kernel parameter layout).
#include "fuzz_support.h"
#include "shim/code_object/spirv_reader.h"

using namespace anygpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SpirvInfo info;
  std::string error;
  if (!read_spirv(ByteReader(data, size), &info, &error)) return 0;
  size_t params = 0;
  for (const SpirvEntryPoint& entry : info.entry_points) {
    params += entry.params.size();
    for (const SpirvParam& param : entry.params) fuzz::check(param.alignment > 0);
  }
  fuzz::check(params <= size);
  return 0;
}
