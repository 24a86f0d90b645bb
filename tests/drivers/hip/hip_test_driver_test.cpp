// The HIP test driver on its own: dlopen'ed and called through hip_api.h's types, as the HIP
// backend calls it, to show that it behaves as HIP's runtime does before anygpu is put on it.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "hip_test_driver_control.h"
#include "loaders/hip/hip_api.h"
#include "loaders/symbol_resolver.h"
#include "shim/code_object/bundle_ids.h"
#include "shim/code_object/offload_bundle.h"

using namespace anygpu::hip;

namespace {

// Values of hip_runtime_api.h that hip_api.h does not name.
constexpr hipDeviceAttribute_t kUnknownAttribute = 100000;

const char* const kDriverVariables[] = {
    "ANYGPU_HIP_TEST_KERNELS",         "ANYGPU_HIP_TEST_ARCH",    "ANYGPU_HIP_TEST_DEVICE_COUNT",
    "ANYGPU_HIP_TEST_RUNTIME_VERSION", "ANYGPU_HIP_TEST_MISSING", "ANYGPU_HIP_TEST_FAIL"};

struct Driver {
  void* handle = nullptr;
  HipFunctions hip;
  PFN_hipGetProcAddress get_proc_address = nullptr;
  anygpu_hip_test_fail_fn fail = nullptr;
  anygpu_hip_test_clear_failures_fn clear_failures = nullptr;
  anygpu_hip_test_live_objects_fn live_objects = nullptr;
  anygpu_hip_test_calls_fn calls = nullptr;
  anygpu_hip_test_last_image_fn last_image = nullptr;
  anygpu_hip_test_device_of_fn device_of = nullptr;

  // The target id of the code object the last load took, "" before any.
  std::string last_target(bool* from_bundle = nullptr) const {
    char target[64] = "";
    int bundle = -1;
    last_image(target, sizeof target, &bundle);
    if (from_bundle) *from_bundle = bundle == 1;
    return target;
  }
};

template <typename T>
void load(void* handle, const char* name, T* pointer) {
  *pointer = reinterpret_cast<T>(dlsym(handle, name));
}

// Opens `path` with exactly `environment` set among the driver's variables, which it reads when
// loaded. Each driver is opened once per process and never closed, as anygpu treats runtimes.
Driver* open_driver(const char* path,
                    const std::vector<std::pair<const char*, std::string>>& environment) {
  for (const char* variable : kDriverVariables) unsetenv(variable);
  for (const auto& [name, value] : environment) setenv(name, value.c_str(), 1);
  auto* driver = new Driver;
  driver->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  for (const char* variable : kDriverVariables) unsetenv(variable);
  if (!driver->handle) return driver;
  anygpu::resolve_functions(driver->hip, anygpu::dlsym_lookup(driver->handle));
  load(driver->handle, "hipGetProcAddress", &driver->get_proc_address);
  load(driver->handle, "anygpu_hip_test_fail", &driver->fail);
  load(driver->handle, "anygpu_hip_test_clear_failures", &driver->clear_failures);
  load(driver->handle, "anygpu_hip_test_live_objects", &driver->live_objects);
  load(driver->handle, "anygpu_hip_test_calls", &driver->calls);
  load(driver->handle, "anygpu_hip_test_last_image", &driver->last_image);
  load(driver->handle, "anygpu_hip_test_device_of", &driver->device_of);
  return driver;
}

// The HIP 6.2 build with two devices.
Driver& new_driver() {
  static Driver* driver = open_driver(ANYGPU_HIP_TEST_DRIVER_PATH,
                                      {{"ANYGPU_HIP_TEST_KERNELS", ANYGPU_TEST_KERNELS_PATH},
                                       {"ANYGPU_HIP_TEST_DEVICE_COUNT", "2"},
                                       {"ANYGPU_HIP_TEST_MISSING", "hipMemsetD8Async"}});
  return *driver;
}

// Only the test that uses it opens it, so that its first hipInit is the one the environment fails.
Driver& hip5_driver() {
  static Driver* driver = open_driver(ANYGPU_HIP_TEST_HIP5_DRIVER_PATH,
                                      {{"ANYGPU_HIP_TEST_KERNELS", ANYGPU_TEST_KERNELS_PATH},
                                       {"ANYGPU_HIP_TEST_FAIL", "hipInit:100"},
                                       {"ANYGPU_HIP_TEST_ARCH", "gfx1100"}});
  return *driver;
}

// The incomplete build, without devices.
Driver& incomplete_driver() {
  static Driver* driver =
      open_driver(ANYGPU_HIP_TEST_INCOMPLETE_DRIVER_PATH, {{"ANYGPU_HIP_TEST_DEVICE_COUNT", "0"}});
  return *driver;
}

std::vector<unsigned char> read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<unsigned char>((std::istreambuf_iterator<char>(file)),
                                    std::istreambuf_iterator<char>());
}

// The gfx90a code object of the test kernels (xnack and sramecc "any"), with its ELF header's
// xnack setting changed: 0x100 any, 0x200 off, 0x300 on (EF_AMDGPU_FEATURE_XNACK_V4).
std::vector<unsigned char> gfx90a_code_object(unsigned xnack = 0x100) {
  std::vector<unsigned char> code = read_file(ANYGPU_HIP_TEST_GFX90A_PATH);
  if (code.size() < 64) return {};
  uint32_t flags;
  memcpy(&flags, code.data() + 48, sizeof flags);  // e_flags
  flags = (flags & ~0x300u) | xnack;
  memcpy(code.data() + 48, &flags, sizeof flags);
  return code;
}

#define SKIP_WITHOUT(code, path) \
  if ((code).empty()) GTEST_SKIP() << path << " was not built (no AMD kernels in this build)"

// Each test runs on device 0 and leaves nothing alive.
class HipTestDriver : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(nullptr, d.handle) << dlerror();
    ASSERT_EQ(hipSuccess, hip.hipInit(0));
    ASSERT_EQ(hipSuccess, hip.hipSetDevice(0));
    ASSERT_EQ(0, d.live_objects());
  }
  void TearDown() override {
    if (!d.handle) return;
    d.clear_failures();
    EXPECT_EQ(0, d.live_objects()) << "a test leaked runtime objects";
  }

  Driver& d = new_driver();
  const HipFunctions& hip = d.hip;
};

TEST_F(HipTestDriver, ExportsEveryFunctionAnygpuCalls) {
  visit_functions(d.hip, [](auto& function, const char* symbol, const char*, bool) {
    EXPECT_NE(nullptr, reinterpret_cast<void*>(function)) << symbol;
  });
  EXPECT_NE(nullptr, d.get_proc_address);
  // Nothing of anygpu inside leaks out.
  EXPECT_EQ(nullptr, dlsym(d.handle, "agInit"));
}

