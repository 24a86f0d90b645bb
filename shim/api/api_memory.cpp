// Device and pinned host memory, copies and memset, synchronous and on a stream.
#include "shim/api/api_common.h"
#include "shim/core/host_function_guard.h"

using namespace anygpu;

namespace {

ag_result allocate(ag_device device, size_t bytes, void** pointer, AllocationKind kind) {
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(pointer, "pointer")) return r;
  if (ag_result r = require_size(bytes)) return r;
  if (kind != AllocationKind::managed && bytes > dev->properties.total_memory)
    return fail(AG_ERROR_OUT_OF_MEMORY, "%zu bytes exceed the device's %llu bytes of memory", bytes,
                (unsigned long long)dev->properties.total_memory);
  void* allocated = nullptr;
  ag_result r = kind == AllocationKind::device        ? dev->impl->mem_alloc(bytes, &allocated)
                : kind == AllocationKind::pinned_host ? dev->impl->host_alloc(bytes, &allocated)
                                                      : dev->impl->managed_alloc(bytes, &allocated);
  if (r != AG_SUCCESS) return r;
  dev->allocations.add(allocated, bytes, kind);
  *pointer = allocated;
  return AG_SUCCESS;
}

ag_result release(ag_device device, void* pointer, AllocationKind kind) {
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(pointer, "pointer")) return r;
  // agMemFree frees device, managed and stream-ordered memory alike.
  if (kind == AllocationKind::device && dev->allocations.is_base(pointer, AllocationKind::managed))
    kind = AllocationKind::managed;
  if (kind == AllocationKind::device &&
      dev->allocations.is_base(pointer, AllocationKind::stream_ordered)) {
    if (ag_result r = refuse_wait_in_host_function(*dev)) return r;
    if (ag_result r = dev->impl->synchronize()) return r;  // pending work may still use it
    return free_stream_ordered_now(*dev, pointer);
  }
  const char* what =
      kind == AllocationKind::pinned_host ? "agMemAllocHost" : "agMemAlloc or agMemAllocManaged";
  if (!dev->allocations.is_base(pointer, kind))
    return fail(AG_ERROR_INVALID_ADDRESS, "%p is not an allocation made by %s on device %d",
                pointer, what, dev->ordinal);
  if (ag_result r = refuse_wait_in_host_function(*dev)) return r;
  if (ag_result r = dev->impl->synchronize()) return r;  // pending work may still use it
  size_t bytes = 0;
  if (!dev->allocations.remove(pointer, kind, &bytes))
    return fail(AG_ERROR_INVALID_ADDRESS, "%p was freed by another thread meanwhile", pointer);
  const ag_result freed = kind == AllocationKind::pinned_host ? dev->impl->host_free(pointer)
                                                              : dev->impl->mem_free(pointer);
  // A driver that refused to free still holds the memory: it stays the application's.
  if (freed != AG_SUCCESS) dev->allocations.add(pointer, bytes, kind);
  return freed;
}

ag_result check_copy(const Device& dev, CopyKind kind, void* dst, const void* src, size_t bytes) {
  if (ag_result r = require_size(bytes)) return r;
  if (kind == CopyKind::device_to_host) {
    if (ag_result r = require_pointer(dst, "dst (host)")) return r;
  } else if (ag_result r = require_device_range(dev, dst, bytes, "dst (device)")) {
    return r;
  }
  if (kind == CopyKind::host_to_device) return require_pointer(src, "src (host)");
  return require_device_range(dev, src, bytes, "src (device)");
}

ag_result copy_sync(ag_device device, CopyKind kind, void* dst, const void* src, size_t bytes) {
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = check_copy(*dev, kind, dst, src, bytes)) return r;
  return dev->impl->copy(kind, dst, src, bytes, nullptr);
}

ag_result copy_async(ag_stream stream, CopyKind kind, void* dst, const void* src, size_t bytes) {
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = check_copy(*s->device, kind, dst, src, bytes)) return r;
  return s->device->impl->copy(kind, dst, src, bytes, s->native);
}

// `count` elements of `size` bytes (1, 2 or 4): inside one allocation, aligned to the element.
ag_result check_fill(const Device& dev, void* dst, unsigned size, size_t count) {
  if (count > SIZE_MAX / size)
    return fail(AG_ERROR_INVALID_VALUE,
                "count %zu of %u-byte elements is more bytes than size_t holds", count, size);
  if (ag_result r = require_size(count * size)) return r;
  if (reinterpret_cast<uintptr_t>(dst) % size != 0)
    return fail(AG_ERROR_INVALID_VALUE,
                "dst (device) %p is not aligned to %u bytes, as a %u-bit memset needs", dst, size,
                8 * size);
  return require_device_range(dev, dst, count * size, "dst (device)");
}

