// The test driver with two devices (ANYGPU_L0_TEST_DEVICE_COUNT=2, as level_zero_backend_tests
// runs it): the loader reports both, of one driver, each with its own handle, name and uuid; each
// reaches the other's memory (and its own); an allocation made for a device is that device's; an
// event pool's events are usable only on the devices it was made for. And anygpu makes one device
// of each, in one context, whose streams wait on each other's events and whose kernels work on
// either's memory.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "loaders/level_zero/level_zero_api.h"
#include "loaders/symbol_resolver.h"
#include "test_driver_control.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

using namespace anygpu::level_zero;

// zeMemGetAllocProperties, which anygpu does not call (level_zero_api.h leaves it out), as the
// specification (1.0) gives it.
constexpr uint32_t kMemoryTypeUnknown = 0, kMemoryTypeHost = 1, kMemoryTypeDevice = 2;
constexpr ze_structure_type_t kMemoryAllocationProperties = 0x17;
struct ze_memory_allocation_properties_t {
  ze_structure_type_t stype;
  void* pNext;
  uint32_t type;
  uint64_t id;
  uint64_t pageSize;
};
using PFN_zeMemGetAllocProperties = ze_result_t (*)(ze_context_handle_t, const void*,
                                                    ze_memory_allocation_properties_t*,
                                                    ze_device_handle_t*);

class LevelZeroDevices : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded()) << "the test driver was not loaded";
    // The loader anygpu loaded (the same copy): its calls go to the test driver.
    loader = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(nullptr, loader) << dlerror();
    EXPECT_EQ("", anygpu::resolve_functions(ze, anygpu::dlsym_lookup(loader)));
    mem_get_alloc_properties =
        reinterpret_cast<PFN_zeMemGetAllocProperties>(dlsym(loader, "zeMemGetAllocProperties"));
    ASSERT_NE(nullptr, mem_get_alloc_properties);
    for (int i = 0; i < 2; ++i) {
      devices[i] = TestDriverControl::device(AG_BACKEND_LEVEL_ZERO, i);
      ASSERT_NE(nullptr, devices[i]) << "no Level Zero device " << i;
      natives[i].struct_size = sizeof natives[i];
      ASSERT_AG(agDeviceGetNativeHandle(devices[i], &natives[i]));
    }
    EXPECT_EQ(nullptr, TestDriverControl::device(AG_BACKEND_LEVEL_ZERO, 2));
  }
  void TearDown() override {
    if (loader) dlclose(loader);
  }

  ze_device_properties_t properties(ze_device_handle_t device) {
    ze_device_properties_t p{};
    p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    EXPECT_EQ(ZE_RESULT_SUCCESS, ze.zeDeviceGetProperties(device, &p));
    return p;
  }
  ze_device_handle_t native_device(int i) const {
    return static_cast<ze_device_handle_t>(natives[i].device);
  }
  ze_context_handle_t context() const {
    return static_cast<ze_context_handle_t>(natives[0].context);
  }
  // The type and device zeMemGetAllocProperties gives for `pointer`.
  std::pair<uint32_t, ze_device_handle_t> owner(const void* pointer) {
    ze_memory_allocation_properties_t p{};
    p.stype = kMemoryAllocationProperties;
    auto device = reinterpret_cast<ze_device_handle_t>(uintptr_t{1});  // the driver writes it
    EXPECT_EQ(ZE_RESULT_SUCCESS, mem_get_alloc_properties(context(), pointer, &p, &device));
    return {p.type, device};
  }

  TestDriverControl driver{ANYGPU_TEST_DRIVER_PATH, "anygpu_l0_test"};
  void* loader = nullptr;
  LevelZeroFunctions ze;
  PFN_zeMemGetAllocProperties mem_get_alloc_properties = nullptr;
  ag_device devices[2] = {};
  ag_native_device natives[2] = {};
};

TEST_F(LevelZeroDevices, TheDriverReportsTwoDevicesWithTheirOwnHandles) {
  uint32_t count = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeDriverGet(&count, nullptr));
  ASSERT_EQ(1u, count);
  ze_driver_handle_t the_driver = nullptr;
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeDriverGet(&count, &the_driver));
  EXPECT_EQ(natives[0].driver, the_driver);
  EXPECT_EQ(natives[1].driver, the_driver);

  count = 0;
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeDeviceGet(the_driver, &count, nullptr));
  ASSERT_EQ(2u, count);
  ze_device_handle_t handles[3] = {};
  count = 3;  // more room than devices: the count says how many were written
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeDeviceGet(the_driver, &count, handles));
  ASSERT_EQ(2u, count);
  EXPECT_NE(nullptr, handles[0]);
  EXPECT_NE(handles[0], handles[1]);
  EXPECT_EQ(nullptr, handles[2]);
  // anygpu's devices are the driver's, in its order, in one context.
  EXPECT_EQ(handles[0], native_device(0));
  EXPECT_EQ(handles[1], native_device(1));
  EXPECT_EQ(natives[0].context, natives[1].context);
  // Room for one: the first.
  ze_device_handle_t first = nullptr;
  count = 1;
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeDeviceGet(the_driver, &count, &first));
  EXPECT_EQ(1u, count);
  EXPECT_EQ(handles[0], first);
}

