// What the Level Zero test driver is told when it is loaded (its environment), and what tests do
// to it while it runs: failures injected into the next calls of a function, each function's call
// count, and the objects it holds.
//
// Its environment, read when it is loaded:
//   ANYGPU_L0_TEST_DEVICE_COUNT  its GPUs, 0 to 64, 1 by default (0: zeDeviceGet reports none)
//   ANYGPU_L0_TEST_KERNELS       the host build of the test kernels that launches run
//   ANYGPU_L0_TEST_FAIL          <function>:<result>[:<nth>],...: the calls that fail
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "loaders/level_zero/level_zero_api.h"
#include "shim/core/backend.h"

// Only what the loader and the tests reach is exported (level_zero_test_driver.map).
#define ANYGPU_L0_EXPORT extern "C" __attribute__((visibility("default")))

namespace anygpu::level_zero_test_driver {

using namespace anygpu::level_zero;

// zeMemGetAllocProperties, which anygpu does not call (level_zero_api.h leaves it out): its types,
// as the specification (1.0) gives them.
enum : uint32_t {
  ZE_MEMORY_TYPE_UNKNOWN = 0,
  ZE_MEMORY_TYPE_HOST = 1,
  ZE_MEMORY_TYPE_DEVICE = 2,
  ZE_MEMORY_TYPE_SHARED = 3,
};
struct ze_memory_allocation_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t type;  // ZE_MEMORY_TYPE_*
  uint64_t id;
  uint64_t pageSize;
};
typedef ze_result_t (*PFN_zeMemGetAllocProperties)(ze_context_handle_t context, const void* pointer,
                                                   ze_memory_allocation_properties_t* properties,
                                                   ze_device_handle_t* device);

// clang-format off
#define ANYGPU_L0_TEST_FUNCTIONS(X) \
  X(zeInit) \
  X(zeDriverGet) \
  X(zeDriverGetApiVersion) \
  X(zeDriverGetProperties) \
  X(zeDeviceGet) \
  X(zeDeviceGetProperties) \
  X(zeDeviceGetComputeProperties) \
  X(zeDeviceGetMemoryProperties) \
  X(zeDeviceGetMemoryAccessProperties) \
  X(zeDeviceCanAccessPeer) \
  X(zeContextCreate) \
  X(zeContextDestroy) \
  X(zeMemAllocDevice) \
  X(zeMemAllocHost) \
  X(zeMemFree) \
  X(zeMemGetAllocProperties) \
  X(zeMemAllocShared) \
  X(zeCommandListAppendMemoryPrefetch) \
  X(zeCommandListAppendMemAdvise) \
  X(zeCommandListCreateImmediate) \
  X(zeCommandListDestroy) \
  X(zeCommandListAppendMemoryCopy) \
  X(zeCommandListAppendMemoryCopyRegion) \
  X(zeCommandListAppendMemoryFill) \
  X(zeCommandListAppendBarrier) \
  X(zeCommandListAppendWaitOnEvents) \
  X(zeCommandListAppendEventReset) \
  X(zeCommandListAppendSignalEvent) \
  X(zeCommandListAppendLaunchKernel) \
  X(zeEventPoolCreate) \
  X(zeEventPoolDestroy) \
  X(zeEventCreate) \
  X(zeEventDestroy) \
  X(zeEventHostSynchronize) \
  X(zeEventQueryStatus) \
  X(zeEventHostReset) \
  X(zeEventHostSignal) \
  X(zeEventQueryKernelTimestamp) \
  X(zeModuleCreate) \
  X(zeModuleDestroy) \
  X(zeModuleGetGlobalPointer) \
  X(zeModuleBuildLogGetString) \
  X(zeModuleBuildLogDestroy) \
  X(zeKernelCreate) \
  X(zeKernelDestroy) \
  X(zeKernelSetGroupSize) \
  X(zeKernelSetArgumentValue) \
  X(zeKernelGetProperties)
// clang-format on

enum Fn {
#define ANYGPU_L0_ENUM(name) fn_##name,
  ANYGPU_L0_TEST_FUNCTIONS(ANYGPU_L0_ENUM)
#undef ANYGPU_L0_ENUM
      fn_count
};

// The function a name denotes; -1 for none.
int find_function(const char* name);

struct Failure {
  int fn;
  uint32_t result;
  int remaining;
};

struct Calls {
  std::atomic<long> counts[fn_count] = {};
  std::mutex mutex;
  std::vector<Failure> failures;
  std::atomic<int> armed{0};
  std::atomic<long> live{0};

  Calls();  // reads ANYGPU_L0_TEST_FAIL
  // Counts a call of `fn` and returns the failure injected for it that is due now, else 0.
  uint32_t enter(int fn);
};

Calls& calls();

// Every entry point starts with it, before anything else.
#define DRIVER_ENTRY(name)                                           \
  if (uint32_t injected = calls().enter(fn_##name)) return injected; \
  static_assert(true, "")

// ANYGPU_L0_TEST_DEVICE_COUNT: how many devices zeDeviceGet reports (0 to kMaxDevices).
constexpr uint32_t kMaxDevices = 64;
uint32_t device_count();

// ANYGPU_L0_TEST_SUBGROUP_SIZES=<n>,...: the sub-group sizes the devices offer (powers of two up to
// kMaxSubgroupSize, at most 8); 8, 16 and 32 by default, as Intel's GPUs offer.
constexpr uint32_t kMaxSubgroupSize = 32;  // the largest of the sub-group sizes
std::vector<uint32_t> subgroup_sizes();

// The ze_result_t a failure of the CPU backend becomes.
ze_result_t from_ag(ag_result r);

// The CPU backend that does the driver's work, created on first use.
DeviceBackend& cpu();

// The host build of the test kernels (ANYGPU_L0_TEST_KERNELS); null when it does not load.
void* host_module();

}  // namespace anygpu::level_zero_test_driver