ag_result fill_sync(ag_device device, void* dst, uint32_t value, unsigned size, size_t count) {
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = check_fill(*dev, dst, size, count)) return r;
  return dev->impl->fill(dst, value, size, count, nullptr);
}

ag_result fill_async(ag_stream stream, void* dst, uint32_t value, unsigned size, size_t count) {
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = check_fill(*s->device, dst, size, count)) return r;
  return s->device->impl->fill(dst, value, size, count, s->native);
}

}  // namespace

namespace anygpu {

Device* device_memory_owner(const void* pointer) {
  for (Device* dev : registry().devices) {
    AllocationKind kind;
    if (dev->allocations.kind_at(pointer, &kind) && kind != AllocationKind::pinned_host) return dev;
  }
  return nullptr;
}

// agMemcpy's direction and device, from where dst and src are.
ag_result infer_copy(void* dst, const void* src, Device** device, CopyKind* kind,
                     Device** src_device) {
  if (ag_result r = require_pointer(dst, "dst")) return r;
  if (ag_result r = require_pointer(src, "src")) return r;
  Device* to = device_memory_owner(dst);
  Device* from = device_memory_owner(src);
  // Explicit returns: the analyzer cannot see that fail() returns its (non-zero) code.
  if (!to && !from) {
    fail(AG_ERROR_INVALID_VALUE,
         "neither dst %p nor src %p is device memory anygpu allocated; copy host memory with "
         "memcpy",
         dst, src);
    return AG_ERROR_INVALID_VALUE;
  }
  if (to && from && to != from && !src_device) {
    fail(AG_ERROR_INVALID_VALUE,
         "dst is memory of device %d and src of device %d; 2-D and 3-D copies between devices "
         "are not offered: agMemcpyPeer copies linear memory between them",
         to->ordinal, from->ordinal);
    return AG_ERROR_INVALID_VALUE;
  }
  if (src_device) *src_device = from;
  *device = to ? to : from;
  *kind = to && from ? CopyKind::device_to_device
          : to       ? CopyKind::host_to_device
                     : CopyKind::device_to_host;
  return AG_SUCCESS;
}

}  // namespace anygpu