TEST_F(LevelZeroDevices, EachDeviceHasItsOwnNameAndUuid) {
  const ze_device_properties_t zero = properties(native_device(0));
  const ze_device_properties_t one = properties(native_device(1));
  EXPECT_STREQ("anygpu Level Zero test device 0", zero.name);
  EXPECT_STREQ("anygpu Level Zero test device 1", one.name);
  EXPECT_NE(0, memcmp(zero.uuid, one.uuid, sizeof zero.uuid));
  // One model: the same PCI device id and limits, as two of one GPU have.
  EXPECT_EQ(ZE_DEVICE_TYPE_GPU, one.type);
  EXPECT_EQ(zero.deviceId, one.deviceId);
  EXPECT_EQ(zero.vendorId, one.vendorId);
  // And so through anygpu.
  ag_device_properties p[2] = {};
  for (int i = 0; i < 2; ++i) {
    p[i].struct_size = sizeof p[i];
    ASSERT_AG(agDeviceGetProperties(devices[i], &p[i]));
    EXPECT_EQ(AG_BACKEND_LEVEL_ZERO, p[i].backend);
    EXPECT_EQ("anygpu Level Zero test device " + std::to_string(i), p[i].name);
  }
  EXPECT_NE(0, memcmp(p[0].uuid, p[1].uuid, sizeof p[0].uuid));
  EXPECT_EQ(0, memcmp(p[1].uuid, one.uuid, sizeof one.uuid));
}

TEST_F(LevelZeroDevices, EachDeviceReachesTheOthersMemoryAndItsOwn) {
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      ze_bool_t value = 7;
      ASSERT_EQ(ZE_RESULT_SUCCESS,
                ze.zeDeviceCanAccessPeer(native_device(i), native_device(j), &value));
      EXPECT_EQ(1u, value) << "device " << i << " with device " << j;
    }
  }
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
            ze.zeDeviceCanAccessPeer(native_device(0), nullptr, nullptr));
  // anygpu: peers both ways (a device is not its own peer there), enabled with nothing to do.
  for (int i = 0; i < 2; ++i) {
    ag_device device = devices[i], peer = devices[1 - i];
    int can = -1;
    ASSERT_AG(agDeviceCanAccessPeer(device, peer, &can));
    EXPECT_EQ(1, can);
    ASSERT_AG(agDeviceCanAccessPeer(device, device, &can));
    EXPECT_EQ(0, can);
    EXPECT_AG(agDeviceEnablePeerAccess(device, peer, 0));
    EXPECT_AG(agDeviceDisablePeerAccess(device, peer));
  }
}

TEST_F(LevelZeroDevices, AnAllocationIsTheDevicesItWasMadeFor) {
  void* memory[2] = {};
  for (int i = 0; i < 2; ++i) ASSERT_AG(agMemAlloc(devices[i], 4096, &memory[i]));
  void* host = nullptr;
  ASSERT_AG(agMemAllocHost(devices[1], 4096, &host));
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(testing::Message() << "device " << i);
    const auto [type, device] = owner(memory[i]);
    EXPECT_EQ(kMemoryTypeDevice, type);
    EXPECT_EQ(native_device(i), device);
    // Anywhere in it.
    EXPECT_EQ(native_device(i), owner(static_cast<char*>(memory[i]) + 4095).second);
  }
  EXPECT_EQ(std::make_pair(kMemoryTypeHost, ze_device_handle_t{}), owner(host));
  int on_the_stack = 0;
  EXPECT_EQ(std::make_pair(kMemoryTypeUnknown, ze_device_handle_t{}), owner(&on_the_stack));
  EXPECT_AG(agMemFreeHost(devices[1], host));
  for (int i = 0; i < 2; ++i) EXPECT_AG(agMemFree(devices[i], memory[i]));
}

