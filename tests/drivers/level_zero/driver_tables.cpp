// The driver tables, all the loader reaches the driver through: it asks for each with
// ze*/zet*/zes*Get*ProcAddrTable, and the driver fills in the entries it implements.
#include <cstddef>
#include <cstdint>

#include "driver_api.h"

namespace anygpu::level_zero_test_driver {
namespace {

constexpr uint32_t kMajorVersion = 1;

ze_result_t check_table(uint32_t version, void* table) {
  if (!table) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if ((version >> 16) != kMajorVersion) return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  return ZE_RESULT_SUCCESS;
}

// Writes entry `index` of a table of function pointers. Only Level Zero 1.0 entries are written
// (their positions have not changed since), so a table of any 1.x loader is large enough.
template <typename Function>
void put(void* table, size_t index, Function function) {
  static_cast<void**>(table)[index] = reinterpret_cast<void*>(function);
}

}  // namespace
}  // namespace anygpu::level_zero_test_driver

using namespace anygpu::level_zero_test_driver;
using anygpu::level_zero::ze_result_t;

#define ANYGPU_L0_TABLE(name, ...)                                   \
  ANYGPU_L0_EXPORT ze_result_t name(uint32_t version, void* table) { \
    if (ze_result_t r = check_table(version, table)) return r;       \
    __VA_ARGS__;                                                     \
    return ZE_RESULT_SUCCESS;                                        \
  }

// Positions from the Level Zero specification's ze_*_dditable_t (ze_ddi.h).
ANYGPU_L0_TABLE(zeGetGlobalProcAddrTable, put(table, 0, zeInit))
ANYGPU_L0_TABLE(zeGetDriverProcAddrTable, put(table, 0, zeDriverGet);
                put(table, 1, zeDriverGetApiVersion); put(table, 2, zeDriverGetProperties))
ANYGPU_L0_TABLE(zeGetDeviceProcAddrTable, put(table, 0, zeDeviceGet);
                put(table, 2, zeDeviceGetProperties); put(table, 3, zeDeviceGetComputeProperties);
                put(table, 6, zeDeviceGetMemoryProperties);
                put(table, 7, zeDeviceGetMemoryAccessProperties);
                put(table, 12, zeDeviceCanAccessPeer))
ANYGPU_L0_TABLE(zeGetContextProcAddrTable, put(table, 0, zeContextCreate);
                put(table, 1, zeContextDestroy))
ANYGPU_L0_TABLE(
    zeGetCommandListProcAddrTable, put(table, 1, zeCommandListCreateImmediate);
    put(table, 2, zeCommandListDestroy); put(table, 6, zeCommandListAppendBarrier);
    put(table, 8, zeCommandListAppendMemoryCopy); put(table, 9, zeCommandListAppendMemoryFill);
    put(table, 10, zeCommandListAppendMemoryCopyRegion);
    put(table, 16, zeCommandListAppendMemoryPrefetch); put(table, 17, zeCommandListAppendMemAdvise);
    put(table, 18, zeCommandListAppendSignalEvent); put(table, 19, zeCommandListAppendWaitOnEvents);
    put(table, 20, zeCommandListAppendEventReset); put(table, 22, zeCommandListAppendLaunchKernel))
ANYGPU_L0_TABLE(zeGetMemProcAddrTable, put(table, 0, zeMemAllocShared);
                put(table, 1, zeMemAllocDevice); put(table, 2, zeMemAllocHost);
                put(table, 3, zeMemFree); put(table, 4, zeMemGetAllocProperties))
ANYGPU_L0_TABLE(zeGetEventPoolProcAddrTable, put(table, 0, zeEventPoolCreate);
                put(table, 1, zeEventPoolDestroy))
ANYGPU_L0_TABLE(zeGetEventProcAddrTable, put(table, 0, zeEventCreate);
                put(table, 1, zeEventDestroy); put(table, 2, zeEventHostSignal);
                put(table, 3, zeEventHostSynchronize); put(table, 4, zeEventQueryStatus);
                put(table, 5, zeEventHostReset); put(table, 6, zeEventQueryKernelTimestamp))
ANYGPU_L0_TABLE(zeGetModuleProcAddrTable, put(table, 0, zeModuleCreate);
                put(table, 1, zeModuleDestroy); put(table, 4, zeModuleGetGlobalPointer))
