// Stream-ordered allocation and memory pools (shim/core/mem_pool.h).
#include <memory>

#include "shim/api/api_common.h"
#include "shim/core/host_function_guard.h"

using namespace anygpu;

namespace {

// The device's default pool, made on first use; its handle and object live as long as the device.
ag_result default_pool(Device& dev, ag_mem_pool* handle, MemPool** object = nullptr) {
  std::lock_guard<std::mutex> lock(dev.pools_mutex);
  if (!dev.default_pool) {
    std::unique_ptr<MemPool> pool;
    if (ag_result r = MemPool::create(dev, UINT64_MAX, true, &pool)) return r;
    void* inserted = handles().mem_pools.insert(pool.get());
    if (!inserted) return fail(AG_ERROR_OUT_OF_MEMORY, "too many memory pools");
    dev.pools.push_back(pool.get());
    dev.default_pool = static_cast<ag_mem_pool>(inserted);
    dev.default_pool_object.store(pool.release(), std::memory_order_release);
  }
  *handle = dev.default_pool;
  if (object) *object = dev.default_pool_object.load(std::memory_order_relaxed);
  return AG_SUCCESS;
}

ag_result allocate_from(MemPool& pool, const Stream& stream, size_t bytes, void** pointer) {
  Device& dev = pool.device();
  if (ag_result r = require_size(bytes)) return r;
  if (bytes > dev.properties.total_memory)
    return fail(AG_ERROR_OUT_OF_MEMORY, "%zu bytes exceed the device's %llu bytes of memory", bytes,
                (unsigned long long)dev.properties.total_memory);
  void* allocated = nullptr;
  size_t block = 0;
  if (ag_result r = pool.allocate(bytes, stream, &allocated, &block)) {
    if (r == AG_ERROR_INVALID_HANDLE)
      return fail(r, "the memory pool is being destroyed (agMemPoolDestroy) on another thread");
    return r;
  }
  try {
    dev.allocations.add(allocated, bytes, AllocationKind::stream_ordered, {&pool, block});
  } catch (...) {  // not recorded: the block goes back to the pool, unused
    (void)pool.free_now(allocated, block);
    throw;
  }
  *pointer = allocated;
  return AG_SUCCESS;
}

ag_result pool_properties(const ag_mem_pool_props* props, uint64_t* threshold) {
  *threshold = UINT64_MAX;
  if (!props) return AG_SUCCESS;
  if (props->struct_size < sizeof(ag_mem_pool_props))
    return fail(AG_ERROR_INVALID_VALUE,
                "props->struct_size is %zu, smaller than any version of the struct; set it to "
                "sizeof (%zu)",
                props->struct_size, sizeof(ag_mem_pool_props));
  *threshold = props->release_threshold;
  return AG_SUCCESS;
}

}  // namespace

namespace anygpu {

// agMemFree of a stream-ordered allocation: the device is idle, the block goes back at once.
ag_result free_stream_ordered_now(Device& dev, void* pointer) {
  AllocationOwner owner;
  if (!dev.allocations.change_kind(pointer, AllocationKind::stream_ordered,
                                   AllocationKind::pool_kept, nullptr, &owner))
    return fail(AG_ERROR_INVALID_ADDRESS, "%p was freed by another thread meanwhile", pointer);
  return static_cast<MemPool*>(owner.object)->free_now(pointer, owner.bytes);
}

}  // namespace anygpu

