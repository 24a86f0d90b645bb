// anygpu-pack block-order -o OUT IR: the blocks of a linked SPIR-V-bound LLVM module in dominance
// order, for llvm-spirv 15 (spirv_block_order.h).
#include <string>

#include "pack.h"
#include "shim/kernel_build/spirv_block_order.h"

namespace anygpu_pack {

int block_order_command(const std::vector<std::string>& args) {
  std::string output, input;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size()) {
      output = args[++i];
    } else if (args[i][0] != '-' && input.empty()) {
      input = args[i];
    } else {
      return usage();
    }
  }
  if (output.empty() || input.empty()) return usage();
  std::vector<unsigned char> ir;
  std::string error, ordered;
  if (!read_file(input, &ir, &error)) return report(error);
  if (!anygpu::order_blocks_by_dominance(std::string(ir.begin(), ir.end()), &ordered, &error))
    return report(input + ": " + error);
  if (!write_file(output, reinterpret_cast<const unsigned char*>(ordered.data()), ordered.size(),
                  &error))
    return report(error);
  return 0;
}

}  // namespace anygpu_pack