ANYGPU_L0_TABLE(zeGetModuleBuildLogProcAddrTable, put(table, 0, zeModuleBuildLogDestroy);
                put(table, 1, zeModuleBuildLogGetString))
ANYGPU_L0_TABLE(zeGetKernelProcAddrTable, put(table, 0, zeKernelCreate);
                put(table, 1, zeKernelDestroy); put(table, 3, zeKernelSetGroupSize);
                put(table, 6, zeKernelSetArgumentValue); put(table, 10, zeKernelGetProperties))
// The tables of what anygpu never calls: accepted, left as the loader gave them.
ANYGPU_L0_TABLE(zeGetCommandQueueProcAddrTable)
ANYGPU_L0_TABLE(zeGetFenceProcAddrTable)
ANYGPU_L0_TABLE(zeGetImageProcAddrTable)
ANYGPU_L0_TABLE(zeGetSamplerProcAddrTable)
ANYGPU_L0_TABLE(zeGetPhysicalMemProcAddrTable)
ANYGPU_L0_TABLE(zeGetVirtualMemProcAddrTable)
ANYGPU_L0_TABLE(zeGetDeviceExpProcAddrTable)
ANYGPU_L0_TABLE(zeGetEventExpProcAddrTable)
ANYGPU_L0_TABLE(zeGetImageExpProcAddrTable)
ANYGPU_L0_TABLE(zeGetKernelExpProcAddrTable)
ANYGPU_L0_TABLE(zeGetFabricVertexExpProcAddrTable)
ANYGPU_L0_TABLE(zeGetFabricEdgeExpProcAddrTable)
// Tools (zet) and sysman (zes): the loader asks for them; anygpu calls none.
ANYGPU_L0_TABLE(zesGetDeviceProcAddrTable)
ANYGPU_L0_TABLE(zesGetDiagnosticsProcAddrTable)
ANYGPU_L0_TABLE(zesGetDriverProcAddrTable)
ANYGPU_L0_TABLE(zesGetEngineProcAddrTable)
ANYGPU_L0_TABLE(zesGetFabricPortProcAddrTable)
ANYGPU_L0_TABLE(zesGetFanProcAddrTable)
ANYGPU_L0_TABLE(zesGetFirmwareProcAddrTable)
ANYGPU_L0_TABLE(zesGetFrequencyProcAddrTable)
ANYGPU_L0_TABLE(zesGetLedProcAddrTable)
ANYGPU_L0_TABLE(zesGetMemoryProcAddrTable)
ANYGPU_L0_TABLE(zesGetPerformanceFactorProcAddrTable)
ANYGPU_L0_TABLE(zesGetPowerProcAddrTable)
ANYGPU_L0_TABLE(zesGetPsuProcAddrTable)
ANYGPU_L0_TABLE(zesGetRasProcAddrTable)
ANYGPU_L0_TABLE(zesGetSchedulerProcAddrTable)
ANYGPU_L0_TABLE(zesGetStandbyProcAddrTable)
ANYGPU_L0_TABLE(zesGetTemperatureProcAddrTable)
ANYGPU_L0_TABLE(zetGetCommandListProcAddrTable)
ANYGPU_L0_TABLE(zetGetContextProcAddrTable)
ANYGPU_L0_TABLE(zetGetDebugProcAddrTable)
ANYGPU_L0_TABLE(zetGetDeviceProcAddrTable)
ANYGPU_L0_TABLE(zetGetKernelProcAddrTable)
ANYGPU_L0_TABLE(zetGetMetricGroupExpProcAddrTable)
ANYGPU_L0_TABLE(zetGetMetricGroupProcAddrTable)
ANYGPU_L0_TABLE(zetGetMetricProcAddrTable)
ANYGPU_L0_TABLE(zetGetMetricQueryPoolProcAddrTable)
ANYGPU_L0_TABLE(zetGetMetricQueryProcAddrTable)
ANYGPU_L0_TABLE(zetGetMetricStreamerProcAddrTable)
ANYGPU_L0_TABLE(zetGetModuleProcAddrTable)
ANYGPU_L0_TABLE(zetGetTracerExpProcAddrTable)