TEST_F(HipTestDriver, ReportsItsVersionsAndDevices) {
  int version = 0;
  ASSERT_EQ(hipSuccess, hip.hipRuntimeGetVersion(&version));
  EXPECT_EQ(60200000, version);
  ASSERT_EQ(hipSuccess, hip.hipDriverGetVersion(&version));
  EXPECT_EQ(60200000, version);
  int count = 0;
  ASSERT_EQ(hipSuccess, hip.hipGetDeviceCount(&count));
  EXPECT_EQ(2, count);
  char name[64];
  ASSERT_EQ(hipSuccess, hip.hipDeviceGetName(name, sizeof name, 1));
  EXPECT_STREQ("anygpu HIP test device 1", name);
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipDeviceGetName(name, sizeof name, 2));
  size_t total = 0;
  ASSERT_EQ(hipSuccess, hip.hipDeviceTotalMem(&total, 0));
  EXPECT_EQ(size_t{16} << 30, total);
  int value = 0;
  ASSERT_EQ(hipSuccess, hip.hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, 0));
  EXPECT_EQ(64, value);
  ASSERT_EQ(hipSuccess, hip.hipDeviceGetAttribute(&value, hipDeviceAttributeMaxBlockDimZ, 0));
  EXPECT_EQ(1024, value);
  ASSERT_EQ(hipSuccess,
            hip.hipDeviceGetAttribute(&value, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
  EXPECT_EQ(65536, value);
  ASSERT_EQ(hipSuccess,
            hip.hipDeviceGetAttribute(&value, hipDeviceAttributeComputeCapabilityMajor, 0));
  EXPECT_EQ(9, value);
  EXPECT_EQ(hipErrorInvalidValue, hip.hipDeviceGetAttribute(&value, kUnknownAttribute, 0));
}

TEST_F(HipTestDriver, WritesBothPropertiesLayoutsToTheirOwnSize) {
  // HIP 5's layout: 792 bytes, gcnArchName at 396; HIP 6's: 1472 bytes, gcnArchName at 1160.
  std::vector<unsigned char> buffer(kPropertiesBufferBytes, 0xee);
  ASSERT_EQ(hipSuccess, hip.hipGetDeviceProperties(buffer.data(), 0));
  EXPECT_STREQ("anygpu HIP test device 0", reinterpret_cast<char*>(buffer.data()));
  EXPECT_STREQ("gfx90a:sramecc+:xnack-",
               reinterpret_cast<char*>(buffer.data() + kR0000GcnArchNameOffset));
  EXPECT_NE(0xee, buffer[791]);  // zeroed padding at least
  EXPECT_EQ(0xee, buffer[792]);
  std::fill(buffer.begin(), buffer.end(), 0xee);
  ASSERT_EQ(hipSuccess, hip.hipGetDevicePropertiesR0600(buffer.data(), 1));
  EXPECT_STREQ("anygpu HIP test device 1", reinterpret_cast<char*>(buffer.data()));
  EXPECT_STREQ("gfx90a:sramecc+:xnack-",
               reinterpret_cast<char*>(buffer.data() + kR0600GcnArchNameOffset));
  EXPECT_EQ(0xee, buffer[1472]);
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipGetDeviceProperties(buffer.data(), 2));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipGetDeviceProperties(nullptr, 0));
}

TEST_F(HipTestDriver, TheCurrentDeviceIsPerThread) {
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  int device = -1, seen = -1;
  std::thread other([&] { hip.hipGetDevice(&seen); });
  other.join();
  EXPECT_EQ(0, seen);  // a new thread starts on device 0
  ASSERT_EQ(hipSuccess, hip.hipGetDevice(&device));
  EXPECT_EQ(1, device);
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipSetDevice(2));
  // Memory comes from the current device.
  void* pointer = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&pointer, 4096));
  EXPECT_EQ(1, d.device_of(pointer));
  EXPECT_EQ(1, d.device_of(static_cast<char*>(pointer) + 4095));
  EXPECT_EQ(-1, d.device_of(static_cast<char*>(pointer) + 4096));
  size_t free1 = 0, free0 = 0, total = 0;
  ASSERT_EQ(hipSuccess, hip.hipMemGetInfo(&free1, &total));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(0));
  ASSERT_EQ(hipSuccess, hip.hipMemGetInfo(&free0, &total));
  EXPECT_EQ(free0 - 4096, free1);
  EXPECT_EQ(hipSuccess, hip.hipFree(pointer));
}

TEST_F(HipTestDriver, CopiesAndSetsMemoryInsideAllocationsOnly) {
  void *a = nullptr, *b = nullptr, *host = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&a, 256));
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&b, 256));
  ASSERT_EQ(hipSuccess, hip.hipHostMalloc(&host, 256, hipHostMallocDefault));
  std::vector<unsigned char> in(256), out(256);
  for (int i = 0; i < 256; ++i) in[i] = static_cast<unsigned char>(i);
  EXPECT_EQ(hipSuccess, hip.hipMemcpyHtoD(a, in.data(), 256));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoD(b, a, 256));
  EXPECT_EQ(hipSuccess, hip.hipMemsetD8(b, 7, 16));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoH(out.data(), b, 256));
  EXPECT_EQ(7, out[15]);
  EXPECT_EQ(16, out[16]);
  EXPECT_EQ(255, out[255]);
  // Past the end, or memory the runtime did not allocate.
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemcpyHtoD(static_cast<char*>(a) + 1, in.data(), 256));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemcpyDtoH(out.data(), in.data(), 16));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemsetD8(out.data(), 0, 16));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFree(static_cast<char*>(a) + 1));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFree(host));              // not hipMalloc's
  EXPECT_EQ(hipErrorInvalidValue, hip.hipHostFree(a));             // not hipHostMalloc's
  EXPECT_EQ(hipSuccess, hip.hipMemcpyHtoD(host, in.data(), 256));  // pinned memory counts
  EXPECT_EQ(hipSuccess, hip.hipFree(nullptr));
  void* none = reinterpret_cast<void*>(1);
  EXPECT_EQ(hipSuccess, hip.hipMalloc(&none, 0));
  EXPECT_EQ(nullptr, none);
  EXPECT_EQ(hipErrorInvalidValue, hip.hipHostMalloc(&none, 16, 0x8));
  EXPECT_EQ(hipSuccess, hip.hipFree(a));
  EXPECT_EQ(hipSuccess, hip.hipFree(b));
  EXPECT_EQ(hipSuccess, hip.hipHostFree(host));
}

// Any two devices can be peers (all live in host memory). Access goes from the current device to
// another, one way.
TEST_F(HipTestDriver, PeerAccessIsOneWay) {
  int can = -1;
  EXPECT_EQ(hipSuccess, hip.hipDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(1, can);
  EXPECT_EQ(hipSuccess, hip.hipDeviceCanAccessPeer(&can, 1, 0));
  EXPECT_EQ(1, can);
  EXPECT_EQ(hipSuccess, hip.hipDeviceCanAccessPeer(&can, 1, 1));
  EXPECT_EQ(0, can);  // not its own peer
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipDeviceCanAccessPeer(&can, 0, 2));
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipDeviceCanAccessPeer(&can, -1, 0));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipDeviceCanAccessPeer(nullptr, 0, 1));

  EXPECT_EQ(hipErrorInvalidValue, hip.hipDeviceEnablePeerAccess(1, 1));
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipDeviceEnablePeerAccess(0, 0));  // itself
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipDeviceEnablePeerAccess(2, 0));
  EXPECT_EQ(hipErrorPeerAccessNotEnabled, hip.hipDeviceDisablePeerAccess(1));
  EXPECT_EQ(hipSuccess, hip.hipDeviceEnablePeerAccess(1, 0));
  EXPECT_EQ(hipErrorPeerAccessAlreadyEnabled, hip.hipDeviceEnablePeerAccess(1, 0));
  // One way: device 1 has not been given device 0's memory.
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  EXPECT_EQ(hipErrorPeerAccessNotEnabled, hip.hipDeviceDisablePeerAccess(0));
  EXPECT_EQ(hipSuccess, hip.hipDeviceEnablePeerAccess(0, 0));
  EXPECT_EQ(hipSuccess, hip.hipDeviceDisablePeerAccess(0));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(0));
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipDeviceDisablePeerAccess(0));
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipDeviceDisablePeerAccess(2));

  // An injected failure changes nothing.
  ASSERT_EQ(0, d.fail("hipDeviceCanAccessPeer", hipErrorInvalidDevice, 1));
  ASSERT_EQ(0, d.fail("hipDeviceDisablePeerAccess", hipErrorInvalidValue, 1));
  ASSERT_EQ(0, d.fail("hipDeviceEnablePeerAccess", hipErrorInvalidValue, 1));
  can = -1;
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(-1, can);
  EXPECT_EQ(hipErrorInvalidValue, hip.hipDeviceDisablePeerAccess(1));
  EXPECT_EQ(hipSuccess, hip.hipDeviceDisablePeerAccess(1));  // still enabled until now
  EXPECT_EQ(hipErrorInvalidValue, hip.hipDeviceEnablePeerAccess(1, 0));
  EXPECT_EQ(hipErrorPeerAccessNotEnabled, hip.hipDeviceDisablePeerAccess(1));  // as it was

  EXPECT_STREQ("hipErrorPeerAccessAlreadyEnabled",
               hip.hipGetErrorName(hipErrorPeerAccessAlreadyEnabled));
  EXPECT_STREQ("peer access has not been enabled",
               hip.hipGetErrorString(hipErrorPeerAccessNotEnabled));
}

