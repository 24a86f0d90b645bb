// What an AMD device runs: an AMD code object for its processor whose xnack and sramecc settings
// fit (unstated fits either; '+' fits only '+', '-' only '-'); an exact match first; below any of
// those, one for its generic target (gfx11-generic on gfx1101) where the runtime loads code
// object v6 (DeviceTarget::max_ir_version 6: HIP 6.4 and later).
#pragma once

#include "shim/code_object/code_fit.h"

namespace anygpu::hip {

std::unique_ptr<CodeFitRules> make_code_rules(const DeviceTarget& target);

}  // namespace anygpu::hip
