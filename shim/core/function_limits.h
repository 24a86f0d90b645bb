// A function's launch limits: the device's, narrowed by what the compiled kernel needs.
#pragma once

#include <cstdint>

#include "shim/core/objects.h"

namespace anygpu {

inline int function_max_threads(const Function& f) {
  const int device = f.device->properties.max_threads_per_block;
  const int own = f.attributes.max_threads_per_block;
  return own > 0 && own < device ? own : device;
}

// The dynamic shared memory a launch may ask for before agFunctionSetMaxDynamicShared: the
// device's default per block less the kernel's static part, as CUDA's default.
inline uint64_t default_max_dynamic_shared(const Function& f) {
  const uint64_t device = f.device->properties.shared_memory_per_block;
  const uint64_t fixed = f.attributes.static_shared_bytes;
  return fixed < device ? device - fixed : 0;
}

// The most agFunctionSetMaxDynamicShared accepts: the device's opt-in limit less the static part.
inline uint64_t optin_max_dynamic_shared(const Function& f) {
  const uint64_t device = f.device->properties.shared_memory_per_block_optin;
  const uint64_t fixed = f.attributes.static_shared_bytes;
  return fixed < device ? device - fixed : 0;
}

}  // namespace anygpu
