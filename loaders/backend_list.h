// The backends anygpu knows (loaders/backend_list.inc): the one thing shim/ includes from
// loaders/.
#pragma once

#include <vector>

#include "shim/core/backend.h"

namespace anygpu {

// In default device order; never empty (the CPU backend is always there).
const std::vector<const BackendDescriptor*>& backend_descriptors();

// The descriptor of `kind`; nullptr when no backend has that kind.
const BackendDescriptor* find_backend_descriptor(ag_backend_kind kind);

}  // namespace anygpu
