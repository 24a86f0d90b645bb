// anygpu's own declarations of the Level Zero core API: types, constants, descriptor structs and
// every function anygpu declares, once. No ze_api.h: anygpu builds with no Level Zero SDK. The
// Level Zero backend and the Level Zero test driver (tests/drivers/level_zero/) both include this
// one header, and it has no anygpu dependency. Values and
// layouts are the Level Zero specification's (1.0 unless noted), stable across loader versions.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loaders/level_zero/level_zero_result_table.h"

namespace anygpu::level_zero {

typedef uint32_t ze_result_t;
typedef uint32_t ze_structure_type_t;
typedef uint32_t ze_bool_t;
typedef struct _ze_driver_handle_t* ze_driver_handle_t;
typedef struct _ze_device_handle_t* ze_device_handle_t;
typedef struct _ze_context_handle_t* ze_context_handle_t;
typedef struct _ze_command_list_handle_t* ze_command_list_handle_t;
typedef struct _ze_event_pool_handle_t* ze_event_pool_handle_t;
typedef struct _ze_event_handle_t* ze_event_handle_t;
typedef struct _ze_module_handle_t* ze_module_handle_t;
typedef struct _ze_module_build_log_handle_t* ze_module_build_log_handle_t;
typedef struct _ze_kernel_handle_t* ze_kernel_handle_t;

// Every ze_result_t, by name (level_zero_result_table.h).
#define ANYGPU_LEVEL_ZERO_RESULT_ENUMERATOR(name, value, code) name = value,
enum : ze_result_t { ANYGPU_LEVEL_ZERO_RESULTS(ANYGPU_LEVEL_ZERO_RESULT_ENUMERATOR) };
#undef ANYGPU_LEVEL_ZERO_RESULT_ENUMERATOR

enum : ze_structure_type_t {
  ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES = 0x1,
  ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES = 0x3,
  ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES = 0x4,
  ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES = 0x7,
  ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES = 0x8,
  ZE_STRUCTURE_TYPE_CONTEXT_DESC = 0xd,
  ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC = 0xe,
  ZE_STRUCTURE_TYPE_EVENT_POOL_DESC = 0x10,
  ZE_STRUCTURE_TYPE_EVENT_DESC = 0x11,
  ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC = 0x15,
  ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC = 0x16,
  ZE_STRUCTURE_TYPE_MODULE_DESC = 0x1b,
  ZE_STRUCTURE_TYPE_KERNEL_DESC = 0x1d,
  ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES = 0x1e,
};

enum : uint32_t { ZE_INIT_FLAG_GPU_ONLY = 0x1, ZE_INIT_FLAG_VPU_ONLY = 0x2 };
enum : uint32_t {
  ZE_DEVICE_TYPE_GPU = 1,
  ZE_DEVICE_TYPE_CPU = 2,
  ZE_DEVICE_TYPE_FPGA = 3,
  ZE_DEVICE_TYPE_MCA = 4,
  ZE_DEVICE_TYPE_VPU = 5,
};
// ze_command_queue_flag_t (IN_ORDER: 1.7), ze_command_queue_mode_t, ze_command_queue_priority_t.
enum : uint32_t { ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY = 0x1, ZE_COMMAND_QUEUE_FLAG_IN_ORDER = 0x2 };
enum : uint32_t {
  ZE_COMMAND_QUEUE_MODE_DEFAULT = 0,
  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS = 1,
  ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS = 2,
};
enum : uint32_t {
  ZE_COMMAND_QUEUE_PRIORITY_NORMAL = 0,
  ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW = 1,
  ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH = 2,
};
// ze_event_pool_flag_t, ze_event_scope_flag_t.
enum : uint32_t {
  ZE_EVENT_POOL_FLAG_HOST_VISIBLE = 0x1,
  ZE_EVENT_POOL_FLAG_IPC = 0x2,
  ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP = 0x4,
};
enum : uint32_t {
  ZE_EVENT_SCOPE_FLAG_SUBDEVICE = 0x1,
  ZE_EVENT_SCOPE_FLAG_DEVICE = 0x2,
  ZE_EVENT_SCOPE_FLAG_HOST = 0x4,
};
enum : uint32_t { ZE_MODULE_FORMAT_IL_SPIRV = 0, ZE_MODULE_FORMAT_NATIVE = 1 };

constexpr uint64_t kWaitForever = UINT64_MAX;
constexpr size_t kMaxDeviceName = 256;

struct ze_driver_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  uint8_t uuid[16];
  uint32_t driverVersion;
};

