// What a Level Zero device runs: a SPIR-V module.
#pragma once

#include "shim/code_object/code_fit.h"

namespace anygpu::level_zero {

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target);

}  // namespace anygpu::level_zero
