// Warp functions on SPIR-V are sub-group operations, and a driver picks each kernel's sub-group
// size (8, 16 or 32 lanes on Intel GPUs) unless the module requires one. CUDA code assumes 32
// lanes, so every kernel of a linked SPIR-V-bound module that reaches a sub-group built-in or a
// group operation or barrier of Subgroup scope (__syncwarp), directly or through the functions it
// calls, is given `!intel_reqd_sub_group_size !{i32 N}`
// before llvm-spirv reads the module; llvm-spirv makes it the kernel's `OpExecutionMode
// SubgroupSize N`, which the Level Zero backend checks against the device at load time.
#pragma once

#include <string>
#include <vector>

namespace anygpu {

// The sub-group width anygpu's SPIR-V images require of kernels that use warp functions: CUDA's.
constexpr unsigned kSpirvWarpLanes = 32;

// `ir` with every kernel that uses the sub-group given a required sub-group size of `lanes`;
// kernels that already require one keep theirs. `pinned` (may be null) gets the kernels' names.
// False with `error` when `ir` has a function definition with no end.
bool pin_subgroup_size(const std::string& ir, unsigned lanes, std::string* out,
                       std::vector<std::string>* pinned, std::string* error);

}  // namespace anygpu
