// Device, shared and host allocations: all host memory of the CPU backend, each kept with its
// kind and device (zeMemGetAllocProperties tells them apart, and zeMemFree frees each its way).
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

#include "driver_api.h"
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

namespace {

struct Allocation {
  size_t size = 0;
  uint32_t type = ZE_MEMORY_TYPE_UNKNOWN;  // ZE_MEMORY_TYPE_*
  ze_device_handle_t device = nullptr;     // none for host memory
  uint64_t id = 0;                         // unique among the driver's allocations
};
struct Allocations {
  std::mutex mutex;
  std::map<uintptr_t, Allocation> at;  // by first byte, to find the one a pointer is in
  uint64_t next_id = 1;
};
Allocations& allocations() {
  static Allocations* const table = new Allocations;
  return *table;
}

ze_result_t allocate(ze_context_handle_t context, size_t size, size_t alignment, uint32_t type,
                     ze_device_handle_t device, void** pointer) {
  if (!as<Context>(context, Kind::context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (alignment & (alignment - 1)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  const bool host = type == ZE_MEMORY_TYPE_HOST;
  void* allocated = nullptr;
  const ag_result r = host ? cpu().host_alloc(size, &allocated) : cpu().mem_alloc(size, &allocated);
  if (r != AG_SUCCESS)
    return host ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  if (alignment && reinterpret_cast<uintptr_t>(allocated) % alignment) {
    host ? cpu().host_free(allocated) : cpu().mem_free(allocated);
    return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  }
  {
    std::lock_guard<std::mutex> lock(allocations().mutex);
    allocations().at[reinterpret_cast<uintptr_t>(allocated)] = {size, type, device,
                                                                allocations().next_id++};
  }
  calls().live.fetch_add(1);
  *pointer = allocated;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

ze_result_t zeMemAllocDevice(ze_context_handle_t context, const ze_device_mem_alloc_desc_t* desc,
                             size_t size, size_t alignment, ze_device_handle_t device,
                             void** pointer) {
  DRIVER_ENTRY(zeMemAllocDevice);
  if (!is_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(context, size, alignment, ZE_MEMORY_TYPE_DEVICE, device, pointer);
}

// Shared memory is host memory here, as device memory is: freed as device memory. Without a
// device it is the context's, of no device.
ze_result_t zeMemAllocShared(ze_context_handle_t context,
                             const ze_device_mem_alloc_desc_t* device_desc,
                             const ze_host_mem_alloc_desc_t* host_desc, size_t size,
                             size_t alignment, ze_device_handle_t device, void** pointer) {
  DRIVER_ENTRY(zeMemAllocShared);
  if (device && !is_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!device_desc || !host_desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(context, size, alignment, ZE_MEMORY_TYPE_SHARED, device, pointer);
}

ze_result_t zeMemAllocHost(ze_context_handle_t context, const ze_host_mem_alloc_desc_t* desc,
                           size_t size, size_t alignment, void** pointer) {
  DRIVER_ENTRY(zeMemAllocHost);
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(context, size, alignment, ZE_MEMORY_TYPE_HOST, nullptr, pointer);
}

ze_result_t zeMemFree(ze_context_handle_t context, void* pointer) {
  DRIVER_ENTRY(zeMemFree);
  if (!as<Context>(context, Kind::context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  bool host = false;
  {
    std::lock_guard<std::mutex> lock(allocations().mutex);
    auto found = allocations().at.find(reinterpret_cast<uintptr_t>(pointer));
    if (found == allocations().at.end()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    host = found->second.type == ZE_MEMORY_TYPE_HOST;
    allocations().at.erase(found);
  }
  calls().live.fetch_sub(1);
  return from_ag(host ? cpu().host_free(pointer) : cpu().mem_free(pointer));
}

// The allocation `pointer` is in (anywhere in it, as a real driver answers): its kind, id and
// device (none for host memory). A pointer in none of them is of an unknown type, and no device.
ze_result_t zeMemGetAllocProperties(ze_context_handle_t context, const void* pointer,
                                    ze_memory_allocation_properties_t* properties,
                                    ze_device_handle_t* device) {
  DRIVER_ENTRY(zeMemGetAllocProperties);
  if (!as<Context>(context, Kind::context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer || !properties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Allocation found;
  {
    std::lock_guard<std::mutex> lock(allocations().mutex);
    const auto address = reinterpret_cast<uintptr_t>(pointer);
    auto after = allocations().at.upper_bound(address);
    if (after != allocations().at.begin()) {
      const auto& [start, allocation] = *std::prev(after);
      if (address - start < allocation.size) found = allocation;
    }
  }
  properties->type = found.type;
  properties->id = found.id;
  properties->pageSize = found.type == ZE_MEMORY_TYPE_UNKNOWN ? 0 : 4096;
  if (device) *device = found.device;
  return ZE_RESULT_SUCCESS;
}

}  // namespace anygpu::level_zero_test_driver
