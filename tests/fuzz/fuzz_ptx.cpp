// Fuzz target: the PTX reader (.version, .target, .entry names) and the parameter layouts
// (anygpu_params_<kernel> records, .param lists) of kernel k and of the first entries.
#include "fuzz_support.h"
#include "shim/code_object/kernel_params.h"
#include "shim/code_object/ptx_reader.h"

using namespace anygpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const CodeObject code{CodeObjectFormat::ptx, data, size};
  std::vector<ag_param_info> layout;
  std::string error;
  fuzz::check(read_kernel_params(code, "k", &layout, &error) || !error.empty());
  PtxInfo info;
  if (!read_ptx(ByteReader(data, size), &info, &error)) return 0;
  size_t names = 0;
  for (const std::string& entry : info.entries) names += entry.size();
  fuzz::check(names <= size);
  for (size_t i = 0; i < info.entries.size() && i < 4; ++i)
    fuzz::check(read_kernel_params(code, info.entries[i], &layout, &error) || !error.empty());
  return 0;
}