// hipMemcpyPeer(Async): device memory of one device into another's, peer access enabled or not,
// each side inside an allocation of its own device; the async one in order on its stream.
TEST_F(HipTestDriver, CopiesBetweenTwoDevicesMemory) {
  constexpr int n = 256;
  constexpr size_t bytes = n * sizeof(int);
  void *a = nullptr, *b = nullptr, *host = nullptr;
  hipStream_t stream = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&a, bytes));  // device 0's
  ASSERT_EQ(hipSuccess, hip.hipHostMalloc(&host, bytes, hipHostMallocDefault));
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&b, bytes));  // device 1's
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(0));

  std::vector<int> in(n), next(n), out(n, -1);
  for (int i = 0; i < n; ++i) {
    in[i] = i * 7;
    next[i] = -i;
  }
  ASSERT_EQ(hipSuccess, hip.hipMemcpyHtoD(a, in.data(), bytes));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyPeer(b, 1, a, 0, bytes));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoH(out.data(), b, bytes));
  EXPECT_EQ(in, out);
  // Between the copies queued before and after it, into b from its second element on.
  int* b1 = static_cast<int*>(b) + 1;
  EXPECT_EQ(hipSuccess, hip.hipMemcpyHtoDAsync(a, next.data(), bytes, stream));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyPeerAsync(b1, 1, a, 0, bytes - sizeof(int), stream));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoHAsync(out.data(), b, bytes, stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  EXPECT_EQ(in[0], out[0]);
  EXPECT_EQ(std::vector<int>(next.begin(), next.end() - 1),
            std::vector<int>(out.begin() + 1, out.end()));
  // Back the other way, on the null stream.
  EXPECT_EQ(hipSuccess, hip.hipMemcpyPeerAsync(a, 0, b, 1, bytes, nullptr));
  std::vector<int> back(n, -1);
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoH(back.data(), a, bytes));
  EXPECT_EQ(out, back);

  // Each side inside one device allocation of its own device.
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemcpyPeer(b, 0, a, 0, bytes));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemcpyPeer(b, 1, a, 1, bytes));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemcpyPeer(b1, 1, a, 0, bytes));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemcpyPeer(b, 1, host, 0, bytes));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemcpyPeerAsync(out.data(), 1, a, 0, 4, stream));
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipMemcpyPeer(b, 2, a, 0, bytes));
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipMemcpyPeerAsync(b, 1, a, -1, bytes, stream));
  int unknown = 0;
  EXPECT_EQ(hipErrorInvalidHandle,
            hip.hipMemcpyPeerAsync(b, 1, a, 0, bytes, reinterpret_cast<hipStream_t>(&unknown)));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyPeer(nullptr, 1, nullptr, 0, 0));  // nothing to copy

  // An injected failure copies nothing.
  ASSERT_EQ(hipSuccess, hip.hipMemsetD8(b, 0, bytes));
  ASSERT_EQ(0, d.fail("hipMemcpyPeer", hipErrorIllegalAddress, 1));
  ASSERT_EQ(0, d.fail("hipMemcpyPeerAsync", hipErrorIllegalAddress, 1));
  EXPECT_EQ(hipErrorIllegalAddress, hip.hipMemcpyPeer(b, 1, a, 0, bytes));
  EXPECT_EQ(hipErrorIllegalAddress, hip.hipMemcpyPeerAsync(b, 1, a, 0, bytes, stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoH(out.data(), b, bytes));
  EXPECT_EQ(std::vector<int>(n, 0), out);

  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(stream));
  EXPECT_EQ(hipSuccess, hip.hipFree(b));
  EXPECT_EQ(hipSuccess, hip.hipFree(a));
  EXPECT_EQ(hipSuccess, hip.hipHostFree(host));
}

// A pool of `device`'s memory, as anygpu asks for one.
hipMemPoolProps pool_props(int device) {
  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = device;
  return props;
}

// A stream callback that holds its stream until `*flag` is set.
void wait_for_flag(hipStream_t, hipError_t, void* flag) {
  while (!static_cast<std::atomic<bool>*>(flag)->load()) std::this_thread::yield();
}

uint64_t pool_attribute(const HipFunctions& hip, hipMemPool_t pool, hipMemPoolAttr attribute) {
  uint64_t value = ~uint64_t{0};
  EXPECT_EQ(hipSuccess, hip.hipMemPoolGetAttribute(pool, attribute, &value));
  return value;
}