extern "C" {

ag_result agMemAllocAsync(void** pointer, size_t bytes, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = require_pointer(pointer, "pointer")) return r;
  if (ag_result r = require_size(bytes)) return r;
  MemPool* pool = s->device->default_pool_object.load(std::memory_order_acquire);
  if (!pool) {
    ag_mem_pool handle = nullptr;
    if (ag_result r = default_pool(*s->device, &handle, &pool)) return r;
  }
  return allocate_from(*pool, *s, bytes, pointer);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemAllocFromPoolAsync(void** pointer, size_t bytes, ag_mem_pool pool,
                                  ag_stream stream) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  MemPoolRef p;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = get_mem_pool(pool, &p)) return r;
  if (ag_result r = require_pointer(pointer, "pointer")) return r;
  if (ag_result r = require_size(bytes)) return r;
  if (ag_result r = require_same_device(s->device, &p->device(), "the stream and the pool"))
    return r;
  return allocate_from(*p, *s, bytes, pointer);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemFreeAsync(void* pointer, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = require_pointer(pointer, "pointer")) return r;
  Device& dev = *s->device;
  AllocationOwner owner;  // the tracker knows whose it is
  if (!dev.allocations.change_kind(pointer, AllocationKind::stream_ordered,
                                   AllocationKind::pool_kept, nullptr, &owner))
    return fail(AG_ERROR_INVALID_ADDRESS,
                "%p is not a live allocation of agMemAllocAsync or agMemAllocFromPoolAsync on "
                "device %d (freed already, of another device, or from another call)",
                pointer, dev.ordinal);
  return static_cast<MemPool*>(owner.object)->free_async(pointer, owner.bytes, *s);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemPoolCreate(ag_device device, const ag_mem_pool_props* props, ag_mem_pool* pool) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(pool, "pool")) return r;
  uint64_t threshold = 0;
  if (ag_result r = pool_properties(props, &threshold)) return r;
  std::unique_ptr<MemPool> created;
  if (ag_result r = MemPool::create(*dev, threshold, false, &created)) return r;
  std::lock_guard<std::mutex> lock(dev->pools_mutex);
  void* handle = handles().mem_pools.insert(created.get());
  if (!handle) return fail(AG_ERROR_OUT_OF_MEMORY, "too many memory pools");
  dev->pools.push_back(created.release());
  *pool = static_cast<ag_mem_pool>(handle);
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agMemPoolDestroy(ag_mem_pool pool) try {
  AG_DEVICE_ENTRY();
  Device* dev = nullptr;
  {  // checked under a reference, which must go before the remove
    MemPoolRef p;
    if (ag_result r = get_mem_pool(pool, &p)) return r;
    if (p->is_default())
      return fail(AG_ERROR_INVALID_VALUE, "a device's default pool is not destroyed");
    dev = &p->device();
    if (ag_result r = refuse_wait_in_host_function(*dev)) return r;
    // Closed at once if no allocation is live: from then on the pool hands nothing out.
    if (!p->close())
      return fail(AG_ERROR_INVALID_VALUE,
                  "the pool has allocations not freed; agMemFreeAsync them first");
  }
  MemPool* removed = handles().mem_pools.remove(pool);
  if (!removed) {
    MemPoolRef none;
    return get_mem_pool(pool, &none);  // records the detail
  }
  {  // while it is listed, a stream's destroy still tells it; once let go, none is named
    std::lock_guard<std::mutex> lock(dev->pools_mutex);
    removed->settle();
    for (auto it = dev->pools.begin(); it != dev->pools.end(); ++it)
      if (*it == removed) {
        dev->pools.erase(it);
        break;
      }
  }
  delete removed;  // waits for the pending frees, then gives the blocks back
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agDeviceGetDefaultMemPool(ag_device device, ag_mem_pool* pool) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(pool, "pool")) return r;
  return default_pool(*dev, pool);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemPoolTrimTo(ag_mem_pool pool, size_t min_bytes_to_keep) try {
  AG_DEVICE_ENTRY();
  MemPoolRef p;
  if (ag_result r = get_mem_pool(pool, &p)) return r;
  return p->trim_to(min_bytes_to_keep);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemPoolSetReleaseThreshold(ag_mem_pool pool, uint64_t bytes) try {
  AG_DEVICE_ENTRY();
  MemPoolRef p;
  if (ag_result r = get_mem_pool(pool, &p)) return r;
  return p->set_release_threshold(bytes);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemPoolGetUsage(ag_mem_pool pool, uint64_t* used, uint64_t* reserved) try {
  AG_DEVICE_ENTRY();
  MemPoolRef p;
  if (ag_result r = get_mem_pool(pool, &p)) return r;
  return p->usage(used, reserved);
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
