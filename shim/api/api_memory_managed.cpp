// Hints on managed memory: prefetch and advice. agMemAllocManaged is with the other allocations
// (api_memory.cpp).
#include "shim/api/api_common.h"

using namespace anygpu;

namespace {

// [pointer, pointer + bytes) inside one managed allocation: its device in `owner`.
ag_result require_managed_range(const void* pointer, size_t bytes, Device** owner) {
  if (ag_result r = require_pointer(pointer, "pointer")) return r;
  if (ag_result r = require_size(bytes)) return r;
  Device* dev = device_memory_owner(pointer);
  // Explicit returns: the analyzer cannot see that fail() returns its (non-zero) code.
  if (!dev || !dev->allocations.contains(pointer, bytes, AllocationKind::managed)) {
    fail(AG_ERROR_INVALID_ADDRESS,
         "[%p, +%zu bytes) is not inside one allocation of agMemAllocManaged", pointer, bytes);
    return AG_ERROR_INVALID_ADDRESS;
  }
  *owner = dev;
  return AG_SUCCESS;
}

// `device` names where the pages go or who uses them: the allocation's device, or NULL (the host).
ag_result require_host_or_owner(ag_device device, const Device& owner, const char* what) {
  if (!device) return AG_SUCCESS;
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (dev != &owner)
    return fail(AG_ERROR_INVALID_VALUE,
                "%s is device %d, but the memory is device %d's; pass that device or NULL (the "
                "host)",
                what, dev->ordinal, owner.ordinal);
  return AG_SUCCESS;
}

}  // namespace

extern "C" {

ag_result agMemPrefetchAsync(const void* pointer, size_t bytes, ag_device destination,
                             ag_stream stream) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  Device* owner = nullptr;
  if (ag_result r = require_managed_range(pointer, bytes, &owner)) return r;
  if (ag_result r = require_host_or_owner(destination, *owner, "destination")) return r;
  if (ag_result r = require_same_device(s->device, owner, "the stream and the memory")) return r;
  return owner->impl->prefetch(pointer, bytes, destination == nullptr, s->native);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemAdvise(const void* pointer, size_t bytes, ag_mem_advice advice,
                      ag_device device) try {
  AG_DEVICE_ENTRY();
  Device* owner = nullptr;
  if (ag_result r = require_managed_range(pointer, bytes, &owner)) return r;
  if (advice < AG_MEM_ADVISE_SET_READ_MOSTLY || advice > AG_MEM_ADVISE_UNSET_ACCESSED_BY)
    return fail(AG_ERROR_INVALID_VALUE,
                "advice %d is none of AG_MEM_ADVISE_* (1 SET_READ_MOSTLY to 6 UNSET_ACCESSED_BY)",
                static_cast<int>(advice));
  if (ag_result r = require_host_or_owner(device, *owner, "device")) return r;
  return owner->impl->advise(pointer, bytes, advice, device == nullptr);
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