// Of the calling thread's current device.
size_t free_device_bytes(const HipFunctions& hip) {
  size_t free_bytes = 0, total_bytes = 0;
  EXPECT_EQ(hipSuccess, hip.hipMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

// Stream-ordered allocation from a pool: device memory from the call on, the block the pool's
// again in the stream's order (at once for the stream that freed it), counted in whole 256-byte
// blocks as used while allocated and reserved while the pool keeps it.
TEST_F(HipTestDriver, PoolsHandOutMemoryInStreamOrder) {
  const hipMemPoolProps props = pool_props(0);
  hipMemPool_t pool = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMemPoolCreate(&pool, &props));
  hipStream_t stream = nullptr, other = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&other, hipStreamNonBlocking));
  constexpr int n = 250;  // 1000 bytes, a block of 1024
  void* plain = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&plain, n * sizeof(int)));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrReleaseThreshold));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  const size_t free_before = free_device_bytes(hip);

  void* p = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&p, n * sizeof(int), pool, stream));
  EXPECT_NE(nullptr, p);
  EXPECT_EQ(0, d.device_of(p));
  EXPECT_EQ(1024u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(1024u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(free_before - 1024, free_device_bytes(hip));
  EXPECT_EQ(4, d.live_objects());  // two streams and two allocations

  // Device memory: memsets and copies take it, up to its block's end.
  std::vector<int> out(n, -1);
  EXPECT_EQ(hipSuccess, hip.hipMemsetD32Async(p, 0x600d, n, stream));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoDAsync(plain, p, n * sizeof(int), stream));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoHAsync(out.data(), plain, n * sizeof(int), stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  EXPECT_EQ(std::vector<int>(n, 0x600d), out);
  EXPECT_EQ(hipSuccess, hip.hipMemsetD32(p, 7, 256));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemsetD32(p, 7, 257));

  // The free waits its turn on the stream, held here by a callback: the block stays reserved,
  // another stream gets a block of its own, the freeing stream this one at once.
  std::atomic<bool> go{false};
  ASSERT_EQ(hipSuccess, hip.hipStreamAddCallback(stream, wait_for_flag, &go, 0));
  ASSERT_EQ(hipSuccess, hip.hipFreeAsync(p, stream));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(1024u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(3, d.live_objects());
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemsetD8(p, 0, 1));  // no longer memory
  EXPECT_EQ(-1, d.device_of(p));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFreeAsync(p, stream));
  void *q = nullptr, *r = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&q, 600, pool, other));  // 768 bytes
  EXPECT_NE(p, q);
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&r, 1000, pool, stream));
  EXPECT_EQ(p, r);
  EXPECT_EQ(1792u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(1792u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  go = true;
  EXPECT_EQ(hipSuccess, hip.hipMemsetD8Async(r, 1, 1000, stream));

  // Release threshold 0: each block goes back once its free has completed.
  ASSERT_EQ(hipSuccess, hip.hipFreeAsync(r, stream));
  ASSERT_EQ(hipSuccess, hip.hipFreeAsync(q, other));
  ASSERT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  ASSERT_EQ(hipSuccess, hip.hipStreamSynchronize(other));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(free_before, free_device_bytes(hip));

  // Within a threshold of 4096 bytes the pool keeps what it can: of a 2048 and a 4096-byte block
  // freed (6144 reserved), the larger stays and serves a later 3000-byte request on any stream.
  uint64_t threshold = 4096;
  ASSERT_EQ(hipSuccess,
            hip.hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &threshold));
  EXPECT_EQ(4096u, pool_attribute(hip, pool, hipMemPoolAttrReleaseThreshold));
  void *a = nullptr, *b = nullptr, *c = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&a, 2048, pool, stream));
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&b, 4096, pool, stream));
  EXPECT_EQ(6144u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  ASSERT_EQ(hipSuccess, hip.hipFreeAsync(a, stream));
  ASSERT_EQ(hipSuccess, hip.hipFreeAsync(b, stream));
  ASSERT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(4096u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(free_before - 4096, free_device_bytes(hip));
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&c, 3000, pool, other));
  EXPECT_EQ(b, c);
  EXPECT_EQ(4096u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(4096u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));

  // Trimming gives back kept blocks, never what is allocated (here with no threshold to keep
  // within).
  threshold = ~uint64_t{0};
  ASSERT_EQ(hipSuccess,
            hip.hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &threshold));
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&a, 1024, pool, other));
  ASSERT_EQ(hipSuccess, hip.hipFreeAsync(c, other));
  ASSERT_EQ(hipSuccess, hip.hipStreamSynchronize(other));
  EXPECT_EQ(1024u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(5120u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(hipSuccess, hip.hipMemPoolTrimTo(pool, 8192));
  EXPECT_EQ(5120u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(hipSuccess, hip.hipMemPoolTrimTo(pool, 0));
  EXPECT_EQ(1024u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  // hipFree frees it too, its device's work done first; the block stays kept.
  EXPECT_EQ(hipSuccess, hip.hipMemsetD8Async(a, 3, 1024, other));
  EXPECT_EQ(hipSuccess, hip.hipFree(a));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(1024u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFreeAsync(a, other));

  // Destroyed, the pool gives back what it keeps.
  EXPECT_EQ(hipSuccess, hip.hipMemPoolDestroy(pool));
  EXPECT_EQ(free_before, free_device_bytes(hip));
  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(other));
  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(stream));
  EXPECT_EQ(hipSuccess, hip.hipFree(plain));
}

// hipMallocAsync takes the default pool of the stream's device (release threshold 0), and the
// null stream frees at once; a pool's memory is its own device's, whatever the stream.
TEST_F(HipTestDriver, DefaultPoolsAndAnotherDevicesPool) {
  hipStream_t stream = nullptr, on_one = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&stream, 0));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&on_one, 0));
  const size_t free_one = free_device_bytes(hip);
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(0));
  const size_t free_before = free_device_bytes(hip);
  void *a = nullptr, *b = nullptr, *c = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMallocAsync(&a, 4096, stream));
  ASSERT_EQ(hipSuccess, hip.hipMallocAsync(&b, 100, nullptr));  // the null stream
  ASSERT_EQ(hipSuccess, hip.hipMallocAsync(&c, 100, on_one));   // device 1's default pool
  EXPECT_EQ(0, d.device_of(a));
  EXPECT_EQ(1, d.device_of(c));
  EXPECT_EQ(free_before - 4096 - 256, free_device_bytes(hip));
  std::vector<unsigned char> out(4096, 0);
  EXPECT_EQ(hipSuccess, hip.hipMemsetD8Async(a, 0x5a, 4096, stream));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoHAsync(out.data(), a, 4096, stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  EXPECT_EQ(std::vector<unsigned char>(4096, 0x5a), out);
  EXPECT_EQ(hipSuccess, hip.hipFreeAsync(b, nullptr));
  EXPECT_EQ(free_before - 4096, free_device_bytes(hip));  // given back at once
  EXPECT_EQ(hipSuccess, hip.hipFreeAsync(c, on_one));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(on_one));

  // Held pending on its stream, the block serves that stream again at once.
  std::atomic<bool> go{false};
  void* again = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipStreamAddCallback(stream, wait_for_flag, &go, 0));
  ASSERT_EQ(hipSuccess, hip.hipFreeAsync(a, stream));
  ASSERT_EQ(hipSuccess, hip.hipMallocAsync(&again, 4000, stream));
  EXPECT_EQ(a, again);
  go = true;
  ASSERT_EQ(hipSuccess, hip.hipFreeAsync(again, stream));
  ASSERT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  EXPECT_EQ(free_before, free_device_bytes(hip));
  EXPECT_EQ(2, d.live_objects());

  // Device 1's pool, used on device 0's stream: the memory is device 1's.
  const hipMemPoolProps props = pool_props(1);
  hipMemPool_t pool = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMemPoolCreate(&pool, &props));
  void *there = nullptr, *here = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&there, 64, pool, stream));
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&here, 64));
  EXPECT_EQ(1, d.device_of(there));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyPeer(there, 1, here, 0, 64));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemcpyPeer(there, 0, here, 0, 64));
  EXPECT_EQ(free_before - 64, free_device_bytes(hip));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  EXPECT_EQ(free_one - 256, free_device_bytes(hip));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(0));
  // Destroyed with an allocation live: the handle goes at once, the pool once it is freed.
  EXPECT_EQ(hipSuccess, hip.hipMemPoolDestroy(pool));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolDestroy(pool));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolTrimTo(pool, 0));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMallocFromPoolAsync(&b, 64, pool, stream));
  EXPECT_EQ(hipSuccess, hip.hipMemsetD8(there, 1, 64));
  EXPECT_EQ(hipSuccess, hip.hipFreeAsync(there, stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  EXPECT_EQ(free_one, free_device_bytes(hip));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(0));
  EXPECT_EQ(hipSuccess, hip.hipFree(here));
  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(on_one));
  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(stream));
}

