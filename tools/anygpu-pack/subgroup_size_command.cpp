// anygpu-pack subgroup-size LANES -o OUT IR: the kernels of a linked SPIR-V-bound LLVM module that
// use warp functions, given a required sub-group size of LANES (spirv_subgroup_size.h).
#include <cstdlib>
#include <string>

#include "pack.h"
#include "shim/kernel_build/spirv_subgroup_size.h"

namespace anygpu_pack {

int subgroup_size_command(const std::vector<std::string>& args) {
  std::string output, input;
  unsigned long lanes = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size()) {
      output = args[++i];
    } else if (args[i][0] != '-' && lanes == 0) {
      char* end = nullptr;
      lanes = strtoul(args[i].c_str(), &end, 10);
      if (*end != '\0' || lanes == 0 || lanes > 128 || (lanes & (lanes - 1)) != 0)
        return report("subgroup-size: " + args[i] + " is not a power of two from 1 to 128");
    } else if (args[i][0] != '-' && input.empty()) {
      input = args[i];
    } else {
      return usage();
    }
  }
  if (output.empty() || input.empty() || lanes == 0) return usage();
  std::vector<unsigned char> ir;
  std::string error, pinned;
  if (!read_file(input, &ir, &error)) return report(error);
  if (!anygpu::pin_subgroup_size(std::string(ir.begin(), ir.end()), static_cast<unsigned>(lanes),
                                 &pinned, nullptr, &error))
    return report(input + ": " + error);
  if (!write_file(output, reinterpret_cast<const unsigned char*>(pinned.data()), pinned.size(),
                  &error))
    return report(error);
  return 0;
}

}  // namespace anygpu_pack
