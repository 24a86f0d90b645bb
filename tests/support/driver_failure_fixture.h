// The failure-injection suites' common part, for each backend's test driver: the objects a case's
// call works with (a stream, two events, the test kernels' module and saxpy, a device buffer), set
// up before the failure is armed and released after; a case (the driver call, its native result and
// name, the ag_result it maps to, the anygpu call that makes it); and the check that the call
// surfaces the mapped result with the driver call and the native name in the detail.
#pragma once

#include <anygpu/anygpu.h>
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>

#include "test_support.h"

namespace anygpu_test {

// What one test case's call works with; a backend's suite may derive to add more.
struct DriverFailureObjects {
  ag_device device = nullptr;
  ag_stream stream = nullptr;
  ag_event start = nullptr, end = nullptr;
  ag_module module = nullptr;
  ag_function saxpy = nullptr;
  void* buffer = nullptr;
  float host[256] = {};
  ag_device peer = nullptr;  // the backend's second device, where the driver has two
  ag_mem_pool pool = nullptr;
};

// saxpy on f.buffer in blocks of `block` (256 threads in all), on `stream`.
inline ag_result launch_saxpy(DriverFailureObjects& f, unsigned block, ag_stream stream) {
  int n = 256;
  float a = 2.0f;
  void* x = f.buffer;
  void* y = f.buffer;
  void* params[] = {&n, &a, &x, &y};
  return agLaunchKernel(f.saxpy, 256 / block, 1, 1, block, 1, 1, 0, stream, params, nullptr);
}
inline ag_result launch_saxpy(DriverFailureObjects& f, unsigned block) {
  return launch_saxpy(f, block, f.stream);
}

// The anygpu calls the backends' cases make, each checking that a failed call handed out nothing.
namespace failure_calls {

inline ag_result mem_alloc(DriverFailureObjects& f) {
  void* p = nullptr;
  ag_result r = agMemAlloc(f.device, 1024, &p);
  EXPECT_EQ(nullptr, p);
  return r;
}
inline ag_result mem_alloc_host(DriverFailureObjects& f) {
  void* p = nullptr;
  ag_result r = agMemAllocHost(f.device, 1024, &p);
  EXPECT_EQ(nullptr, p);
  return r;
}
inline ag_result mem_free(DriverFailureObjects& f) {
  return agMemFree(f.device, f.buffer);
}
inline ag_result mem_get_info(DriverFailureObjects& f) {
  size_t free_bytes = 0, total = 0;
  return agMemGetInfo(f.device, &free_bytes, &total);
}
inline ag_result memcpy_htod(DriverFailureObjects& f) {
  return agMemcpyHtoD(f.device, f.buffer, f.host, sizeof f.host);
}
inline ag_result memcpy_dtoh(DriverFailureObjects& f) {
  return agMemcpyDtoH(f.device, f.host, f.buffer, sizeof f.host);
}
inline ag_result memcpy_dtoh_async(DriverFailureObjects& f) {
  return agMemcpyDtoHAsync(f.host, f.buffer, sizeof f.host, f.stream);
}
inline ag_result memset_d8(DriverFailureObjects& f) {
  return agMemsetD8(f.device, f.buffer, 0, sizeof f.host);
}
inline ag_result memset_d8_async(DriverFailureObjects& f) {
  return agMemsetD8Async(f.buffer, 0, sizeof f.host, f.stream);
}
inline ag_result stream_create(DriverFailureObjects& f) {
  ag_stream s = nullptr;
  ag_result r = agStreamCreate(f.device, 0, &s);
  EXPECT_EQ(nullptr, s);
  return r;
}
inline ag_result stream_create_with_priority(DriverFailureObjects& f) {
  ag_stream s = nullptr;
  ag_result r = agStreamCreateWithPriority(f.device, 0, -1, &s);
  EXPECT_EQ(nullptr, s);
  return r;
}
// A second stream over f.stream's native one: a failure hands out nothing, and f.stream's native
// stream is left alone (the fixture's later calls use it).
inline ag_result stream_create_from_native(DriverFailureObjects& f) {
  void* native = nullptr;
  EXPECT_EQ(AG_SUCCESS, agStreamGetNativeHandle(f.stream, &native));
  ag_stream s = nullptr;
  ag_result r = agStreamCreateFromNative(f.device, native, 0, &s);
  EXPECT_EQ(nullptr, s);
  if (s) agStreamDestroy(s);
  return r;
}
inline ag_result mem_alloc_managed(DriverFailureObjects& f) {
  void* p = nullptr;
  ag_result r = agMemAllocManaged(f.device, 4096, AG_MEM_ATTACH_GLOBAL, &p);
  EXPECT_EQ(nullptr, p);
  return r;
}
// Prefetch to the device and advice on a managed block made (and freed) around the call.
inline ag_result with_managed(DriverFailureObjects& f,
                              ag_result (*hint)(DriverFailureObjects&, void*)) {
  void* p = nullptr;
  EXPECT_EQ(AG_SUCCESS, agMemAllocManaged(f.device, 4096, AG_MEM_ATTACH_GLOBAL, &p));
  const ag_result r = hint(f, p);
  EXPECT_EQ(AG_SUCCESS, agStreamSynchronize(f.stream));
  EXPECT_EQ(AG_SUCCESS, agMemFree(f.device, p));
  return r;
}
inline ag_result mem_prefetch(DriverFailureObjects& f) {
  return with_managed(f, [](DriverFailureObjects& o, void* p) {
    return agMemPrefetchAsync(p, 4096, o.device, o.stream);
  });
}
inline ag_result mem_advise(DriverFailureObjects& f) {
  return with_managed(f, [](DriverFailureObjects& o, void* p) {
    return agMemAdvise(p, 4096, AG_MEM_ADVISE_SET_READ_MOSTLY, o.device);
  });
}
inline ag_result stream_synchronize(DriverFailureObjects& f) {
  return agStreamSynchronize(f.stream);
}
inline ag_result stream_query(DriverFailureObjects& f) {
  return agStreamQuery(f.stream);
}
inline ag_result launch_host_func(DriverFailureObjects& f) {
  return agLaunchHostFunc(f.stream, [](void*) {}, nullptr);
}
inline ag_result event_create(DriverFailureObjects& f) {
  ag_event e = nullptr;
  ag_result r = agEventCreate(f.device, 0, &e);
  EXPECT_EQ(nullptr, e);
  return r;
}
inline ag_result event_record(DriverFailureObjects& f) {
  return agEventRecord(f.start, f.stream);
}
inline ag_result event_elapsed_time(DriverFailureObjects& f) {
  EXPECT_AG(agEventRecord(f.start, f.stream));
  EXPECT_AG(agEventRecord(f.end, f.stream));
  EXPECT_AG(agEventSynchronize(f.end));
  float ms = -1;
  ag_result r = agEventElapsedTime(&ms, f.start, f.end);
  EXPECT_EQ(-1, ms);
  return r;
}
inline ag_result module_load_data(DriverFailureObjects& f) {
  ag_module m = nullptr;
  ag_result r =
      agModuleLoadData(f.device, anygpu_image_test_kernels, anygpu_image_test_kernels_size, &m);
  EXPECT_EQ(nullptr, m);
  return r;
}
inline ag_result module_get_function(DriverFailureObjects& f) {
  ag_function fn = nullptr;
  ag_result r = agModuleGetFunction(f.module, "vector_add", &fn);
  EXPECT_EQ(nullptr, fn);
  return r;
}
// Four rows of 64 bytes between the host and f.buffer, a row every 128 bytes on the device.
inline ag_result memcpy_2d(DriverFailureObjects& f) {
  return agMemcpy2D(f.buffer, 128, f.host, 64, 64, 4);
}
inline ag_result memcpy_2d_async(DriverFailureObjects& f) {
  return agMemcpy2DAsync(f.host, 64, f.buffer, 128, 64, 4, f.stream);
}
inline ag_result set_max_dynamic_shared(DriverFailureObjects& f) {
  ag_function_attributes before{};
  before.struct_size = sizeof before;
  EXPECT_AG(agFunctionGetAttributes(f.saxpy, &before));
  ag_result r = agFunctionSetMaxDynamicShared(f.saxpy, 1024);
  ag_function_attributes after{};
  after.struct_size = sizeof after;
  EXPECT_AG(agFunctionGetAttributes(f.saxpy, &after));
  EXPECT_EQ(before.max_dynamic_shared_bytes, after.max_dynamic_shared_bytes)
      << "a failed opt-in changed the function's limit";
  return r;
}
inline ag_result occupancy_max_active_blocks(DriverFailureObjects& f) {
  int blocks = -1;
  ag_result r = agOccupancyMaxActiveBlocksPerMultiprocessor(f.saxpy, 128, 0, &blocks);
  EXPECT_EQ(-1, blocks);
  return r;
}
inline ag_result occupancy_max_potential_block_size(DriverFailureObjects& f) {
  int min_grid = -1, block = -1;
  ag_result r = agOccupancyMaxPotentialBlockSize(f.saxpy, 0, 0, &min_grid, &block);
  EXPECT_EQ(-1, min_grid);
  EXPECT_EQ(-1, block);
  return r;
}
inline ag_result launch(DriverFailureObjects& f) {
  return launch_saxpy(f, 256);
}
inline ag_result device_synchronize(DriverFailureObjects& f) {
  return agDeviceSynchronize(f.device);
}
// Stream-ordered allocation, from f.pool.
inline ag_result mem_pool_create(DriverFailureObjects& f) {
  ag_mem_pool pool = nullptr;
  const ag_result r = agMemPoolCreate(f.device, nullptr, &pool);
  EXPECT_EQ(nullptr, pool);
  return r;
}
inline ag_result mem_alloc_async(DriverFailureObjects& f) {
  void* p = nullptr;
  const ag_result r = agMemAllocFromPoolAsync(&p, 4096, f.pool, f.stream);
  EXPECT_EQ(nullptr, p);
  return r;
}
// A refused free leaves the allocation live: it is freed again after.
inline ag_result mem_free_async(DriverFailureObjects& f) {
  void* p = nullptr;
  EXPECT_AG(agMemAllocFromPoolAsync(&p, 4096, f.pool, f.stream));
  const ag_result r = agMemFreeAsync(p, f.stream);
  EXPECT_AG(agMemsetD8Async(p, 0, 4096, f.stream)) << "the allocation is still live";
  EXPECT_AG(agMemFreeAsync(p, f.stream));
  return r;
}
inline ag_result mem_pool_trim(DriverFailureObjects& f) {
  return agMemPoolTrimTo(f.pool, 0);
}
inline ag_result mem_pool_set_release_threshold(DriverFailureObjects& f) {
  return agMemPoolSetReleaseThreshold(f.pool, 0);
}
inline ag_result mem_pool_get_usage(DriverFailureObjects& f) {
  uint64_t used = 7, reserved = 7;
  const ag_result r = agMemPoolGetUsage(f.pool, &used, &reserved);
  EXPECT_EQ(7u, used);
  EXPECT_EQ(7u, reserved);
  return r;
}
// Peers: f.device with f.peer. A refused enable leaves access disabled; a refused disable leaves
// it enabled (TearDown disables it).
inline ag_result can_access_peer(DriverFailureObjects& f) {
  int can = -1;
  ag_result r = agDeviceCanAccessPeer(f.device, f.peer, &can);
  EXPECT_EQ(-1, can);
  return r;
}
inline ag_result enable_peer_access(DriverFailureObjects& f) {
  return agDeviceEnablePeerAccess(f.device, f.peer, 0);
}
inline ag_result disable_peer_access(DriverFailureObjects& f) {
  EXPECT_AG(agDeviceEnablePeerAccess(f.device, f.peer, 0));
  return agDeviceDisablePeerAccess(f.device, f.peer);
}
// f.buffer copied to a buffer of f.peer, on `stream` (nullptr: synchronous).
inline ag_result memcpy_peer_on(DriverFailureObjects& f, ag_stream stream) {
  void* there = nullptr;
  EXPECT_AG(agMemAlloc(f.peer, sizeof f.host, &there));
  ag_result r = stream ? agMemcpyPeerAsync(there, f.peer, f.buffer, f.device, sizeof f.host, stream)
                       : agMemcpyPeer(there, f.peer, f.buffer, f.device, sizeof f.host);
  EXPECT_AG(agMemFree(f.peer, there));
  return r;
}
inline ag_result memcpy_peer(DriverFailureObjects& f) {
  return memcpy_peer_on(f, nullptr);
}
inline ag_result memcpy_peer_async(DriverFailureObjects& f) {
  return memcpy_peer_on(f, f.stream);
}

}  // namespace failure_calls

// One driver call failing with one native result (Result: the driver's result type).
template <typename Objects, typename Result = int>
struct DriverFailureCase {
  const char* driver_call;
  Result native_result;
  const char* native_name;
  ag_result expected;
  std::function<ag_result(Objects&)> call;
  const char* detail_also = nullptr;  // more the detail must say
};

// GoogleTest prints a case by its driver call, not as bytes.
template <typename Objects, typename Result>
void PrintTo(const DriverFailureCase<Objects, Result>& c, std::ostream* out) {
  *out << c.driver_call << " -> " << c.native_name;
}

// <driver call>_<native result>, for INSTANTIATE_TEST_SUITE_P.
struct DriverFailureCaseName {
  template <typename Objects, typename Result>
  std::string operator()(
      const ::testing::TestParamInfo<DriverFailureCase<Objects, Result>>& info) const {
    return std::string(info.param.driver_call) + "_" + std::to_string(info.param.native_result);
  }
};

// Driver: a TestDriverControl. kBackend: the backend whose first device the cases use.
template <typename Driver, ag_backend_kind kBackend, typename Objects = DriverFailureObjects,
          typename Result = int>
class DriverFailureTest : public ::testing::TestWithParam<DriverFailureCase<Objects, Result>> {
 protected:
  using Case = DriverFailureCase<Objects, Result>;