// Every error the pool calls have, as HIP's checks give them, and injected failures that change
// nothing.
TEST_F(HipTestDriver, PoolCallsRefuseWhatHipRefuses) {
  hipMemPool_t pool = nullptr;
  hipMemPoolProps props = pool_props(0);
  props.allocType = 0;
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolCreate(&pool, &props));
  props = pool_props(0);
  props.location.type = 0;
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolCreate(&pool, &props));
  for (int device : {-1, 2}) {
    props = pool_props(device);
    EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolCreate(&pool, &props)) << device;
  }
  props = pool_props(0);
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolCreate(nullptr, &props));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolCreate(&pool, nullptr));
  EXPECT_EQ(nullptr, pool);
  ASSERT_EQ(hipSuccess, hip.hipMemPoolCreate(&pool, &props));

  int unknown = 0;
  const auto bogus_pool = reinterpret_cast<hipMemPool_t>(&unknown);
  const auto bogus_stream = reinterpret_cast<hipStream_t>(&unknown);
  hipStream_t stream = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&stream, 0));

  void* p = &unknown;
  EXPECT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&p, 0, pool, stream));  // NULL, as HIP gives
  EXPECT_EQ(nullptr, p);
  p = &unknown;
  EXPECT_EQ(hipSuccess, hip.hipMallocAsync(&p, 0, stream));
  EXPECT_EQ(nullptr, p);
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMallocFromPoolAsync(nullptr, 64, pool, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMallocFromPoolAsync(&p, 64, nullptr, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMallocFromPoolAsync(&p, 64, bogus_pool, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMallocFromPoolAsync(&p, 64, pool, bogus_stream));
  EXPECT_EQ(hipErrorOutOfMemory, hip.hipMallocFromPoolAsync(&p, size_t{32} << 30, pool, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMallocAsync(nullptr, 64, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMallocAsync(&p, 64, bogus_stream));
  EXPECT_EQ(hipErrorOutOfMemory, hip.hipMallocAsync(&p, size_t{32} << 30, stream));
  EXPECT_EQ(nullptr, p);
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));

  // hipFreeAsync takes the start of a live stream-ordered allocation only.
  void* plain = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&plain, 64));
  ASSERT_EQ(hipSuccess, hip.hipMallocFromPoolAsync(&p, 512, pool, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFreeAsync(plain, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFreeAsync(static_cast<char*>(p) + 256, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFreeAsync(nullptr, stream));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFreeAsync(p, bogus_stream));
  EXPECT_EQ(512u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));  // still live

  // Attributes: the threshold is read and set, the counts only read, nothing else.
  uint64_t value = 1;
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipMemPoolSetAttribute(pool, hipMemPoolAttrReservedMemCurrent, &value));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &value));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolSetAttribute(pool, 1, &value));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolGetAttribute(pool, 1, &value));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolGetAttribute(pool, 6, &value));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, nullptr));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, nullptr));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipMemPoolGetAttribute(bogus_pool, hipMemPoolAttrUsedMemCurrent, &value));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipMemPoolSetAttribute(nullptr, hipMemPoolAttrReleaseThreshold, &value));
  EXPECT_EQ(1u, value);
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrReleaseThreshold));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolTrimTo(bogus_pool, 0));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolTrimTo(nullptr, 0));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolDestroy(bogus_pool));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolDestroy(nullptr));

  // An injected failure does nothing: no pool, no memory, no free, no value, no destroy.
  hipMemPool_t none = nullptr;
  void* q = nullptr;
  ASSERT_EQ(0, d.fail("hipMemPoolCreate", hipErrorOutOfMemory, 1));
  ASSERT_EQ(0, d.fail("hipMallocFromPoolAsync", hipErrorOutOfMemory, 1));
  ASSERT_EQ(0, d.fail("hipMallocAsync", hipErrorOutOfMemory, 1));
  ASSERT_EQ(0, d.fail("hipFreeAsync", hipErrorIllegalAddress, 1));
  ASSERT_EQ(0, d.fail("hipMemPoolGetAttribute", hipErrorNotSupported, 1));
  ASSERT_EQ(0, d.fail("hipMemPoolSetAttribute", hipErrorNotSupported, 1));
  ASSERT_EQ(0, d.fail("hipMemPoolTrimTo", hipErrorNotSupported, 1));
  ASSERT_EQ(0, d.fail("hipMemPoolDestroy", hipErrorInvalidValue, 1));
  EXPECT_EQ(hipErrorOutOfMemory, hip.hipMemPoolCreate(&none, &props));
  EXPECT_EQ(nullptr, none);
  EXPECT_EQ(hipErrorOutOfMemory, hip.hipMallocFromPoolAsync(&q, 64, pool, stream));
  EXPECT_EQ(hipErrorOutOfMemory, hip.hipMallocAsync(&q, 64, stream));
  EXPECT_EQ(nullptr, q);
  EXPECT_EQ(hipErrorIllegalAddress, hip.hipFreeAsync(p, stream));
  value = 7;
  EXPECT_EQ(hipErrorNotSupported,
            hip.hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &value));
  EXPECT_EQ(7u, value);
  EXPECT_EQ(hipErrorNotSupported,
            hip.hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &value));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrReleaseThreshold));
  EXPECT_EQ(512u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(hipErrorNotSupported, hip.hipMemPoolTrimTo(pool, 0));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPoolDestroy(pool));
  EXPECT_EQ(3, d.live_objects());  // the stream, `plain` and `p`
  EXPECT_EQ(hipSuccess, hip.hipFreeAsync(p, stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrReservedMemCurrent));
  EXPECT_EQ(hipSuccess, hip.hipMemPoolDestroy(pool));

  // Found by name, as any function.
  for (const char* name :
       {"hipMemPoolCreate", "hipMemPoolDestroy", "hipMallocFromPoolAsync", "hipMallocAsync",
        "hipFreeAsync", "hipMemPoolTrimTo", "hipMemPoolSetAttribute", "hipMemPoolGetAttribute"}) {
    void* pointer = nullptr;
    hipDriverProcAddressQueryResult status = -1;
    EXPECT_EQ(hipSuccess, d.get_proc_address(name, &pointer, 602, 0, &status)) << name;
    EXPECT_EQ(dlsym(d.handle, name), pointer) << name;
  }

  EXPECT_EQ(hipSuccess, hip.hipFree(plain));
  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(stream));
}

// Many threads allocating and freeing on their own streams from one pool and the default one.
TEST_F(HipTestDriver, PoolsServeManyThreads) {
  const hipMemPoolProps props = pool_props(0);
  hipMemPool_t pool = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMemPoolCreate(&pool, &props));
  uint64_t threshold = 1 << 20;
  ASSERT_EQ(hipSuccess,
            hip.hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &threshold));
  const size_t free_before = free_device_bytes(hip);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      auto check = [&](hipError_t r) { failures += r != hipSuccess; };
      hipStream_t stream = nullptr;
      check(hip.hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
      for (int i = 0; i < 50; ++i) {
        const int value = t * 1000 + i;
        const size_t count = 64 + 32 * ((t + i) % 7);
        void* p = nullptr;
        check(i % 2 ? hip.hipMallocAsync(&p, count * 4, stream)
                    : hip.hipMallocFromPoolAsync(&p, count * 4, pool, stream));
        std::vector<int> out(count, 0);
        check(hip.hipMemsetD32Async(p, value, count, stream));
        check(hip.hipMemcpyDtoHAsync(out.data(), p, count * 4, stream));
        check(hip.hipFreeAsync(p, stream));
        check(hip.hipStreamSynchronize(stream));
        for (int got : out) failures += got != value;
      }
      check(hip.hipStreamDestroy(stream));
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(0, failures.load());
  EXPECT_EQ(0u, pool_attribute(hip, pool, hipMemPoolAttrUsedMemCurrent));
  EXPECT_EQ(hipSuccess, hip.hipMemPoolDestroy(pool));
  EXPECT_EQ(free_before, free_device_bytes(hip));  // the default pool keeps nothing either
}

// hipMemcpy2D: rows of one pitch into rows of another, and nothing between them touched.
TEST_F(HipTestDriver, CopiesPitchedRows) {
  // 5 rows of 12 bytes, pitch 16 on the host and 24 on the device.
  std::vector<unsigned char> in(16 * 5), back(in.size(), 0), out(24 * 5);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i + 1);
  void* device = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&device, out.size()));
  ASSERT_EQ(hipSuccess, hip.hipMemsetD8(device, 0xee, out.size()));
  EXPECT_EQ(hipSuccess, hip.hipMemcpy2D(device, 24, in.data(), 16, 12, 5, hipMemcpyHostToDevice));
  std::vector<unsigned char> expected(out.size(), 0xee), expected_back(in.size(), 0);
  for (size_t y = 0; y < 5; ++y) {
    for (size_t x = 0; x < 12; ++x) {
      expected[y * 24 + x] = in[y * 16 + x];
      expected_back[y * 16 + x] = in[y * 16 + x];
    }
  }
  ASSERT_EQ(hipSuccess, hip.hipMemcpyDtoH(out.data(), device, out.size()));
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(expected[i], out[i]) << "device byte " << i;

  // Back on a stream, each side's memory found from its pointer (hipMemcpyDefault, 4).
  hipStream_t stream = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&stream, hipStreamDefault));
  EXPECT_EQ(hipSuccess, hip.hipMemcpy2DAsync(back.data(), 16, device, 24, 12, 5, 4, stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  for (size_t i = 0; i < back.size(); ++i)
    ASSERT_EQ(expected_back[i], back[i]) << "host byte " << i;

  // Refused, copying nothing: rows wider than a pitch, a last row past the allocation, no
  // source. A copy of no rows succeeds.
  EXPECT_EQ(hipErrorInvalidPitchValue,
            hip.hipMemcpy2D(device, 8, in.data(), 16, 12, 5, hipMemcpyHostToDevice));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipMemcpy2DAsync(device, 24, in.data(), 16, 12, 6, hipMemcpyHostToDevice, stream));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipMemcpy2D(device, 24, nullptr, 16, 12, 5, hipMemcpyHostToDevice));
  EXPECT_EQ(hipSuccess, hip.hipMemcpy2D(device, 24, in.data(), 16, 12, 0, hipMemcpyHostToDevice));
  ASSERT_EQ(hipSuccess, hip.hipMemcpyDtoH(out.data(), device, out.size()));
  EXPECT_EQ(expected, out);

  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(stream));
  EXPECT_EQ(hipSuccess, hip.hipFree(device));
}

