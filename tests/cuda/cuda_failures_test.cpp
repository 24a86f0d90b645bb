// The CUDA backend's error paths, through the test driver: a chosen driver call fails with a
// chosen CUresult, and the anygpu call surfaces the mapped ag_result with the native name in the
// detail, hands out nothing, and leaves no driver object behind.
#include <gtest/gtest.h>

#include <string>

#include "cuda_driver_access.h"
#include "driver_failure_fixture.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

using Fixture = DriverFailureObjects;
using FailureCase = DriverFailureCase<Fixture>;

const FailureCase kCases[] = {
    {"cuMemAlloc_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc},
    {"cuMemAllocHost_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc_host},
    {"cuMemAllocManaged", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc_managed},
    {"cuMemPrefetchAsync", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_prefetch},
    {"cuMemAdvise", 101, "CUDA_ERROR_INVALID_DEVICE", AG_ERROR_INVALID_DEVICE,
     failure_calls::mem_advise},
    {"cuMemFree_v2", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_free},
    {"cuMemGetInfo_v2", 3, "CUDA_ERROR_NOT_INITIALIZED", AG_ERROR_NOT_INITIALIZED,
     failure_calls::mem_get_info},
    {"cuMemcpyHtoD_v2", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::memcpy_htod},
    {"cuMemcpyDtoH_v2", 700, "CUDA_ERROR_ILLEGAL_ADDRESS", AG_ERROR_LAUNCH_FAILED,
     failure_calls::memcpy_dtoh},
    {"cuMemcpyDtoHAsync_v2", 700, "CUDA_ERROR_ILLEGAL_ADDRESS", AG_ERROR_LAUNCH_FAILED,
     failure_calls::memcpy_dtoh_async},
    {"cuMemsetD8_v2", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::memset_d8},
    {"cuStreamCreate", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::stream_create},
    {"cuStreamCreateWithPriority", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::stream_create_with_priority},
    {"cuCtxGetStreamPriorityRange", 201, "CUDA_ERROR_INVALID_CONTEXT", AG_ERROR_INVALID_HANDLE,
     failure_calls::stream_create_with_priority},
    {"cuStreamGetCtx", 400, "CUDA_ERROR_INVALID_HANDLE", AG_ERROR_INVALID_HANDLE,
     failure_calls::stream_create_from_native},
    {"cuStreamGetPriority", 201, "CUDA_ERROR_INVALID_CONTEXT", AG_ERROR_INVALID_HANDLE,
     failure_calls::stream_create_from_native},
    {"cuStreamSynchronize", 719, "CUDA_ERROR_LAUNCH_FAILED", AG_ERROR_LAUNCH_FAILED,
     failure_calls::stream_synchronize},
    {"cuStreamQuery", 400, "CUDA_ERROR_INVALID_HANDLE", AG_ERROR_INVALID_HANDLE,
     failure_calls::stream_query},
    {"cuLaunchHostFunc", 400, "CUDA_ERROR_INVALID_HANDLE", AG_ERROR_INVALID_HANDLE,
     failure_calls::launch_host_func},
    {"cuEventCreate", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::event_create},
    {"cuEventRecord", 400, "CUDA_ERROR_INVALID_HANDLE", AG_ERROR_INVALID_HANDLE,
     failure_calls::event_record},
    {"cuEventElapsedTime", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::event_elapsed_time},
    {"cuModuleLoadDataEx", 200, "CUDA_ERROR_INVALID_IMAGE", AG_ERROR_INVALID_IMAGE,
     failure_calls::module_load_data},
    {"cuModuleEnumerateFunctions", 201, "CUDA_ERROR_INVALID_CONTEXT", AG_ERROR_INVALID_HANDLE,
     failure_calls::module_load_data},
    {"cuFuncLoad", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::module_load_data},
    {"cuMemcpy3D_v2", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::memcpy_2d},
    {"cuMemcpy3DAsync_v2", 719, "CUDA_ERROR_LAUNCH_FAILED", AG_ERROR_LAUNCH_FAILED,
     failure_calls::memcpy_2d_async},
    {"cuModuleGetFunction", 500, "CUDA_ERROR_NOT_FOUND", AG_ERROR_NOT_FOUND,
     failure_calls::module_get_function},
    {"cuFuncGetAttribute", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::module_get_function},
    {"cuFuncSetAttribute", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::set_max_dynamic_shared},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor", 201, "CUDA_ERROR_INVALID_CONTEXT",
     AG_ERROR_INVALID_HANDLE, failure_calls::occupancy_max_active_blocks},
    {"cuOccupancyMaxPotentialBlockSize", 201, "CUDA_ERROR_INVALID_CONTEXT", AG_ERROR_INVALID_HANDLE,
     failure_calls::occupancy_max_potential_block_size},
    {"cuMemPoolCreate", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_pool_create},
    {"cuMemPoolSetAttribute", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_pool_create},
    {"cuMemAllocFromPoolAsync", 2, "CUDA_ERROR_OUT_OF_MEMORY", AG_ERROR_OUT_OF_MEMORY,
     failure_calls::mem_alloc_async},
    {"cuMemFreeAsync", 700, "CUDA_ERROR_ILLEGAL_ADDRESS", AG_ERROR_LAUNCH_FAILED,
     failure_calls::mem_free_async},
    {"cuMemPoolTrimTo", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_pool_trim},
    {"cuMemPoolSetAttribute", 201, "CUDA_ERROR_INVALID_CONTEXT", AG_ERROR_INVALID_HANDLE,
     failure_calls::mem_pool_set_release_threshold},
    {"cuMemPoolGetAttribute", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::mem_pool_get_usage},
    {"cuDeviceCanAccessPeer", 101, "CUDA_ERROR_INVALID_DEVICE", AG_ERROR_INVALID_DEVICE,
     failure_calls::can_access_peer},
    {"cuCtxEnablePeerAccess", 711, "CUDA_ERROR_TOO_MANY_PEERS", AG_ERROR_BACKEND_FAILURE,
     failure_calls::enable_peer_access},
    {"cuCtxDisablePeerAccess", 201, "CUDA_ERROR_INVALID_CONTEXT", AG_ERROR_INVALID_HANDLE,
     failure_calls::disable_peer_access},
    {"cuMemcpyPeer", 1, "CUDA_ERROR_INVALID_VALUE", AG_ERROR_INVALID_VALUE,
     failure_calls::memcpy_peer},
    {"cuMemcpyPeerAsync", 700, "CUDA_ERROR_ILLEGAL_ADDRESS", AG_ERROR_LAUNCH_FAILED,
     failure_calls::memcpy_peer_async},
    {"cuLaunchKernel", 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", AG_ERROR_INVALID_CONFIGURATION,
     failure_calls::launch},
    {"cuCtxSynchronize", 719, "CUDA_ERROR_LAUNCH_FAILED", AG_ERROR_LAUNCH_FAILED,
     failure_calls::device_synchronize},
    {"cuCtxGetCurrent", 201, "CUDA_ERROR_INVALID_CONTEXT", AG_ERROR_INVALID_HANDLE,
     failure_calls::stream_synchronize},
};

using CudaFailureTest = DriverFailureTest<CudaDriverAccess, AG_BACKEND_CUDA>;

TEST_P(CudaFailureTest, SurfacesAsTheMappedResultWithTheNativeName) {
  const FailureCase& c = GetParam();
  fail_and_check(c);
  // A failed free leaves the allocation with the application; everything else created nothing.
  const long expected_live = live_before;
  EXPECT_EQ(expected_live, driver.live_objects()) << "a failure leaked a driver object";
  // The failure was one call: the same operation works again.
  driver.clear_failures();
  if (std::string(c.driver_call) != "cuMemFree_v2") {
    EXPECT_AG(agStreamSynchronize(f.stream));
  }
}

INSTANTIATE_TEST_SUITE_P(DriverCalls, CudaFailureTest, ::testing::ValuesIn(kCases),
                         DriverFailureCaseName());

}  // namespace
}  // namespace anygpu_test