  void SetUp() override {
    ASSERT_TRUE(driver.loaded()) << "the test driver was not loaded";
    f.device = driver.device(kBackend, 0);
    ASSERT_NE(nullptr, f.device) << "no device from the test driver";
    ASSERT_AG(agStreamCreate(f.device, 0, &f.stream));
    ASSERT_AG(agEventCreate(f.device, 0, &f.start));
    ASSERT_AG(agEventCreate(f.device, 0, &f.end));
    ASSERT_AG(agModuleLoadData(f.device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                               &f.module));
    ASSERT_AG(agModuleGetFunction(f.module, "saxpy", &f.saxpy));
    ASSERT_AG(agMemAlloc(f.device, sizeof f.host, &f.buffer));
    f.peer = driver.device(kBackend, 1);
    ASSERT_AG(agMemPoolCreate(f.device, nullptr, &f.pool));
    ASSERT_NO_FATAL_FAILURE(set_up_more());
    live_before = driver.live_objects();
  }
  void TearDown() override {
    driver.clear_failures();
    if (f.peer) agDeviceDisablePeerAccess(f.device, f.peer);  // enabled by a refused disable
    tear_down_more();
    if (f.pool) {
      EXPECT_AG(agDeviceSynchronize(f.device));  // its frees done
      EXPECT_AG(agMemPoolDestroy(f.pool));
    }
    if (f.buffer) {
      EXPECT_AG(agMemFree(f.device, f.buffer));
    }
    if (f.module) {
      EXPECT_AG(agModuleUnload(f.module));
    }
    if (f.start) {
      EXPECT_AG(agEventDestroy(f.start));
    }
    if (f.end) {
      EXPECT_AG(agEventDestroy(f.end));
    }
    if (f.stream) {
      EXPECT_AG(agStreamDestroy(f.stream));
    }
    after_tear_down();
  }
  // A backend's own objects and checks: after the common objects are made (before live_before is
  // taken), before the common objects are released, and after.
  virtual void set_up_more() {}
  virtual void tear_down_more() {}
  virtual void after_tear_down() {}

  // Arms the case's failure, makes its call, and checks the result, that the driver call was made,
  // and that the detail names the call and the native result; returns the detail.
  std::string fail_and_check(const Case& c) {
    const long calls_before = driver.calls(c.driver_call);
    driver.fail(c.driver_call, c.native_result);
    EXPECT_EQ(c.expected, c.call(f)) << last_detail();
    EXPECT_GT(driver.calls(c.driver_call), calls_before) << "the driver call was never made";
    const std::string detail = last_detail();
    EXPECT_NE(std::string::npos, detail.find(c.driver_call)) << detail;
    EXPECT_NE(std::string::npos, detail.find(c.native_name)) << detail;
    if (c.detail_also) {
      EXPECT_NE(std::string::npos, detail.find(c.detail_also)) << detail;
    }
    return detail;
  }

  Driver driver;
  Objects f;
  long live_before = 0;
};

}  // namespace anygpu_test