TEST_F(HipTestDriver, StreamsAndEventsTime) {
  hipStream_t stream = nullptr;
  hipEvent_t start = nullptr, end = nullptr, untimed = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&stream, hipStreamNonBlocking));
  ASSERT_EQ(hipSuccess, hip.hipEventCreateWithFlags(&start, hipEventDefault));
  ASSERT_EQ(hipSuccess, hip.hipEventCreateWithFlags(&end, hipEventDefault));
  ASSERT_EQ(hipSuccess, hip.hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
  float ms = -1;
  EXPECT_EQ(hipErrorInvalidHandle, hip.hipEventElapsedTime(&ms, start, end));  // not recorded
  EXPECT_EQ(hipSuccess, hip.hipEventRecord(start, stream));
  EXPECT_EQ(hipSuccess, hip.hipEventRecord(end, stream));
  EXPECT_EQ(hipSuccess, hip.hipEventRecord(untimed, nullptr));
  EXPECT_EQ(hipSuccess, hip.hipStreamWaitEvent(stream, untimed, 0));
  EXPECT_EQ(hipSuccess, hip.hipEventSynchronize(end));
  EXPECT_EQ(hipSuccess, hip.hipEventQuery(end));
  EXPECT_EQ(hipSuccess, hip.hipEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 0);
  EXPECT_EQ(hipErrorInvalidHandle, hip.hipEventElapsedTime(&ms, start, untimed));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamQuery(stream));
  EXPECT_EQ(hipSuccess, hip.hipStreamSynchronize(nullptr));
  EXPECT_EQ(hipSuccess, hip.hipDeviceSynchronize());
  // An event of device 1 is not recorded on device 0's stream.
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  hipEvent_t other = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipEventCreateWithFlags(&other, hipEventDefault));
  EXPECT_EQ(hipErrorInvalidHandle, hip.hipEventRecord(other, stream));
  EXPECT_EQ(hipSuccess, hip.hipEventDestroy(other));
  EXPECT_EQ(hipSuccess, hip.hipSetDevice(0));
  for (hipEvent_t event : {start, end, untimed}) EXPECT_EQ(hipSuccess, hip.hipEventDestroy(event));
  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(stream));
  EXPECT_EQ(hipErrorInvalidHandle, hip.hipStreamDestroy(stream));
  EXPECT_EQ(hipErrorInvalidHandle, hip.hipEventDestroy(start));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipStreamCreateWithFlags(&stream, 0x10));
}

// saxpy through `function`: y = 2 x + y on 256 floats, with `params` or HIP's `extra` buffer.
void run_saxpy(const HipFunctions& hip, hipFunction_t function, bool packed) {
  constexpr int n = 256;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1;
  }
  void *dx = nullptr, *dy = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&dx, n * sizeof(float)));
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&dy, n * sizeof(float)));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  EXPECT_EQ(hipSuccess, hip.hipMemcpyHtoD(dy, y.data(), n * sizeof(float)));
  int count = n;
  float a = 2;
  if (packed) {
    struct {
      int n;
      float a;
      void* x;
      void* y;
    } arguments{count, a, dx, dy};
    size_t size = sizeof arguments;
    void* extra[] = {reinterpret_cast<void*>(1), &arguments, reinterpret_cast<void*>(2), &size,
                     reinterpret_cast<void*>(3)};
    EXPECT_EQ(hipSuccess,
              hip.hipModuleLaunchKernel(function, 1, 1, 1, n, 1, 1, 0, nullptr, nullptr, extra));
  } else {
    void* params[] = {&count, &a, &dx, &dy};
    EXPECT_EQ(hipSuccess,
              hip.hipModuleLaunchKernel(function, 1, 1, 1, n, 1, 1, 0, nullptr, params, nullptr));
  }
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i) ASSERT_EQ(2.0f * i + 1, y[i]) << i;
  EXPECT_EQ(hipSuccess, hip.hipFree(dx));
  EXPECT_EQ(hipSuccess, hip.hipFree(dy));
}

// What a stream says of itself: its device and its priority (clamped to ROCm's range).
TEST_F(HipTestDriver, StreamsNameTheirDeviceAndPriority) {
  hipStream_t urgent = nullptr, other = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithPriority(&urgent, hipStreamNonBlocking, -9));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  ASSERT_EQ(hipSuccess, hip.hipStreamCreateWithFlags(&other, hipStreamNonBlocking));
  int priority = 5;
  EXPECT_EQ(hipSuccess, hip.hipStreamGetPriority(urgent, &priority));
  EXPECT_EQ(-1, priority);
  EXPECT_EQ(hipSuccess, hip.hipStreamGetPriority(other, &priority));
  EXPECT_EQ(0, priority);
  EXPECT_EQ(hipErrorInvalidValue, hip.hipStreamGetPriority(other, nullptr));
  EXPECT_EQ(0, hip.hipGetStreamDeviceId(urgent));
  EXPECT_EQ(1, hip.hipGetStreamDeviceId(other));
  EXPECT_EQ(1, hip.hipGetStreamDeviceId(nullptr));  // the null stream: the current device's
  int unknown = 0;
  EXPECT_EQ(-1, hip.hipGetStreamDeviceId(reinterpret_cast<hipStream_t>(&unknown)));
  EXPECT_EQ(hipErrorInvalidHandle,
            hip.hipStreamGetPriority(reinterpret_cast<hipStream_t>(&unknown), &priority));
  EXPECT_EQ(hipSuccess, hip.hipSetDevice(0));
  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(other));
  EXPECT_EQ(hipSuccess, hip.hipStreamDestroy(urgent));
}

// Managed memory is host memory the host reaches at once; prefetch and advice check the range (one
// managed allocation), the device (hipCpuDeviceId or a device) and the advice.
TEST_F(HipTestDriver, ManagedMemoryTakesPrefetchAndAdvice) {
  void* managed = nullptr;
  void* plain = nullptr;
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMallocManaged(&managed, 64, 4));
  ASSERT_EQ(hipSuccess, hip.hipMallocManaged(&managed, 4096, hipMemAttachGlobal));
  ASSERT_EQ(hipSuccess, hip.hipMalloc(&plain, 4096));
  static_cast<int*>(managed)[1023] = 42;
  char* bytes = static_cast<char*>(managed);
  EXPECT_EQ(hipSuccess, hip.hipMemPrefetchAsync(managed, 4096, 1, nullptr));
  EXPECT_EQ(hipSuccess, hip.hipMemPrefetchAsync(bytes + 8, 8, hipCpuDeviceId, nullptr));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPrefetchAsync(managed, 4097, 0, nullptr));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemPrefetchAsync(plain, 16, 0, nullptr));
  EXPECT_EQ(hipErrorInvalidDevice, hip.hipMemPrefetchAsync(managed, 16, 2, nullptr));
  EXPECT_EQ(hipSuccess, hip.hipMemAdvise(managed, 4096, hipMemAdviseSetReadMostly, 0));
  EXPECT_EQ(hipSuccess,
            hip.hipMemAdvise(managed, 4096, hipMemAdviseUnsetAccessedBy, hipCpuDeviceId));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemAdvise(managed, 4096, 7, 0));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipMemAdvise(plain, 4096, hipMemAdviseSetReadMostly, 0));
  int value = 0;
  EXPECT_EQ(hipSuccess, hip.hipMemcpyDtoH(&value, bytes + 4092, sizeof value));
  EXPECT_EQ(42, value);
  EXPECT_EQ(hipSuccess, hip.hipFree(plain));
  EXPECT_EQ(hipSuccess, hip.hipFree(managed));
}

