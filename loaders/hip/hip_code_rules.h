// What an AMD device runs: an AMD code object for its processor whose xnack and sramecc settings
// fit (unstated fits either; '+' fits only '+', '-' only '-'); an exact match first.
#pragma once

#include "shim/code_object/code_fit.h"

namespace anygpu::hip {

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target);

}  // namespace anygpu::hip
