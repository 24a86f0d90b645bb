// Which code-object formats a device runs, and the error when an image holds none of them.
#pragma once

#include "code_object.h"
#include "objects.h"

namespace anygpu {

// Detects the image's format and checks that `device` can load it; records the detail otherwise.
ag_result select_code_object(const Device& device, const void* image, size_t bytes,
                             CodeObject* selected);

}  // namespace anygpu
