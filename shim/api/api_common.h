// Helpers shared by the API entry points: handle lookups and argument checks that record the
// error detail. Each returns AG_SUCCESS or the failure it recorded.
//
// Every entry point checks its arguments in one order, so that a call with several bad ones
// reports the same one whatever the backend:
//   1. handles            get_device, get_stream, get_event, get_module, get_function
//   2. pointers           require_pointer (outputs and inputs that must not be NULL)
//   3. sizes, flags and indices   require_size, require_zero_flags, require_index
//   4. ranges             require_device_range (memory inside one allocation of the device)
//   5. consistency        require_same_device (objects of one device), then backend-specific
// State the API defines (an event never recorded, a module's functions) is kept in the shim's
// objects (shim/core/objects.h), not decided by each backend.
#pragma once

#include <cstddef>
#include <cstring>

#include "shim/core/error.h"
#include "shim/core/fork_guard.h"
#include "shim/core/objects.h"
#include "shim/core/registry.h"

// The entry of every call that reaches a device or a handle. In a forked child it refuses at
// once, before any handle table, reference count or lock is touched: the parent's threads that
// held them at the fork were not copied, so waiting on them would never end (fork_guard.h).
#define AG_DEVICE_ENTRY() \
  AG_ENTRY();             \
  if (ag_result fork_refusal_ = ::anygpu::refuse_in_forked_child()) return fork_refusal_

namespace anygpu {

// Devices live until exit. Every other object is held by the reference for the rest of the call, so
// that a destroy on another thread waits for it (handle_table.h).
ag_result get_device(ag_device handle, Device** device);
ag_result get_stream(ag_stream handle, StreamRef* stream);
ag_result get_event(ag_event handle, EventRef* event);
ag_result get_module(ag_module handle, ModuleRef* module);
ag_result get_function(ag_function handle, FunctionRef* function);
ag_result get_mem_pool(ag_mem_pool handle, MemPoolRef* pool);
ag_result get_program(ag_program handle, ProgramRef* program);

// `pointer` (named `what` in the detail) must be non-null.
ag_result require_pointer(const void* pointer, const char* what);
// A size in bytes: non-zero.
ag_result require_size(size_t bytes);
// Flags that no value is defined for yet: 0.
ag_result require_zero_flags(unsigned flags);
// `index` (named `what`) in [0, count); `error` otherwise.
ag_result require_index(int index, size_t count, const char* what,
                        ag_result error = AG_ERROR_INVALID_VALUE);
// [pointer, pointer + bytes) must lie inside one allocation of `device`.
ag_result require_device_range(const Device& device, const void* pointer, size_t bytes,
                               const char* what);
// The device whose device memory (an allocation, managed or not, or a module variable) `pointer`
// is in, or nullptr: host memory, pinned or not (api_memory.cpp).
Device* device_memory_owner(const void* pointer);
// agMemFree of a stream-ordered allocation, the device synchronised (api_memory_async.cpp).
ag_result free_stream_ordered_now(Device& device, void* pointer);
// agMemcpy's direction and device, from where dst and src are (api_memory.cpp). Where they are
// memory of two devices, `src_device` (if not nullptr) receives the source's device and `device`
// the destination's; with nullptr that is refused.
ag_result infer_copy(void* dst, const void* src, Device** device, CopyKind* kind,
                     Device** src_device = nullptr);
// agMemcpyPeer once the handles and pointers are checked: `bytes` from `src_dev`'s memory to
// `dst_dev`'s, on `stream` (a stream of either device) or, with nullptr, synchronous
// (api_memory_peer.cpp).
ag_result copy_peer_checked(Device& dst_dev, void* dst, Device& src_dev, const void* src,
                            size_t bytes, const Stream* stream);
// agModuleLoadData once the arguments are checked (api_module.cpp).
ag_result load_module(Device* device, const void* image, size_t bytes, ag_module* module);
// `a` and `b` (named `what`) belong to the same device.
ag_result require_same_device(const Device* a, const Device* b, const char* what);

// The size of a versioned struct's first version, frozen: a caller built against any version
// since stays accepted as the struct grows (fields are only ever appended).
template <typename T>
constexpr size_t first_version_size() {
  return sizeof(T);
}
template <>
constexpr size_t first_version_size<ag_backend_info>() {
  return offsetof(ag_backend_info, label);
}
template <>
constexpr size_t first_version_size<ag_device_properties>() {
  return offsetof(ag_device_properties, compute_capability_major);
}

// A versioned struct the caller passes: non-null, and at least its first version's size.
template <typename T>
ag_result require_versioned(const T* out, const char* what) {
  if (AG_SUCCESS != require_pointer(out, what)) return AG_ERROR_INVALID_VALUE;
  if (out->struct_size < first_version_size<T>())
    return fail(AG_ERROR_INVALID_VALUE,
                "%s->struct_size is %zu, smaller than any version of the struct (%zu); set it to "
                "sizeof (%zu)",
                what, out->struct_size, first_version_size<T>(), sizeof(T));
  return AG_SUCCESS;
}

// Copies a versioned struct out: the fields `out->struct_size` covers, up to sizeof(T); a size
// below the first version is refused. The caller's struct_size is kept.
template <typename T>
ag_result write_versioned(T* out, const T& value, const char* what) {
  if (ag_result r = require_versioned(out, what)) return r;
  const size_t caller_size = out->struct_size;
  memcpy(out, &value, caller_size < sizeof(T) ? caller_size : sizeof(T));
  out->struct_size = caller_size;
  return AG_SUCCESS;
}

}  // namespace anygpu
