// The code object a registered device runs from an image, by its backend's rules.
#pragma once

#include "shim/code_object/code_object.h"
#include "shim/core/objects.h"

namespace anygpu {

// select_for_device for `device`, naming it in the detail; records the failure with fail().
ag_result select_code_object(const Device& device, const void* image, size_t bytes,
                             CodeObject* selected);

}  // namespace anygpu