// The specification lets a pool's events be used only on the devices it was made for (all of them
// when it names none): the driver refuses the others' lists.
TEST_F(LevelZeroDevices, AnEventIsUsableOnlyOnTheDevicesOfItsPool) {
  ze_event_pool_desc_t pool_desc{};
  pool_desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
  pool_desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
  pool_desc.count = 1;
  ze_device_handle_t zero = native_device(0);
  ze_event_pool_handle_t pools[2] = {};  // device 0's, every device's
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeEventPoolCreate(context(), &pool_desc, 1, &zero, &pools[0]));
  ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeEventPoolCreate(context(), &pool_desc, 0, nullptr, &pools[1]));
  ze_event_desc_t event_desc{};
  event_desc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
  event_desc.signal = event_desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  ze_event_handle_t events[2] = {};
  ze_command_list_handle_t lists[2] = {};
  ze_command_queue_desc_t list_desc{};
  list_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  list_desc.flags = ZE_COMMAND_QUEUE_FLAG_IN_ORDER;
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeEventCreate(pools[i], &event_desc, &events[i]));
    ASSERT_EQ(ZE_RESULT_SUCCESS, ze.zeEventHostSignal(events[i]));
    ASSERT_EQ(ZE_RESULT_SUCCESS,
              ze.zeCommandListCreateImmediate(context(), native_device(i), &list_desc, &lists[i]));
  }
  // Device 0's event on device 0's list; not on device 1's.
  EXPECT_EQ(ZE_RESULT_SUCCESS, ze.zeCommandListAppendWaitOnEvents(lists[0], 1, &events[0]));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            ze.zeCommandListAppendWaitOnEvents(lists[1], 1, &events[0]));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            ze.zeCommandListAppendBarrier(lists[1], events[0], 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
            ze.zeCommandListAppendEventReset(lists[1], events[0]));
  // Every device's event on both.
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(ZE_RESULT_SUCCESS, ze.zeCommandListAppendWaitOnEvents(lists[i], 1, &events[1]));
    EXPECT_EQ(ZE_RESULT_SUCCESS, ze.zeCommandListAppendBarrier(lists[i], nullptr, 0, nullptr));
  }
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(ZE_RESULT_SUCCESS, ze.zeCommandListDestroy(lists[i]));
    EXPECT_EQ(ZE_RESULT_SUCCESS, ze.zeEventDestroy(events[i]));
    EXPECT_EQ(ZE_RESULT_SUCCESS, ze.zeEventPoolDestroy(pools[i]));
  }
}

// agStreamWaitEvent takes an event of another device of the backend: a stream of device 1 waits
// for device 0's work.
TEST_F(LevelZeroDevices, AStreamWaitsOnAnotherDevicesEvent) {
  constexpr size_t kWords = 1 << 16;
  DeviceBuffer<uint32_t> source(devices[0], kWords), there(devices[1], kWords);
  ag_stream streams[2] = {};
  for (int i = 0; i < 2; ++i) ASSERT_AG(agStreamCreate(devices[i], 0, &streams[i]));
  ag_event filled = nullptr;
  ASSERT_AG(agEventCreate(devices[0], 0, &filled));
  ASSERT_AG(agMemsetD32Async(source.get(), 0x600dcafeu, kWords, streams[0]));
  ASSERT_AG(agEventRecord(filled, streams[0]));
  ASSERT_AG(agStreamWaitEvent(streams[1], filled, 0));
  ASSERT_AG(agMemcpyPeerAsync(there.get(), devices[1], source.get(), devices[0],
                              kWords * sizeof(uint32_t), streams[1]));
  ASSERT_AG(agStreamSynchronize(streams[1]));
  EXPECT_EQ(std::vector<uint32_t>(kWords, 0x600dcafeu), there.download());
  EXPECT_AG(agEventDestroy(filled));
  for (int i = 0; i < 2; ++i) EXPECT_AG(agStreamDestroy(streams[i]));
}

// Lists and kernels of device 1 run as device 0's do; device 1's kernel reads device 0's memory.
TEST_F(LevelZeroDevices, TheSecondDeviceRunsKernelsOnEitherDevicesMemory) {
  constexpr int n = 256;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  DeviceBuffer<float> x_there(devices[0], x), y_here(devices[1], y);
  ASSERT_AG(agDeviceEnablePeerAccess(devices[1], devices[0], 0));
  TestModule module(devices[1]);
  ag_function saxpy = module.function("saxpy");
  ag_stream stream = nullptr;
  ASSERT_AG(agStreamCreate(devices[1], 0, &stream));
  int count = n;
  float a = 2.0f;
  void* px = x_there.get();
  void* py = y_here.get();
  void* params[] = {&count, &a, &px, &py};
  ASSERT_AG(agLaunchKernel(saxpy, n / 64, 1, 1, 64, 1, 1, 0, stream, params, nullptr));
  ASSERT_AG(agStreamSynchronize(stream));
  const std::vector<float> result = y_here.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(2.0f * static_cast<float>(i) + 1.0f, result[i]) << i;
  EXPECT_AG(agStreamDestroy(stream));
  EXPECT_AG(agDeviceDisablePeerAccess(devices[1], devices[0]));
}

}  // namespace
}  // namespace anygpu_test