struct ze_device_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t type;
  uint32_t vendorId;
  uint32_t deviceId;
  uint32_t flags;
  uint32_t subdeviceId;
  uint32_t coreClockRate;
  uint64_t maxMemAllocSize;
  uint32_t maxHardwareContexts;
  uint32_t maxCommandQueuePriority;
  uint32_t numThreadsPerEU;
  uint32_t physicalEUSimdWidth;
  uint32_t numEUsPerSubslice;
  uint32_t numSubslicesPerSlice;
  uint32_t numSlices;
  uint64_t timerResolution;  // nanoseconds per tick with ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES
  uint32_t timestampValidBits;
  uint32_t kernelTimestampValidBits;
  uint8_t uuid[16];
  char name[kMaxDeviceName];
};

struct ze_device_compute_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t maxTotalGroupSize;
  uint32_t maxGroupSizeX;
  uint32_t maxGroupSizeY;
  uint32_t maxGroupSizeZ;
  uint32_t maxGroupCountX;
  uint32_t maxGroupCountY;
  uint32_t maxGroupCountZ;
  uint32_t maxSharedLocalMemory;
  uint32_t numSubGroupSizes;
  uint32_t subGroupSizes[8];
};

struct ze_device_memory_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t flags;
  uint32_t maxClockRate;
  uint32_t maxBusWidth;
  uint64_t totalSize;
  char name[kMaxDeviceName];
};

struct ze_context_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t flags;
};

// What a device can do with each kind of allocation: ze_memory_access_cap_flags_t bits.
enum : uint32_t {
  ZE_MEMORY_ACCESS_CAP_FLAG_RW = 0x1,
  ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC = 0x2,
  ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT = 0x4,
  ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC = 0x8,
};
struct ze_device_memory_access_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t hostAllocCapabilities;
  uint32_t deviceAllocCapabilities;
  uint32_t sharedSingleDeviceAllocCapabilities;
  uint32_t sharedCrossDeviceAllocCapabilities;
  uint32_t sharedSystemAllocCapabilities;
};

// ze_memory_advice_t, Level Zero 1.0's.
typedef uint32_t ze_memory_advice_t;
enum : ze_memory_advice_t {
  ZE_MEMORY_ADVICE_SET_READ_ONLY = 0,
  ZE_MEMORY_ADVICE_CLEAR_READ_ONLY = 1,
  ZE_MEMORY_ADVICE_SET_PREFERRED_LOCATION = 2,
  ZE_MEMORY_ADVICE_CLEAR_PREFERRED_LOCATION = 3,
  ZE_MEMORY_ADVICE_BIAS_UNCACHED = 7,  // the last of 1.0
};

struct ze_device_mem_alloc_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t flags;
  uint32_t ordinal;
};

struct ze_host_mem_alloc_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t flags;
};

struct ze_command_queue_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t ordinal;
  uint32_t index;
  uint32_t flags;
  uint32_t mode;
  uint32_t priority;
};

struct ze_event_pool_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t flags;
  uint32_t count;
};

struct ze_event_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t index;
  uint32_t signal;
  uint32_t wait;
};

struct ze_kernel_timestamp_data_t {
  uint64_t kernelStart;
  uint64_t kernelEnd;
};
struct ze_kernel_timestamp_result_t {
  ze_kernel_timestamp_data_t global;
  ze_kernel_timestamp_data_t context;
};

