// Helpers shared by the API entry points: handle lookups and argument checks that record the
// error detail. Each returns AG_SUCCESS or the failure it recorded.
#pragma once

#include <cstring>

#include "error.h"
#include "objects.h"
#include "registry.h"

namespace anygpu {

ag_result get_device(ag_device handle, Device** device);
ag_result get_stream(ag_stream handle, Stream** stream);
ag_result get_event(ag_event handle, Event** event);
ag_result get_module(ag_module handle, Module** module);
ag_result get_function(ag_function handle, Function** function);

// `pointer` (named `what` in the detail) must be non-null.
ag_result require_pointer(const void* pointer, const char* what);
// A size in bytes: non-zero.
ag_result require_size(size_t bytes);
// [pointer, pointer + bytes) must lie inside one allocation of `device`.
ag_result require_device_range(const Device& device, const void* pointer, size_t bytes,
                               const char* what);

// Copies a versioned struct out: `out->struct_size` must be at least sizeof(T); the caller's
// struct_size is kept.
template <typename T>
ag_result write_versioned(T* out, const T& value, const char* what) {
  if (AG_SUCCESS != require_pointer(out, what)) return AG_ERROR_INVALID_VALUE;
  if (out->struct_size < sizeof(T))
    return fail(AG_ERROR_INVALID_VALUE, "%s->struct_size is %zu; set it to sizeof (%zu)", what,
                out->struct_size, sizeof(T));
  const size_t caller_size = out->struct_size;
  memcpy(out, &value, sizeof(T));
  out->struct_size = caller_size;
  return AG_SUCCESS;
}

}  // namespace anygpu
