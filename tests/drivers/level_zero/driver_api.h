// The Level Zero entry points the driver implements, which driver_tables.cpp hands the loader.
#pragma once

#include <cstddef>
#include <cstdint>

#include "driver_state.h"

namespace anygpu::level_zero_test_driver {

// The device's limits: reported by zeDeviceGetComputeProperties, enforced on kernels and launches.
constexpr uint32_t kMaxGroupSize = 1024;
constexpr uint32_t kMaxGroupSizeDim[3] = {1024, 1024, 64};
constexpr uint32_t kMaxGroupCount[3] = {2147483647u, 65535, 65535};
constexpr uint32_t kSharedLocalMemory = 65536;

// What zeDriverGetProperties fills in: the start of ze_driver_properties_t.
struct DriverProperties {
  ze_structure_type_t stype;
  void* pNext;
  uint8_t uuid[16];
  uint32_t driverVersion;
};

// Global, driver, device and context (driver_device.cpp).
ze_result_t zeInit(uint32_t flags);
ze_result_t zeDriverGet(uint32_t* count, ze_driver_handle_t* drivers);
ze_result_t zeDriverGetApiVersion(ze_driver_handle_t driver, uint32_t* version);
ze_result_t zeDriverGetProperties(ze_driver_handle_t driver, DriverProperties* properties);
ze_result_t zeDeviceGet(ze_driver_handle_t driver, uint32_t* count, ze_device_handle_t* devices);
ze_result_t zeDeviceGetProperties(ze_device_handle_t device, ze_device_properties_t* p);
ze_result_t zeDeviceGetComputeProperties(ze_device_handle_t device,
                                         ze_device_compute_properties_t* p);
ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t device, uint32_t* count,
                                        ze_device_memory_properties_t* p);
ze_result_t zeContextCreate(ze_driver_handle_t driver, const ze_context_desc_t* desc,
                            ze_context_handle_t* context);
ze_result_t zeContextDestroy(ze_context_handle_t context);

// Memory (driver_memory.cpp).
ze_result_t zeMemAllocDevice(ze_context_handle_t context, const ze_device_mem_alloc_desc_t* desc,
                             size_t size, size_t alignment, ze_device_handle_t device,
                             void** pointer);
ze_result_t zeMemAllocHost(ze_context_handle_t context, const ze_host_mem_alloc_desc_t* desc,
                           size_t size, size_t alignment, void** pointer);
ze_result_t zeMemFree(ze_context_handle_t context, void* pointer);

// Immediate command lists (driver_command_lists.cpp).
ze_result_t zeCommandListCreateImmediate(ze_context_handle_t context, ze_device_handle_t device,
                                         const ze_command_queue_desc_t* desc,
                                         ze_command_list_handle_t* list);
ze_result_t zeCommandListDestroy(ze_command_list_handle_t list);
ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t list, void* dst, const void* src,
                                          size_t size, ze_event_handle_t signal,
                                          uint32_t wait_count, ze_event_handle_t* waits);
ze_result_t zeCommandListAppendMemoryFill(ze_command_list_handle_t list, void* pointer,
                                          const void* pattern, size_t pattern_size, size_t size,
                                          ze_event_handle_t signal, uint32_t wait_count,
                                          ze_event_handle_t* waits);
ze_result_t zeCommandListAppendBarrier(ze_command_list_handle_t list, ze_event_handle_t signal,
                                       uint32_t wait_count, ze_event_handle_t* waits);
ze_result_t zeCommandListAppendSignalEvent(ze_command_list_handle_t list, ze_event_handle_t event);
ze_result_t zeCommandListAppendWaitOnEvents(ze_command_list_handle_t list, uint32_t count,
                                            ze_event_handle_t* events);
ze_result_t zeCommandListAppendEventReset(ze_command_list_handle_t list, ze_event_handle_t event);

// Events (driver_events.cpp).
ze_result_t zeEventPoolCreate(ze_context_handle_t context, const ze_event_pool_desc_t* desc,
                              uint32_t device_count, ze_device_handle_t* devices,
                              ze_event_pool_handle_t* pool);
ze_result_t zeEventPoolDestroy(ze_event_pool_handle_t pool);
ze_result_t zeEventCreate(ze_event_pool_handle_t pool, const ze_event_desc_t* desc,
                          ze_event_handle_t* event);
ze_result_t zeEventDestroy(ze_event_handle_t event);
ze_result_t zeEventHostSynchronize(ze_event_handle_t event, uint64_t timeout);
ze_result_t zeEventQueryStatus(ze_event_handle_t event);
ze_result_t zeEventHostReset(ze_event_handle_t event);
ze_result_t zeEventHostSignal(ze_event_handle_t event);
ze_result_t zeEventQueryKernelTimestamp(ze_event_handle_t event,
                                        ze_kernel_timestamp_result_t* result);

// Modules and kernels (driver_modules_kernels.cpp).
ze_result_t zeModuleCreate(ze_context_handle_t context, ze_device_handle_t device,
                           const ze_module_desc_t* desc, ze_module_handle_t* module,
                           ze_module_build_log_handle_t* log);
ze_result_t zeModuleDestroy(ze_module_handle_t module);
ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t log, size_t* size, char* text);
ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t log);
ze_result_t zeKernelCreate(ze_module_handle_t module, const ze_kernel_desc_t* desc,
                           ze_kernel_handle_t* kernel);
ze_result_t zeKernelDestroy(ze_kernel_handle_t kernel);
ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t kernel, uint32_t x, uint32_t y, uint32_t z);
ze_result_t zeKernelSetArgumentValue(ze_kernel_handle_t kernel, uint32_t index, size_t size,
                                     const void* value);

// Launches (driver_launch.cpp).
ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t list,
                                            ze_kernel_handle_t kernel,
                                            const ze_group_count_t* groups,
                                            ze_event_handle_t signal, uint32_t wait_count,
                                            ze_event_handle_t* waits);

}  // namespace anygpu::level_zero_test_driver
