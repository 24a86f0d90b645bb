// Which code object a device runs: the image itself, or the best-fitting entry of a container, by
// the rules the device's backend gives (CodeFitRules, code_fit.h; docs/architecture.md, "Code
// objects"). Among entries that fit, the best Fit wins; one that fits but cannot be loaded
// (compressed, malformed) is named in the error instead.
#pragma once

#include <anygpu/anygpu.h>

#include <string>

#include "shim/code_object/code_fit.h"
#include "shim/code_object/code_object.h"

namespace anygpu {

// Picks the code object `device` runs from `image`. On failure returns AG_ERROR_INVALID_IMAGE (no
// known format, a malformed container), AG_ERROR_NO_BINARY_FOR_DEVICE (nothing fits) or
// AG_ERROR_NOT_SUPPORTED (only a compressed entry fits), with `detail` saying what the image holds
// and what the device needs.
// `label` names the device in the detail ("device 0 (NVIDIA H200, sm_90)"); "" for "the device
// (<architecture>)".
ag_result select_for_device(const CodeFitRules& device, const std::string& label, const void* image,
                            size_t bytes, CodeObject* selected, std::string* detail);

}  // namespace anygpu