struct ze_module_constants_t;
struct ze_module_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t format;
  size_t inputSize;
  const uint8_t* pInputModule;
  const char* pBuildFlags;
  const ze_module_constants_t* pConstants;
};

struct ze_kernel_desc_t {
  ze_structure_type_t stype;
  const void* pNext;
  uint32_t flags;
  const char* pKernelName;
};

struct ze_copy_region_t {
  uint32_t originX;
  uint32_t originY;
  uint32_t originZ;
  uint32_t width;
  uint32_t height;
  uint32_t depth;
};

struct ze_kernel_uuid_t {
  uint8_t kid[16];
  uint8_t mid[16];
};

struct ze_kernel_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t numKernelArgs;
  uint32_t requiredGroupSizeX;
  uint32_t requiredGroupSizeY;
  uint32_t requiredGroupSizeZ;
  uint32_t requiredNumSubGroups;
  uint32_t requiredSubgroupSize;
  uint32_t maxSubgroupSize;
  uint32_t maxNumSubgroups;
  uint32_t localMemSize;  // bytes of shared local memory the kernel declares
  uint32_t privateMemSize;
  uint32_t spillMemSize;
  ze_kernel_uuid_t uuid;
};

struct ze_group_count_t {
  uint32_t groupCountX;
  uint32_t groupCountY;
  uint32_t groupCountZ;
};