TEST_F(HipTestDriver, LoadsACodeObjectThatFitsAndRunsItsKernels) {
  const std::vector<unsigned char> code = gfx90a_code_object();
  SKIP_WITHOUT(code, ANYGPU_HIP_TEST_GFX90A_PATH);
  hipModule_t module = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipModuleLoadData(&module, code.data()));
  bool from_bundle = true;
  EXPECT_EQ("gfx90a", d.last_target(&from_bundle));  // xnack and sramecc unstated
  EXPECT_FALSE(from_bundle);
  EXPECT_EQ(static_cast<long>(code.size()), d.last_image(nullptr, 0, nullptr));
  hipFunction_t saxpy = nullptr, again = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipModuleGetFunction(&saxpy, module, "saxpy"));
  ASSERT_EQ(hipSuccess, hip.hipModuleGetFunction(&again, module, "saxpy"));
  EXPECT_EQ(saxpy, again);
  EXPECT_EQ(hipErrorNotFound, hip.hipModuleGetFunction(&again, module, "no_such_kernel"));
  run_saxpy(hip, saxpy, false);
  run_saxpy(hip, saxpy, true);
  int n = 1;
  float a = 1;
  void* params[] = {&n, &a, &n, &n};
  EXPECT_EQ(hipErrorInvalidValue,  // 1025 threads
            hip.hipModuleLaunchKernel(saxpy, 1, 1, 1, 1025, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(hipErrorInvalidValue,  // more shared memory than a block has
            hip.hipModuleLaunchKernel(saxpy, 1, 1, 1, 1, 1, 1, 65537, nullptr, params, nullptr));
  EXPECT_EQ(hipErrorInvalidValue,  // no arguments
            hip.hipModuleLaunchKernel(saxpy, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
  // A function of device 0 does not run on device 1.
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(1));
  EXPECT_EQ(hipErrorInvalidHandle,
            hip.hipModuleLaunchKernel(saxpy, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_EQ(hipSuccess, hip.hipSetDevice(0));
  EXPECT_EQ(hipSuccess, hip.hipModuleUnload(module));
  EXPECT_EQ(hipErrorInvalidHandle, hip.hipModuleUnload(module));
  EXPECT_EQ(hipErrorInvalidHandle, hip.hipModuleGetFunction(&again, module, "saxpy"));
}

// Function attributes and occupancy on the driver's CDNA model (driver_occupancy.cpp): 2048
// threads in wavefronts of 64, 32 blocks and 64 KiB of LDS per CU, 104 CUs.
TEST_F(HipTestDriver, AnswersFunctionAttributesAndOccupancy) {
  const std::vector<unsigned char> code = gfx90a_code_object();
  SKIP_WITHOUT(code, ANYGPU_HIP_TEST_GFX90A_PATH);
  hipModule_t module = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipModuleLoadData(&module, code.data()));
  hipFunction_t saxpy = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipModuleGetFunction(&saxpy, module, "saxpy"));
  const std::pair<hipFunction_attribute, int> expected[] = {
      {HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
      {HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 0},
      {HIP_FUNC_ATTRIBUTE_NUM_REGS, 32},
      {HIP_FUNC_ATTRIBUTE_BINARY_VERSION, 0},
      {HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024}};
  int value = -1;
  for (const auto& [attribute, number] : expected) {
    EXPECT_EQ(hipSuccess, hip.hipFuncGetAttribute(&value, attribute, saxpy)) << attribute;
    EXPECT_EQ(number, value) << attribute;
  }
  EXPECT_EQ(hipErrorInvalidValue, hip.hipFuncGetAttribute(&value, 10, saxpy));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipFuncGetAttribute(nullptr, HIP_FUNC_ATTRIBUTE_NUM_REGS, saxpy));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_NUM_REGS, nullptr));
  EXPECT_EQ(hipErrorInvalidHandle,
            hip.hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_NUM_REGS,
                                    reinterpret_cast<hipFunction_t>(&value)));

  int blocks = -1;
  EXPECT_EQ(hipSuccess,
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 0));
  EXPECT_EQ(8, blocks);  // by threads
  EXPECT_EQ(hipSuccess,
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 1, 0));
  EXPECT_EQ(32, blocks);  // by blocks: each takes a whole wavefront
  EXPECT_EQ(hipSuccess,
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 16 * 1024));
  EXPECT_EQ(4, blocks);  // by LDS
  EXPECT_EQ(hipSuccess,
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 1025, 0));
  EXPECT_EQ(0, blocks);  // more threads than a block has
  EXPECT_EQ(hipSuccess,
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 65537));
  EXPECT_EQ(0, blocks);  // more LDS than a block has
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 0, 0));
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, saxpy, 256, 0));

  // The largest block size with the most threads per CU, and the grid that fills 104 CUs.
  int grid = -1, block = -1;
  EXPECT_EQ(hipSuccess, hip.hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, 0, 0));
  EXPECT_EQ(1024, block);
  EXPECT_EQ(2 * 104, grid);
  // Up to 200 threads: 192 holds 1920 threads, 128 holds 2048.
  EXPECT_EQ(hipSuccess, hip.hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, 0, 200));
  EXPECT_EQ(128, block);
  EXPECT_EQ(16 * 104, grid);
  EXPECT_EQ(hipSuccess, hip.hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, 0, 48));
  EXPECT_EQ(48, block);
  EXPECT_EQ(32 * 104, grid);
  EXPECT_EQ(hipSuccess,
            hip.hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, 65537, 0));
  EXPECT_EQ(0, block);
  EXPECT_EQ(0, grid);
  EXPECT_EQ(hipErrorInvalidValue,
            hip.hipModuleOccupancyMaxPotentialBlockSize(nullptr, &block, saxpy, 0, 0));
  EXPECT_EQ(hipSuccess, hip.hipModuleUnload(module));
  EXPECT_EQ(hipErrorInvalidHandle,
            hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 0));
}

TEST_F(HipTestDriver, RefusesCodeObjectsForAnotherTarget) {
  const std::vector<unsigned char> xnack_on = gfx90a_code_object(0x300);
  SKIP_WITHOUT(xnack_on, ANYGPU_HIP_TEST_GFX90A_PATH);
  hipModule_t module = nullptr;
  // The device is gfx90a:sramecc+:xnack-.
  EXPECT_EQ(hipErrorNoBinaryForGpu, hip.hipModuleLoadData(&module, xnack_on.data()));
  EXPECT_EQ(nullptr, module);
  const std::vector<unsigned char> gfx1100 = read_file(ANYGPU_HIP_TEST_GFX1100_PATH);
  SKIP_WITHOUT(gfx1100, ANYGPU_HIP_TEST_GFX1100_PATH);
  EXPECT_EQ(hipErrorNoBinaryForGpu, hip.hipModuleLoadData(&module, gfx1100.data()));
  const std::vector<unsigned char> xnack_off = gfx90a_code_object(0x200);
  ASSERT_EQ(hipSuccess, hip.hipModuleLoadData(&module, xnack_off.data()));
  EXPECT_EQ("gfx90a:xnack-", d.last_target());
  EXPECT_EQ(hipSuccess, hip.hipModuleUnload(module));
  // Not a code object at all.
  const char text[] = "not a code object";
  EXPECT_EQ(hipErrorInvalidImage, hip.hipModuleLoadData(&module, text));
  EXPECT_EQ(hipErrorInvalidImage,
            hip.hipModuleLoadData(&module, read_file(ANYGPU_TEST_KERNELS_PATH).data()));
  EXPECT_EQ(hipErrorInvalidValue, hip.hipModuleLoadData(&module, nullptr));
}

TEST_F(HipTestDriver, TakesTheFittingEntryOfABundle) {
  const std::vector<unsigned char> on = gfx90a_code_object(0x300), off = gfx90a_code_object(0x200);
  SKIP_WITHOUT(on, ANYGPU_HIP_TEST_GFX90A_PATH);
  std::vector<unsigned char> bundle;
  std::string error;
  ASSERT_TRUE(anygpu::write_offload_bundle(
      {{"host-x86_64-unknown-linux-gnu", nullptr, 0},
       {"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", on.data(), on.size()},
       {"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", off.data(), off.size()}},
      &bundle, &error))
      << error;
  hipModule_t module = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipModuleLoadData(&module, bundle.data()));
  bool from_bundle = false;
  EXPECT_EQ("gfx90a:xnack-", d.last_target(&from_bundle));
  EXPECT_TRUE(from_bundle);
  hipFunction_t saxpy = nullptr;
  ASSERT_EQ(hipSuccess, hip.hipModuleGetFunction(&saxpy, module, "saxpy"));
  run_saxpy(hip, saxpy, false);
  EXPECT_EQ(hipSuccess, hip.hipModuleUnload(module));
  // Only the xnack+ entry: nothing for this device.
  ASSERT_TRUE(anygpu::write_offload_bundle(
      {{"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", on.data(), on.size()}}, &bundle, &error));
  EXPECT_EQ(hipErrorNoBinaryForGpu, hip.hipModuleLoadData(&module, bundle.data()));
}

