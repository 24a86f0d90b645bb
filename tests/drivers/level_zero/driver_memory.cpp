// Device and host allocations: both host memory of the CPU backend, told apart when freed.
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "driver_api.h"
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

namespace {

struct Allocations {
  std::mutex mutex;
  std::unordered_map<void*, bool> host;  // pointer -> host allocation
};
Allocations& allocations() {
  static Allocations* const table = new Allocations;
  return *table;
}

ze_result_t allocate(ze_context_handle_t context, size_t size, size_t alignment, bool host,
                     void** pointer) {
  if (!as<Context>(context, Kind::context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (size == 0) return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (alignment & (alignment - 1)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
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
    allocations().host[allocated] = host;
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
  return allocate(context, size, alignment, false, pointer);
}

// Shared memory is host memory here, as device memory is: one kind, freed as device memory.
ze_result_t zeMemAllocShared(ze_context_handle_t context,
                             const ze_device_mem_alloc_desc_t* device_desc,
                             const ze_host_mem_alloc_desc_t* host_desc, size_t size,
                             size_t alignment, ze_device_handle_t device, void** pointer) {
  DRIVER_ENTRY(zeMemAllocShared);
  if (device && !is_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!device_desc || !host_desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(context, size, alignment, false, pointer);
}

ze_result_t zeMemAllocHost(ze_context_handle_t context, const ze_host_mem_alloc_desc_t* desc,
                           size_t size, size_t alignment, void** pointer) {
  DRIVER_ENTRY(zeMemAllocHost);
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(context, size, alignment, true, pointer);
}

ze_result_t zeMemFree(ze_context_handle_t context, void* pointer) {
  DRIVER_ENTRY(zeMemFree);
  if (!as<Context>(context, Kind::context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!pointer) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  bool host = false;
  {
    std::lock_guard<std::mutex> lock(allocations().mutex);
    auto found = allocations().host.find(pointer);
    if (found == allocations().host.end()) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    host = found->second;
    allocations().host.erase(found);
  }
  calls().live.fetch_sub(1);
  return from_ag(host ? cpu().host_free(pointer) : cpu().mem_free(pointer));
}

}  // namespace anygpu::level_zero_test_driver