// X(symbol, return, parameters): every function anygpu calls; all are Level Zero 1.0 core API,
// exported by every loader (Debian 12's libze1 1.8 has no zeCommandListHostSynchronize, so a
// stream is waited for through an event that a barrier signals).
#define ANYGPU_LEVEL_ZERO_REQUIRED_FUNCTIONS(X)                                                   \
  X(zeInit, ze_result_t, (uint32_t flags))                                                        \
  X(zeDriverGet, ze_result_t, (uint32_t* count, ze_driver_handle_t* drivers))                     \
  X(zeDriverGetApiVersion, ze_result_t, (ze_driver_handle_t driver, uint32_t* version))           \
  X(zeDeviceGet, ze_result_t,                                                                     \
    (ze_driver_handle_t driver, uint32_t* count, ze_device_handle_t* devices))                    \
  X(zeDeviceGetProperties, ze_result_t,                                                           \
    (ze_device_handle_t device, ze_device_properties_t * properties))                             \
  X(zeDeviceGetComputeProperties, ze_result_t,                                                    \
    (ze_device_handle_t device, ze_device_compute_properties_t * properties))                     \
  X(zeDeviceGetMemoryProperties, ze_result_t,                                                     \
    (ze_device_handle_t device, uint32_t* count, ze_device_memory_properties_t* properties))      \
  X(zeContextCreate, ze_result_t,                                                                 \
    (ze_driver_handle_t driver, const ze_context_desc_t* desc, ze_context_handle_t* context))     \
  X(zeContextDestroy, ze_result_t, (ze_context_handle_t context))                                 \
  X(zeMemAllocDevice, ze_result_t,                                                                \
    (ze_context_handle_t context, const ze_device_mem_alloc_desc_t* desc, size_t size,            \
     size_t alignment, ze_device_handle_t device, void** pointer))                                \
  X(zeMemAllocHost, ze_result_t,                                                                  \
    (ze_context_handle_t context, const ze_host_mem_alloc_desc_t* desc, size_t size,              \
     size_t alignment, void** pointer))                                                           \
  X(zeMemFree, ze_result_t, (ze_context_handle_t context, void* pointer))                         \
  X(zeMemAllocShared, ze_result_t,                                                                \
    (ze_context_handle_t context, const ze_device_mem_alloc_desc_t* device_desc,                  \
     const ze_host_mem_alloc_desc_t* host_desc, size_t size, size_t alignment,                    \
     ze_device_handle_t device, void** pointer))                                                  \
  X(zeDeviceGetMemoryAccessProperties, ze_result_t,                                               \
    (ze_device_handle_t device, ze_device_memory_access_properties_t * properties))               \
  X(zeDeviceCanAccessPeer, ze_result_t,                                                           \
    (ze_device_handle_t device, ze_device_handle_t peer, ze_bool_t * value))                      \
  X(zeCommandListAppendMemoryPrefetch, ze_result_t,                                               \
    (ze_command_list_handle_t list, const void* pointer, size_t size))                            \
  X(zeCommandListAppendMemAdvise, ze_result_t,                                                    \
    (ze_command_list_handle_t list, ze_device_handle_t device, const void* pointer, size_t size,  \
     ze_memory_advice_t advice))                                                                  \
  X(zeCommandListCreateImmediate, ze_result_t,                                                    \
    (ze_context_handle_t context, ze_device_handle_t device, const ze_command_queue_desc_t* desc, \
     ze_command_list_handle_t* list))                                                             \
  X(zeCommandListDestroy, ze_result_t, (ze_command_list_handle_t list))                           \
  X(zeCommandListAppendMemoryCopy, ze_result_t,                                                   \
    (ze_command_list_handle_t list, void* dst, const void* src, size_t size,                      \
     ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t* waits))                    \
  X(zeCommandListAppendMemoryCopyRegion, ze_result_t,                                             \
    (ze_command_list_handle_t list, void* dst, const ze_copy_region_t* dst_region,                \
     uint32_t dst_pitch, uint32_t dst_slice_pitch, const void* src,                               \
     const ze_copy_region_t* src_region, uint32_t src_pitch, uint32_t src_slice_pitch,            \
     ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t* waits))                    \
  X(zeCommandListAppendMemoryFill, ze_result_t,                                                   \
    (ze_command_list_handle_t list, void* pointer, const void* pattern, size_t pattern_size,      \
     size_t size, ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t* waits))       \
  X(zeCommandListAppendBarrier, ze_result_t,                                                      \
    (ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t wait_count,                \
     ze_event_handle_t* waits))                                                                   \
  X(zeCommandListAppendWaitOnEvents, ze_result_t,                                                 \
    (ze_command_list_handle_t list, uint32_t count, ze_event_handle_t* events))                   \
  X(zeCommandListAppendEventReset, ze_result_t,                                                   \
    (ze_command_list_handle_t list, ze_event_handle_t event))                                     \
  X(zeCommandListAppendSignalEvent, ze_result_t,                                                  \
    (ze_command_list_handle_t list, ze_event_handle_t event))                                     \
  X(zeCommandListAppendLaunchKernel, ze_result_t,                                                 \
    (ze_command_list_handle_t list, ze_kernel_handle_t kernel, const ze_group_count_t* groups,    \
     ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t* waits))                    \
  X(zeEventPoolCreate, ze_result_t,                                                               \
    (ze_context_handle_t context, const ze_event_pool_desc_t* desc, uint32_t device_count,        \
     ze_device_handle_t* devices, ze_event_pool_handle_t* pool))                                  \
  X(zeEventPoolDestroy, ze_result_t, (ze_event_pool_handle_t pool))                               \
  X(zeEventCreate, ze_result_t,                                                                   \
    (ze_event_pool_handle_t pool, const ze_event_desc_t* desc, ze_event_handle_t* event))         \
  X(zeEventDestroy, ze_result_t, (ze_event_handle_t event))                                       \
  X(zeEventHostSynchronize, ze_result_t, (ze_event_handle_t event, uint64_t timeout))             \
  X(zeEventQueryStatus, ze_result_t, (ze_event_handle_t event))                                   \
  X(zeEventHostReset, ze_result_t, (ze_event_handle_t event))                                     \
  X(zeEventHostSignal, ze_result_t, (ze_event_handle_t event))                                    \
  X(zeEventQueryKernelTimestamp, ze_result_t,                                                     \
    (ze_event_handle_t event, ze_kernel_timestamp_result_t * result))                             \
  X(zeModuleCreate, ze_result_t,                                                                  \
    (ze_context_handle_t context, ze_device_handle_t device, const ze_module_desc_t* desc,        \
     ze_module_handle_t* module, ze_module_build_log_handle_t* log))                              \
  X(zeModuleDestroy, ze_result_t, (ze_module_handle_t module))                                    \
  X(zeModuleGetGlobalPointer, ze_result_t,                                                        \
    (ze_module_handle_t module, const char* name, size_t* bytes, void** pointer))                 \
  X(zeModuleBuildLogGetString, ze_result_t,                                                       \
    (ze_module_build_log_handle_t log, size_t* size, char* text))                                 \
  X(zeModuleBuildLogDestroy, ze_result_t, (ze_module_build_log_handle_t log))                     \
  X(zeKernelCreate, ze_result_t,                                                                  \
    (ze_module_handle_t module, const ze_kernel_desc_t* desc, ze_kernel_handle_t* kernel))        \
  X(zeKernelDestroy, ze_result_t, (ze_kernel_handle_t kernel))                                    \
  X(zeKernelSetGroupSize, ze_result_t,                                                            \
    (ze_kernel_handle_t kernel, uint32_t x, uint32_t y, uint32_t z))                              \
  X(zeKernelSetArgumentValue, ze_result_t,                                                        \
    (ze_kernel_handle_t kernel, uint32_t index, size_t size, const void* value))                  \
  X(zeKernelGetProperties, ze_result_t,                                                           \
    (ze_kernel_handle_t kernel, ze_kernel_properties_t * properties))

