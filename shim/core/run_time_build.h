// The code object a device runs from an image: the one the image holds for it, or, where it holds
// none but carries a portable source for the device's family (portable_source.h: AMD GPUs), one
// built from that source at load time by the backend's run-time compiler, through the on-disk
// cache, and logged (docs/runtime-compilation.md, "Targets a bundle lacks").
#pragma once

#include <vector>

#include "shim/code_object/code_object.h"
#include "shim/core/objects.h"

namespace anygpu {

// `code` points into `image`, or into `built` when it was built. Failures are recorded with
// fail(): those of select_for_device, AG_ERROR_OUT_OF_MEMORY, and otherwise a failed build is
// AG_ERROR_NO_BINARY_FOR_DEVICE naming why it failed (the compiler's log goes to the log at warn
// level).
ag_result code_object_for_device(Device& device, const void* image, size_t bytes, CodeObject* code,
                                 std::vector<unsigned char>* built);

}  // namespace anygpu
