// anygpu's kernel headers, built into the library so that run-time compilation needs no header
// path: include/anygpu/*.h and include/anygpu/detail/*.h by their #include names
// ("anygpu/kernel.h"), and CUDA's header names that kernel builds find in
// include/anygpu/cuda_compat ("cuda_runtime.h", "cooperative_groups/reduce.h"). Generated at
// build time from the headers themselves (shim/core/embedded_headers.cmake).
#pragma once

#include <cstddef>

namespace anygpu {

struct EmbeddedHeader {
  const char* name;  // the #include name
  const char* text;  // NUL-terminated
  size_t size;       // bytes, the NUL excluded
};

// Every header, sorted by name; `count` gets how many.
const EmbeddedHeader* embedded_headers(size_t* count);

}  // namespace anygpu