extern "C" {

ag_result agMemAlloc(ag_device device, size_t bytes, void** device_ptr) try {
  AG_DEVICE_ENTRY();
  return allocate(device, bytes, device_ptr, AllocationKind::device);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemAllocPitch(ag_device device, size_t width_bytes, size_t height, void** device_ptr,
                          size_t* pitch) try {
  AG_DEVICE_ENTRY();
  if (ag_result r = require_pointer(device_ptr, "device_ptr")) return r;
  if (ag_result r = require_pointer(pitch, "pitch")) return r;
  if (width_bytes == 0 || height == 0)
    return fail(AG_ERROR_INVALID_VALUE, "width_bytes %zu x height %zu: both must be > 0",
                width_bytes, height);
  const size_t rounded = width_bytes + (AG_PITCH_ALIGNMENT - 1);
  size_t bytes = 0;
  if (rounded < width_bytes ||
      __builtin_mul_overflow(rounded / AG_PITCH_ALIGNMENT * AG_PITCH_ALIGNMENT, height, &bytes))
    return fail(AG_ERROR_INVALID_VALUE,
                "width_bytes %zu x height %zu rows is more bytes than size_t holds", width_bytes,
                height);
  void* allocated = nullptr;
  if (ag_result r = allocate(device, bytes, &allocated, AllocationKind::device)) return r;
  *device_ptr = allocated;
  *pitch = bytes / height;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agMemFree(ag_device device, void* device_ptr) try {
  AG_DEVICE_ENTRY();
  return release(device, device_ptr, AllocationKind::device);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemAllocHost(ag_device device, size_t bytes, void** host_ptr) try {
  AG_DEVICE_ENTRY();
  return allocate(device, bytes, host_ptr, AllocationKind::pinned_host);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemAllocManaged(ag_device device, size_t bytes, unsigned int flags,
                            void** pointer) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(pointer, "pointer")) return r;
  if (ag_result r = require_size(bytes)) return r;
  if (flags != AG_MEM_ATTACH_GLOBAL)
    return fail(AG_ERROR_INVALID_VALUE, "flags 0x%x: AG_MEM_ATTACH_GLOBAL (0x1) is the one value",
                flags);
  if (!dev->properties.managed_memory)
    return fail(AG_ERROR_NOT_SUPPORTED,
                "device %d (%s) has no managed memory (its managed_memory property is 0)",
                dev->ordinal, dev->properties.name);
  return allocate(device, bytes, pointer, AllocationKind::managed);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemFreeHost(ag_device device, void* host_ptr) try {
  AG_DEVICE_ENTRY();
  return release(device, host_ptr, AllocationKind::pinned_host);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemGetInfo(ag_device device, size_t* free_bytes, size_t* total_bytes) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(free_bytes, "free_bytes")) return r;
  if (ag_result r = require_pointer(total_bytes, "total_bytes")) return r;
  size_t free_value = 0, total_value = 0;
  if (ag_result r = dev->impl->mem_info(&free_value, &total_value)) return r;
  *free_bytes = free_value;
  *total_bytes = total_value;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyHtoD(ag_device device, void* dst, const void* src, size_t bytes) try {
  AG_DEVICE_ENTRY();
  return copy_sync(device, CopyKind::host_to_device, dst, src, bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyDtoH(ag_device device, void* dst, const void* src, size_t bytes) try {
  AG_DEVICE_ENTRY();
  return copy_sync(device, CopyKind::device_to_host, dst, src, bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyDtoD(ag_device device, void* dst, const void* src, size_t bytes) try {
  AG_DEVICE_ENTRY();
  return copy_sync(device, CopyKind::device_to_device, dst, src, bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpy(void* dst, const void* src, size_t bytes) try {
  AG_DEVICE_ENTRY();
  Device* dev = nullptr;
  Device* from = nullptr;
  CopyKind kind = CopyKind::device_to_device;
  if (ag_result r = infer_copy(dst, src, &dev, &kind, &from)) return r;
  if (from && from != dev) return copy_peer_checked(*dev, dst, *from, src, bytes, nullptr);
  if (ag_result r = check_copy(*dev, kind, dst, src, bytes)) return r;
  return dev->impl->copy(kind, dst, src, bytes, nullptr);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemsetD8(ag_device device, void* dst, unsigned char value, size_t bytes) try {
  AG_DEVICE_ENTRY();
  return fill_sync(device, dst, value, 1, bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemsetD16(ag_device device, void* dst, unsigned short value, size_t count) try {
  AG_DEVICE_ENTRY();
  return fill_sync(device, dst, value, 2, count);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemsetD32(ag_device device, void* dst, unsigned int value, size_t count) try {
  AG_DEVICE_ENTRY();
  return fill_sync(device, dst, value, 4, count);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyHtoDAsync(void* dst, const void* src, size_t bytes, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return copy_async(stream, CopyKind::host_to_device, dst, src, bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyDtoHAsync(void* dst, const void* src, size_t bytes, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return copy_async(stream, CopyKind::device_to_host, dst, src, bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyDtoDAsync(void* dst, const void* src, size_t bytes, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return copy_async(stream, CopyKind::device_to_device, dst, src, bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyAsync(void* dst, const void* src, size_t bytes, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  Device* dev = nullptr;
  Device* from = nullptr;
  CopyKind kind = CopyKind::device_to_device;
  if (ag_result r = infer_copy(dst, src, &dev, &kind, &from)) return r;
  if (from && from != dev) return copy_peer_checked(*dev, dst, *from, src, bytes, s.get());
  if (dev != s->device)
    return fail(AG_ERROR_INVALID_VALUE,
                "the device memory is device %d's, the stream device %d's; copy on a stream of "
                "device %d",
                dev->ordinal, s->device->ordinal, dev->ordinal);
  if (ag_result r = check_copy(*dev, kind, dst, src, bytes)) return r;
  return dev->impl->copy(kind, dst, src, bytes, s->native);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemsetD8Async(void* dst, unsigned char value, size_t bytes, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return fill_async(stream, dst, value, 1, bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemsetD16Async(void* dst, unsigned short value, size_t count, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return fill_async(stream, dst, value, 2, count);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemsetD32Async(void* dst, unsigned int value, size_t count, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return fill_async(stream, dst, value, 4, count);
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