TEST_F(HipTestDriver, GetProcAddressAnswersByVersion) {
  void* function = nullptr;
  hipDriverProcAddressQueryResult status = -1;
  ASSERT_EQ(hipSuccess, d.get_proc_address("hipMalloc", &function, kRequestedApiVersion,
                                           HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_EQ(HIP_GET_PROC_ADDRESS_SUCCESS, status);
  EXPECT_EQ(reinterpret_cast<void*>(hip.hipMalloc), function);
  // HIP 6 programs get the R0600 layout under the plain name; HIP 5 ones the old.
  ASSERT_EQ(hipSuccess, d.get_proc_address("hipGetDeviceProperties", &function, 600, 0, &status));
  EXPECT_EQ(reinterpret_cast<void*>(hip.hipGetDevicePropertiesR0600), function);
  ASSERT_EQ(hipSuccess, d.get_proc_address("hipGetDeviceProperties", &function,
                                           kLegacyPropertiesApiVersion, 0, &status));
  EXPECT_EQ(reinterpret_cast<void*>(hip.hipGetDeviceProperties), function);
  // Too new for the version asked.
  EXPECT_EQ(hipErrorNotFound,
            d.get_proc_address("hipGetDevicePropertiesR0600", &function, 503, 0, &status));
  EXPECT_EQ(HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, status);
  EXPECT_EQ(nullptr, function);
  // Named in ANYGPU_HIP_TEST_MISSING, or not there at all; dlsym still finds the former.
  EXPECT_EQ(hipErrorNotFound, d.get_proc_address("hipMemsetD8Async", &function, 600, 0, &status));
  EXPECT_EQ(HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, status);
  EXPECT_NE(nullptr, reinterpret_cast<void*>(hip.hipMemsetD8Async));
  EXPECT_EQ(hipErrorNotFound, d.get_proc_address("hipNoSuchThing", &function, 600, 0, &status));
  EXPECT_EQ(hipErrorInvalidValue, d.get_proc_address("hipMalloc", &function, 600, 8, &status));
}

TEST_F(HipTestDriver, FailsTheChosenCallAndCountsCalls) {
  EXPECT_EQ(-1, d.fail("hipNoSuchThing", 2, 1));
  EXPECT_EQ(-1, d.fail("hipMalloc", 0, 1));
  EXPECT_EQ(-1, d.fail("hipMalloc", 2, 0));
  const long before = d.calls("hipMalloc");
  ASSERT_EQ(0, d.fail("hipMalloc", hipErrorOutOfMemory, 2));
  void *first = nullptr, *second = nullptr;
  EXPECT_EQ(hipSuccess, hip.hipMalloc(&first, 64));
  EXPECT_EQ(hipErrorOutOfMemory, hip.hipMalloc(&second, 64));
  EXPECT_EQ(nullptr, second);
  EXPECT_EQ(hipSuccess, hip.hipMalloc(&second, 64));
  EXPECT_EQ(before + 3, d.calls("hipMalloc"));
  EXPECT_EQ(-1, d.calls("hipNoSuchThing"));
  ASSERT_EQ(0, d.fail("hipFree", hipErrorInvalidValue, 1));
  d.clear_failures();
  EXPECT_EQ(hipSuccess, hip.hipFree(first));
  EXPECT_EQ(hipSuccess, hip.hipFree(second));
  // Names and texts, also of results the table does not hold.
  EXPECT_STREQ("hipErrorNoBinaryForGpu", hip.hipGetErrorName(hipErrorNoBinaryForGpu));
  EXPECT_STREQ("out of memory", hip.hipGetErrorString(hipErrorOutOfMemory));
  EXPECT_STREQ("hipErrorUnknown", hip.hipGetErrorName(12345));
  ASSERT_EQ(0, d.fail("hipGetErrorName", hipErrorUnknown, 1));
  EXPECT_EQ(nullptr, hip.hipGetErrorName(hipSuccess));
}

TEST(HipTestDriverHip5, HasNeitherGetProcAddressNorTheHip6Layout) {
  Driver& d = hip5_driver();
  ASSERT_NE(nullptr, d.handle) << dlerror();
  EXPECT_EQ(nullptr, d.get_proc_address);
  EXPECT_EQ(nullptr, reinterpret_cast<void*>(d.hip.hipGetDevicePropertiesR0600));
  EXPECT_NE(nullptr, reinterpret_cast<void*>(d.hip.hipMemcpyPeerAsync));      // HIP 5.2 has them
  EXPECT_NE(nullptr, reinterpret_cast<void*>(d.hip.hipMallocFromPoolAsync));  // and pools
  EXPECT_EQ(hipErrorNoDevice, d.hip.hipInit(0));  // ANYGPU_HIP_TEST_FAIL=hipInit:100
  EXPECT_EQ(hipSuccess, d.hip.hipInit(0));        // once
  int version = 0;
  ASSERT_EQ(hipSuccess, d.hip.hipRuntimeGetVersion(&version));
  EXPECT_EQ(50322000, version);
  EXPECT_EQ(-1, d.calls("hipGetProcAddress"));
  // An RDNA device runs wave32.
  int value = 0;
  ASSERT_EQ(hipSuccess, d.hip.hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, 0));
  EXPECT_EQ(32, value);
  ASSERT_EQ(hipSuccess,
            d.hip.hipDeviceGetAttribute(&value, hipDeviceAttributeComputeCapabilityMajor, 0));
  EXPECT_EQ(11, value);
  std::vector<char> properties(kPropertiesBufferBytes);
  ASSERT_EQ(hipSuccess, d.hip.hipGetDeviceProperties(properties.data(), 0));
  EXPECT_STREQ("gfx1100", properties.data() + kR0000GcnArchNameOffset);
  const std::vector<unsigned char> gfx1100 = read_file(ANYGPU_HIP_TEST_GFX1100_PATH);
  SKIP_WITHOUT(gfx1100, ANYGPU_HIP_TEST_GFX1100_PATH);
  hipModule_t module = nullptr;
  ASSERT_EQ(hipSuccess, d.hip.hipModuleLoadData(&module, gfx1100.data()));
  EXPECT_EQ("gfx1100", d.last_target());
  EXPECT_EQ(hipSuccess, d.hip.hipModuleUnload(module));
}

TEST(HipTestDriverIncomplete, LacksTwoRequiredFunctionsAndHasNoDevice) {
  Driver& d = incomplete_driver();
  ASSERT_NE(nullptr, d.handle) << dlerror();
  EXPECT_EQ(nullptr, reinterpret_cast<void*>(d.hip.hipModuleLaunchKernel));
  EXPECT_EQ(nullptr, reinterpret_cast<void*>(d.hip.hipMemsetD8Async));
  EXPECT_NE(nullptr, reinterpret_cast<void*>(d.hip.hipMemsetD8));
  EXPECT_EQ(-1, d.calls("hipModuleLaunchKernel"));
  EXPECT_EQ(hipSuccess, d.hip.hipInit(0));
  int count = -1;
  EXPECT_EQ(hipErrorNoDevice, d.hip.hipGetDeviceCount(&count));
  EXPECT_EQ(0, count);
  void* pointer = nullptr;
  EXPECT_EQ(hipErrorNoDevice, d.hip.hipMalloc(&pointer, 16));
  EXPECT_EQ(hipErrorNoDevice, d.hip.hipSetDevice(0));
  EXPECT_NE(nullptr, reinterpret_cast<void*>(d.hip.hipDeviceEnablePeerAccess));
  EXPECT_EQ(hipErrorInvalidDevice, d.hip.hipDeviceCanAccessPeer(&count, 0, 0));
  EXPECT_EQ(hipErrorNoDevice, d.hip.hipDeviceEnablePeerAccess(0, 0));
  const hipMemPoolProps props = pool_props(0);
  hipMemPool_t pool = nullptr;
  EXPECT_EQ(hipErrorInvalidValue, d.hip.hipMemPoolCreate(&pool, &props));
  EXPECT_EQ(hipErrorNoDevice, d.hip.hipMallocAsync(&pointer, 16, nullptr));
}

}  // namespace
