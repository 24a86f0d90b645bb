// zeInit, the driver and its devices (their queries), and contexts.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "driver_api.h"
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

ze_result_t zeInit(uint32_t flags) {
  DRIVER_ENTRY(zeInit);
  if (flags & ~uint32_t{0x3}) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (flags == ZE_INIT_FLAG_VPU_ONLY) return ZE_RESULT_ERROR_UNINITIALIZED;  // a GPU, not a VPU
  cpu();
  reference_event();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGet(uint32_t* count, ze_driver_handle_t* drivers) {
  DRIVER_ENTRY(zeDriverGet);
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*count == 0 || !drivers) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  drivers[0] = reinterpret_cast<ze_driver_handle_t>(&the_driver);
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetApiVersion(ze_driver_handle_t driver, uint32_t* version) {
  DRIVER_ENTRY(zeDriverGetApiVersion);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = (1u << 16) | 5u;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetProperties(ze_driver_handle_t driver, ze_driver_properties_t* properties) {
  DRIVER_ENTRY(zeDriverGetProperties);
  if (!driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!properties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  memset(properties->uuid, 0xa9, sizeof properties->uuid);
  properties->driverVersion = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGet(ze_driver_handle_t driver, uint32_t* count, ze_device_handle_t* devices) {
  DRIVER_ENTRY(zeDeviceGet);
  if (reinterpret_cast<Driver*>(driver) != &the_driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // As the specification says: *count 0 asks how many; else at most *count are written, and
  // *count becomes how many were.
  const uint32_t total = device_count();
  if (*count == 0 || !devices) {
    *count = total;
    return ZE_RESULT_SUCCESS;
  }
  if (*count > total) *count = total;
  for (uint32_t i = 0; i < *count; ++i) devices[i] = device_handle(i);
  return ZE_RESULT_SUCCESS;
}

// Devices of one model (one deviceId), as two of one GPU are, told apart by their uuids and names.
ze_result_t zeDeviceGetProperties(ze_device_handle_t device, ze_device_properties_t* p) {
  DRIVER_ENTRY(zeDeviceGetProperties);
  const Device* d = as_device(device);
  if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  void* next = p->pNext;
  const ze_structure_type_t stype = p->stype;
  memset(p, 0, sizeof *p);
  p->stype = stype;
  p->pNext = next;
  p->type = ZE_DEVICE_TYPE_GPU;
  p->vendorId = 0x8086;
  p->deviceId = 0x0a90;  // made up: no Intel GPU has it
  p->coreClockRate = 1000;
  p->maxMemAllocSize = uint64_t{4} << 30;
  p->maxHardwareContexts = 64;
  p->numThreadsPerEU = 8;
  p->physicalEUSimdWidth = 8;
  p->numEUsPerSubslice = 8;
  p->numSubslicesPerSlice = 2;
  p->numSlices = 1;
  p->timerResolution = 1;  // ns
  p->timestampValidBits = 64;
  p->kernelTimestampValidBits = 64;
  // "anygpu L0 " and the index, in the uuid's bytes: unique to the device.
  memcpy(p->uuid, "anygpu L0 ", 10);
  p->uuid[10] = static_cast<uint8_t>(d->index);
  snprintf(p->name, sizeof p->name, "anygpu Level Zero test device %u", d->index);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetComputeProperties(ze_device_handle_t device,
                                         ze_device_compute_properties_t* p) {
  DRIVER_ENTRY(zeDeviceGetComputeProperties);
  if (!is_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  p->maxTotalGroupSize = kMaxGroupSize;
  p->maxGroupSizeX = kMaxGroupSizeDim[0];
  p->maxGroupSizeY = kMaxGroupSizeDim[1];
  p->maxGroupSizeZ = kMaxGroupSizeDim[2];
  p->maxGroupCountX = kMaxGroupCount[0];
  p->maxGroupCountY = kMaxGroupCount[1];
  p->maxGroupCountZ = kMaxGroupCount[2];
  p->maxSharedLocalMemory = kSharedLocalMemory;
  const std::vector<uint32_t> sizes = subgroup_sizes();
  p->numSubGroupSizes = static_cast<uint32_t>(sizes.size());
  std::copy(sizes.begin(), sizes.end(), p->subGroupSizes);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t device, uint32_t* count,
                                        ze_device_memory_properties_t* p) {
  DRIVER_ENTRY(zeDeviceGetMemoryProperties);
  if (!is_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*count == 0 || !p) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  *count = 1;
  p->flags = 0;
  p->maxClockRate = 1000;
  p->maxBusWidth = 64;
  p->totalSize = uint64_t{8} << 30;
  snprintf(p->name, sizeof p->name, "host memory");
  return ZE_RESULT_SUCCESS;
}

// Every kind of allocation is host memory: the host and the device reach each at once.
ze_result_t zeDeviceGetMemoryAccessProperties(ze_device_handle_t device,
                                              ze_device_memory_access_properties_t* p) {
  DRIVER_ENTRY(zeDeviceGetMemoryAccessProperties);
  if (!is_device(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  constexpr uint32_t kAll = ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
                            ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT |
                            ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
  p->hostAllocCapabilities = kAll;
  p->deviceAllocCapabilities = kAll;
  p->sharedSingleDeviceAllocCapabilities = kAll;
  p->sharedCrossDeviceAllocCapabilities = 0;
  p->sharedSystemAllocCapabilities = 0;
  return ZE_RESULT_SUCCESS;
}

// All the driver's devices share host memory: each reaches every other's, and its own (Intel's
// driver answers true for a device with itself too).
ze_result_t zeDeviceCanAccessPeer(ze_device_handle_t device, ze_device_handle_t peer,
                                  ze_bool_t* value) {
  DRIVER_ENTRY(zeDeviceCanAccessPeer);
  if (!is_device(device) || !is_device(peer)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *value = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextCreate(ze_driver_handle_t driver, const ze_context_desc_t* desc,
                            ze_context_handle_t* context) {
  DRIVER_ENTRY(zeContextCreate);
  if (reinterpret_cast<Driver*>(driver) != &the_driver) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !context) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *context = reinterpret_cast<ze_context_handle_t>(static_cast<Object*>(new Context));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextDestroy(ze_context_handle_t context) {
  DRIVER_ENTRY(zeContextDestroy);
  Context* c = as<Context>(context, Kind::context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete c;
  return ZE_RESULT_SUCCESS;
}

}  // namespace anygpu::level_zero_test_driver
