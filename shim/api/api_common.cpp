#include "shim/api/api_common.h"

#include <utility>

#include "shim/core/host_function_guard.h"

namespace anygpu {

ag_result get_device(ag_device handle, Device** device) {
  Device* found = find_device(handle);
  if (!found)
    return fail(AG_ERROR_INVALID_HANDLE, "device handle %p is not a device", (void*)handle);
  *device = found;
  return AG_SUCCESS;
}

ag_result get_stream(ag_stream handle, StreamRef* stream) {
  StreamRef found = handles().streams.acquire(handle);
  if (!found)
    return fail(AG_ERROR_INVALID_HANDLE, "stream handle %p is null, destroyed or not a stream",
                (void*)handle);
  if (ag_result r = refuse_own_stream_in_host_function(*found)) return r;
  *stream = std::move(found);
  return AG_SUCCESS;
}

ag_result get_mem_pool(ag_mem_pool handle, MemPoolRef* pool) {
  MemPoolRef found = handles().mem_pools.acquire(handle);
  if (!found)
    return fail(AG_ERROR_INVALID_HANDLE,
                "memory pool handle %p is null, destroyed or not a memory pool", (void*)handle);
  *pool = std::move(found);
  return AG_SUCCESS;
}

ag_result get_program(ag_program handle, ProgramRef* program) {
  ProgramRef found = handles().programs.acquire(handle);
  if (!found)
    return fail(AG_ERROR_INVALID_HANDLE, "program handle %p is null, destroyed or not a program",
                (void*)handle);
  *program = std::move(found);
  return AG_SUCCESS;
}

ag_result get_event(ag_event handle, EventRef* event) {
  EventRef found = handles().events.acquire(handle);
  if (!found)
    return fail(AG_ERROR_INVALID_HANDLE, "event handle %p is null, destroyed or not an event",
                (void*)handle);
  *event = std::move(found);
  return AG_SUCCESS;
}

ag_result get_module(ag_module handle, ModuleRef* module) {
  ModuleRef found = handles().modules.acquire(handle);
  if (!found)
    return fail(AG_ERROR_INVALID_HANDLE, "module handle %p is null, unloaded or not a module",
                (void*)handle);
  *module = std::move(found);
  return AG_SUCCESS;
}

ag_result get_function(ag_function handle, FunctionRef* function) {
  FunctionRef found = handles().functions.acquire(handle);
  if (!found)
    return fail(AG_ERROR_INVALID_HANDLE,
                "function handle %p is null, from an unloaded module or not a function",
                (void*)handle);
  *function = std::move(found);
  return AG_SUCCESS;
}

ag_result require_pointer(const void* pointer, const char* what) {
  if (!pointer) return fail(AG_ERROR_INVALID_VALUE, "%s is NULL", what);
  return AG_SUCCESS;
}

ag_result require_size(size_t bytes) {
  if (bytes == 0) return fail(AG_ERROR_INVALID_VALUE, "size is 0 bytes");
  return AG_SUCCESS;
}

ag_result require_same_device(const Device* a, const Device* b, const char* what) {
  if (a != b)
    return fail(AG_ERROR_INVALID_VALUE, "%s belong to different devices (%d and %d)", what,
                a->ordinal, b->ordinal);
  return AG_SUCCESS;
}

ag_result require_zero_flags(unsigned flags) {
  if (flags != 0) return fail(AG_ERROR_INVALID_VALUE, "flags is %u; it must be 0", flags);
  return AG_SUCCESS;
}

ag_result require_index(int index, size_t count, const char* what, ag_result error) {
  if (index < 0 || static_cast<size_t>(index) >= count)
    return fail(error, "%s %d is out of range [0, %zu)", what, index, count);
  return AG_SUCCESS;
}

ag_result require_device_range(const Device& device, const void* pointer, size_t bytes,
                               const char* what) {
  if (!pointer) return fail(AG_ERROR_INVALID_VALUE, "%s is NULL", what);
  if (!device.allocations.contains(pointer, bytes))
    return fail(AG_ERROR_INVALID_ADDRESS,
                "%s [%p, +%zu bytes) is not inside an allocation of device %d", what, pointer,
                bytes, device.ordinal);
  return AG_SUCCESS;
}

}  // namespace anygpu
