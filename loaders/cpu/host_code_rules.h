// What the CPU device runs: a host code object (an ELF shared object built with anygpu's kernel
// headers) for the device's machine; empty entries are skipped.
#pragma once

#include "shim/code_object/code_fit.h"

namespace anygpu::cpu {

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target);

}  // namespace anygpu::cpu
