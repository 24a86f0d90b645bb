// SPIR-V wants every block of a function after the blocks that dominate it; LLVM's block order
// need not be so (a rotated loop's exit block often comes before the loop's body), and
// llvm-spirv 15 keeps LLVM's order, so spirv-val then finds uses before definitions. This puts
// the blocks of every function of a textual LLVM module in reverse post-order, which is a
// dominance order, before llvm-spirv reads the module.
#pragma once

#include <string>

namespace anygpu {

// `ir` with the blocks of each function in reverse post-order; functions already in such an order
// are left as they are. A function whose blocks move has its numbered values and blocks renamed
// (`%7` becomes `%agk.7`), since textual IR must number them in order of appearance. False with
// `error` for a module with numbered types, whose names the renaming would take for values.
bool order_blocks_by_dominance(const std::string& ir, std::string* ordered, std::string* error);

}  // namespace anygpu
