// What an NVIDIA device runs: a cubin of its SM major and an equal or lower minor (the highest
// such), else the PTX with the highest .target it takes whose ISA version the driver compiles.
#pragma once

#include "shim/code_object/code_fit.h"

namespace anygpu::cuda {

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target);

}  // namespace anygpu::cuda