// What a driver implements for the loader beyond the functions anygpu calls (the test driver
// does).
#define ANYGPU_LEVEL_ZERO_OTHER_FUNCTIONS(X) \
  X(zeDriverGetProperties, ze_result_t,      \
    (ze_driver_handle_t driver, ze_driver_properties_t * properties))

// PFN_<symbol>: each function's type, the one declaration everything else is checked against.
#define ANYGPU_LEVEL_ZERO_DECLARE_PFN(symbol, result, parameters) \
  typedef result(*PFN_##symbol) parameters;
ANYGPU_LEVEL_ZERO_REQUIRED_FUNCTIONS(ANYGPU_LEVEL_ZERO_DECLARE_PFN)
ANYGPU_LEVEL_ZERO_OTHER_FUNCTIONS(ANYGPU_LEVEL_ZERO_DECLARE_PFN)
#undef ANYGPU_LEVEL_ZERO_DECLARE_PFN

// The resolved entry points of the loader.
struct LevelZeroFunctions {
#define ANYGPU_LEVEL_ZERO_DECLARE_POINTER(symbol, result, parameters) PFN_##symbol symbol = nullptr;
  ANYGPU_LEVEL_ZERO_REQUIRED_FUNCTIONS(ANYGPU_LEVEL_ZERO_DECLARE_POINTER)
#undef ANYGPU_LEVEL_ZERO_DECLARE_POINTER
};

// Calls visit(pointer, symbol, name, required) for each entry point of `functions`: how
// resolve_functions (loaders/symbol_resolver.h) fills them. All are required; the loader exports
// each under its own name.
template <typename Visit>
void visit_functions(LevelZeroFunctions& functions, Visit&& visit) {
#define ANYGPU_LEVEL_ZERO_VISIT(symbol, result, parameters) \
  visit(functions.symbol, #symbol, #symbol, true);
  ANYGPU_LEVEL_ZERO_REQUIRED_FUNCTIONS(ANYGPU_LEVEL_ZERO_VISIT)
#undef ANYGPU_LEVEL_ZERO_VISIT
}

}  // namespace anygpu::level_zero
