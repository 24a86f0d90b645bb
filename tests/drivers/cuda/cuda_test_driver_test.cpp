// The CUDA test driver on its own: dlopen'ed and called through cuda_api.h's types, as the CUDA
// backend calls it, to show that it behaves as a CUDA driver does before anygpu is put on it.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cuda_test_driver_control.h"
#include "loaders/cuda/cuda_api.h"
#include "loaders/symbol_resolver.h"

using namespace anygpu::cuda;

namespace {

// A value of cuda.h's that no attribute has.
constexpr CUdevice_attribute kUnknownAttribute = 100000;

const char* const kDriverVariables[] = {
    "ANYGPU_CUDA_TEST_KERNELS",        "ANYGPU_CUDA_TEST_SM",      "ANYGPU_CUDA_TEST_DEVICE_COUNT",
    "ANYGPU_CUDA_TEST_DRIVER_VERSION", "ANYGPU_CUDA_TEST_MISSING", "ANYGPU_CUDA_TEST_FAIL"};

struct Driver {
  void* handle = nullptr;
  CudaFunctions cu;
  PFN_cuGetProcAddress_v2 get_proc_address = nullptr;
  anygpu_cuda_test_fail_fn fail = nullptr;
  anygpu_cuda_test_clear_failures_fn clear_failures = nullptr;
  anygpu_cuda_test_live_objects_fn live_objects = nullptr;
  anygpu_cuda_test_calls_fn calls = nullptr;
};

template <typename T>
void load(void* handle, const char* name, T* pointer) {
  *pointer = reinterpret_cast<T>(dlsym(handle, name));
}

// Opens `path` with exactly `environment` set among the driver's variables, which it reads when
// loaded. Each driver is opened once per process and never closed, as anygpu treats drivers.
Driver* open_driver(const char* path,
                    const std::vector<std::pair<const char*, std::string>>& environment) {
  for (const char* variable : kDriverVariables) unsetenv(variable);
  for (const auto& [name, value] : environment) setenv(name, value.c_str(), 1);
  auto* driver = new Driver;
  driver->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  for (const char* variable : kDriverVariables) unsetenv(variable);
  if (!driver->handle) return driver;
  anygpu::resolve_functions(driver->cu, anygpu::dlsym_lookup(driver->handle));
  load(driver->handle, "cuGetProcAddress_v2", &driver->get_proc_address);
  load(driver->handle, "anygpu_cuda_test_fail", &driver->fail);
  load(driver->handle, "anygpu_cuda_test_clear_failures", &driver->clear_failures);
  load(driver->handle, "anygpu_cuda_test_live_objects", &driver->live_objects);
  load(driver->handle, "anygpu_cuda_test_calls", &driver->calls);
  return driver;
}

// With two devices, so that peer access and copies between devices have a peer.
Driver& new_driver() {
  static Driver* driver = open_driver(ANYGPU_CUDA_TEST_DRIVER_PATH,
                                      {{"ANYGPU_CUDA_TEST_KERNELS", ANYGPU_TEST_KERNELS_PATH},
                                       {"ANYGPU_CUDA_TEST_DEVICE_COUNT", "2"},
                                       {"ANYGPU_CUDA_TEST_MISSING", "cuMemsetD8Async"}});
  return *driver;
}

// Only the test that uses it opens it, so that its first cuInit is the one the environment fails.
Driver& old_driver() {
  static Driver* driver = open_driver(ANYGPU_CUDA_TEST_OLD_DRIVER_PATH,
                                      {{"ANYGPU_CUDA_TEST_KERNELS", ANYGPU_TEST_KERNELS_PATH},
                                       {"ANYGPU_CUDA_TEST_FAIL", "cuInit:100"},
                                       {"ANYGPU_CUDA_TEST_DEVICE_COUNT", "2"},
                                       {"ANYGPU_CUDA_TEST_SM", "sm_80"}});
  return *driver;
}

std::string read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

CUdeviceptr address_of(const void* pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

// Each test runs with device 0's primary context retained and current, and leaves nothing alive.
class CudaTestDriver : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(nullptr, d.handle) << dlerror();
    ASSERT_EQ(CUDA_SUCCESS, cu.cuInit(0));
    ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRetain(&context, 0));
    ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPushCurrent_v2(context));
    ASSERT_EQ(0, d.live_objects());
  }
  void TearDown() override {
    if (!d.handle || !context) return;
    d.clear_failures();
    CUcontext popped = nullptr;
    EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxPopCurrent_v2(&popped));
    EXPECT_EQ(context, popped);
    EXPECT_EQ(0, d.live_objects()) << "a test leaked driver objects";
    EXPECT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRelease_v2(0));
  }

  // `ptx` loaded with both logs asked for.
  CUresult load_ptx(const std::string& ptx, CUmodule* module, std::string* info_log,
                    std::string* error_log, unsigned log_bytes = 4096) {
    std::vector<char> info(log_bytes, 'x'), error(log_bytes, 'x');
    CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                              CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* values[] = {info.data(), reinterpret_cast<void*>(uintptr_t{log_bytes}), error.data(),
                      reinterpret_cast<void*>(uintptr_t{log_bytes})};
    const CUresult result = cu.cuModuleLoadDataEx(module, ptx.c_str(), 4, options, values);
    // The size values come back as the bytes written.
    *info_log = std::string(info.data(), reinterpret_cast<uintptr_t>(values[1]));
    *error_log = std::string(error.data(), reinterpret_cast<uintptr_t>(values[3]));
    EXPECT_EQ(info_log->size(), strlen(info.data()));
    EXPECT_EQ(error_log->size(), strlen(error.data()));
    return result;
  }

  std::string test_ptx() {
    const std::string ptx = read_file(ANYGPU_CUDA_TEST_PTX_PATH);
    if (ptx.empty()) ADD_FAILURE() << "no PTX at " << ANYGPU_CUDA_TEST_PTX_PATH;
    return ptx;
  }

  Driver& d = new_driver();
  const CudaFunctions& cu = d.cu;
  CUcontext context = nullptr;
};

bool have_test_ptx() {
  return !read_file(ANYGPU_CUDA_TEST_PTX_PATH).empty();
}

TEST(CudaTestDriverLibrary, ExportsTheDriverApiAndNothingOfAnygpu) {
  Driver& d = new_driver();
  ASSERT_NE(nullptr, d.handle) << dlerror();
  visit_functions(d.cu, [](auto& function, const char* symbol, const char*, bool) {
    EXPECT_NE(nullptr, reinterpret_cast<void*>(function)) << symbol;
  });
  EXPECT_NE(nullptr, d.get_proc_address);
  EXPECT_NE(nullptr, d.fail);
  EXPECT_NE(nullptr, d.clear_failures);
  EXPECT_NE(nullptr, d.live_objects);
  EXPECT_NE(nullptr, d.calls);
  EXPECT_EQ(nullptr, dlsym(d.handle, "agInit"));
  EXPECT_EQ(nullptr, dlsym(d.handle, "_ZN6anygpu22cpu_backend_descriptorE"));
}

TEST_F(CudaTestDriver, ReportsItsDevice) {
  int version = 0, count = 0, value = 0;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDriverGetVersion(&version));
  EXPECT_EQ(12040, version);
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDeviceGetCount(&count));
  EXPECT_EQ(2, count);
  CUdevice device = -1;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceGet(&device, 1));
  EXPECT_EQ(1, device);
  EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cu.cuDeviceGet(&device, 2));
  char name[64];
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceGetName(name, sizeof name, 0));
  EXPECT_STREQ("anygpu CUDA test device 0", name);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceGetName(name, 7, 0));
  EXPECT_STREQ("anygpu", name);
  size_t total = 0;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceTotalMem_v2(&total, 0));
  EXPECT_EQ(size_t{8} << 30, total);
  const std::pair<CUdevice_attribute, int> expected[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 1024},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 2147483647},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 65535},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 65535},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 48 * 1024},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32}};
  for (const auto& [attribute, number] : expected) {
    EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceGetAttribute(&value, attribute, 0)) << attribute;
    EXPECT_EQ(number, value) << attribute;
  }
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuDeviceGetAttribute(&value, kUnknownAttribute, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE,
            cu.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 2));
  const char* text = nullptr;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuGetErrorName(CUDA_ERROR_INVALID_CONTEXT, &text));
  EXPECT_STREQ("CUDA_ERROR_INVALID_CONTEXT", text);
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuGetErrorString(123456, &text));
  EXPECT_EQ(nullptr, text);
}

// A thread with no current context gets CUDA_ERROR_INVALID_CONTEXT until it sets one.
TEST_F(CudaTestDriver, CallsNeedACurrentContext) {
  std::thread([&] {
    CUcontext current = context;
    EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxGetCurrent(&current));
    EXPECT_EQ(nullptr, current);
    CUdeviceptr pointer = 0;
    CUstream stream = nullptr;
    CUevent event = nullptr;
    size_t free_bytes = 0, total = 0;
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemAlloc_v2(&pointer, 64));
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuStreamCreate(&stream, 0));
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuEventCreate(&event, 0));
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemGetInfo_v2(&free_bytes, &total));
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxSynchronize());
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxPopCurrent_v2(&current));
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT,
              cu.cuCtxPushCurrent_v2(reinterpret_cast<CUcontext>(&pointer)));

    EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxSetCurrent(context));
    EXPECT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&pointer, 64));
    EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(pointer));
    EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxSetCurrent(nullptr));  // pops it again
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxSynchronize());
  }).join();
}

TEST_F(CudaTestDriver, AllocatesCopiesAndFrees) {
  size_t free_before = 0, free_after = 0, total = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemGetInfo_v2(&free_before, &total));
  EXPECT_EQ(size_t{8} << 30, total);
  CUdeviceptr a = 0, b = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&a, 1024));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&b, 1024));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemGetInfo_v2(&free_after, &total));
  EXPECT_EQ(free_before - 2048, free_after);
  EXPECT_EQ(2, d.live_objects());

  std::vector<int> in(256), out(256, -1);
  for (int i = 0; i < 256; ++i) in[i] = i * 3;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyHtoD_v2(a, in.data(), 1024));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoD_v2(b, a, 1024));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemsetD8_v2(b, 0, 4));  // b[0] = 0
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(out.data(), b, 1024));
  EXPECT_EQ(0, out[0]);
  EXPECT_EQ(std::vector<int>(in.begin() + 1, in.end()),
            std::vector<int>(out.begin() + 1, out.end()));

  // Device pointers are checked against the allocations.
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpyHtoD_v2(a, in.data(), 1025));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpyHtoD_v2(address_of(out.data()), in.data(), 4));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFree_v2(a + 4));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAlloc_v2(&a, 0));
  CUdeviceptr huge = 0;
  EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cu.cuMemAlloc_v2(&huge, size_t{9} << 30));

  void* pinned = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocHost_v2(&pinned, 64));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFree_v2(address_of(pinned)));  // not device memory
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFreeHost(pinned));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(a));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFree_v2(a));  // twice
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(b));
}

// cuMemcpy3D: a box out of one pitched layout into another, and nothing around it touched.
TEST_F(CudaTestDriver, CopiesPitchedBoxes) {
  // The host layout: 2 slices of 4 rows of 16 bytes; the device's: 3 slices of 5 rows of 32.
  std::vector<unsigned char> in(16 * 4 * 2), back(in.size(), 0), out(32 * 5 * 3);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i + 1);
  CUdeviceptr device = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&device, out.size()));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemsetD8_v2(device, 0xee, out.size()));
  CUDA_MEMCPY3D box = {};
  box.srcMemoryType = CU_MEMORYTYPE_HOST;
  box.srcHost = in.data();
  box.srcXInBytes = 2;
  box.srcY = 1;
  box.srcPitch = 16;
  box.srcHeight = 4;
  box.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  box.dstDevice = device;
  box.dstXInBytes = 5;
  box.dstY = 2;
  box.dstZ = 1;
  box.dstPitch = 32;
  box.dstHeight = 5;
  box.WidthInBytes = 10;
  box.Height = 3;
  box.Depth = 2;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemcpy3D_v2(&box));
  std::vector<unsigned char> expected(out.size(), 0xee), expected_back(in.size(), 0);
  for (size_t z = 0; z < 2; ++z) {
    for (size_t y = 0; y < 3; ++y) {
      for (size_t x = 0; x < 10; ++x) {
        const size_t from = 2 + x + (1 + y) * 16 + z * 64;
        expected[5 + x + (2 + y) * 32 + (1 + z) * 160] = in[from];
        expected_back[from] = in[from];
      }
    }
  }
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(out.data(), device, out.size()));
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(expected[i], out[i]) << "device byte " << i;

  // The same box back into the host layout, queued on a stream.
  CUDA_MEMCPY3D reverse = {};
  reverse.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  reverse.srcDevice = device;
  reverse.srcXInBytes = 5;
  reverse.srcY = 2;
  reverse.srcZ = 1;
  reverse.srcPitch = 32;
  reverse.srcHeight = 5;
  reverse.dstMemoryType = CU_MEMORYTYPE_HOST;
  reverse.dstHost = back.data();
  reverse.dstXInBytes = 2;
  reverse.dstY = 1;
  reverse.dstPitch = 16;
  reverse.dstHeight = 4;
  reverse.WidthInBytes = 10;
  reverse.Height = 3;
  reverse.Depth = 2;
  CUstream stream = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&stream, 0));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpy3DAsync_v2(&reverse, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  for (size_t i = 0; i < back.size(); ++i)
    ASSERT_EQ(expected_back[i], back[i]) << "host byte " << i;

  // Refused, copying nothing: a box whose last slice is past the allocation, rows longer than
  // their pitch, a CUDA array (CU_MEMORYTYPE_ARRAY), no description.
  CUDA_MEMCPY3D refused = box;
  refused.dstZ = 2;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpy3D_v2(&refused));
  refused = box;
  refused.srcPitch = 11;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpy3D_v2(&refused));
  refused = box;
  refused.dstMemoryType = 3;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpy3DAsync_v2(&refused, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpy3D_v2(nullptr));
  refused = box;
  refused.Depth = 0;  // an empty box: nothing to do
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpy3D_v2(&refused));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(out.data(), device, out.size()));
  EXPECT_EQ(expected, out);

  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(device));
}

TEST_F(CudaTestDriver, RunsSaxpyFromPtx) {
  if (!have_test_ptx()) GTEST_SKIP() << "no PTX built (clang-19 missing)";
  CUmodule module = nullptr;
  std::string info_log, error_log;
  ASSERT_EQ(CUDA_SUCCESS, load_ptx(test_ptx(), &module, &info_log, &error_log));
  EXPECT_NE(std::string::npos, info_log.find("'saxpy'")) << info_log;
  EXPECT_EQ("", error_log);

  CUfunction saxpy = nullptr, again = nullptr, missing = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuModuleGetFunction(&saxpy, module, "saxpy"));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuModuleGetFunction(&again, module, "saxpy"));
  EXPECT_EQ(saxpy, again);
  EXPECT_EQ(CUDA_ERROR_NOT_FOUND, cu.cuModuleGetFunction(&missing, module, "no_such_kernel"));

  // (int n, float a, const float* x, float* y)
  const size_t offsets[] = {0, 4, 8, 16}, sizes[] = {4, 4, 8, 8};
  for (size_t i = 0; i < 4; ++i) {
    size_t offset = 99, size = 99;
    EXPECT_EQ(CUDA_SUCCESS, cu.cuFuncGetParamInfo(saxpy, i, &offset, &size));
    EXPECT_EQ(offsets[i], offset);
    EXPECT_EQ(sizes[i], size);
  }
  size_t offset = 0;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuFuncGetParamInfo(saxpy, 4, &offset, nullptr));

  const int n = 10000;
  float a = 2.5f;
  std::vector<float> x(n), y(n), result(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1000.0f - i;
  }
  CUdeviceptr dx = 0, dy = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&dx, n * sizeof(float)));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&dy, n * sizeof(float)));
  CUstream stream = nullptr;
  CUevent start = nullptr, end = nullptr, untimed = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&stream, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuEventCreate(&start, CU_EVENT_DEFAULT));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuEventCreate(&end, CU_EVENT_DEFAULT));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
  float milliseconds = -1;
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
            cu.cuEventElapsedTime(&milliseconds, start, end));  // not recorded

  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyHtoDAsync_v2(dx, x.data(), n * sizeof(float), stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyHtoDAsync_v2(dy, y.data(), n * sizeof(float), stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuEventRecord(start, stream));
  int count = n;
  void* params[] = {&count, &a, &dx, &dy};
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream, params, nullptr));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuEventRecord(end, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuEventRecord(untimed, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoHAsync_v2(result.data(), dy, n * sizeof(float), stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(a * x[i] + y[i], result[i]) << i;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuEventQuery(end));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuEventElapsedTime(&milliseconds, start, end));
  EXPECT_GE(milliseconds, 0.0f);
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuEventElapsedTime(&milliseconds, start, untimed));

  // Launch checks, and the default stream, which runs the launch to completion.
  void* extra[] = {nullptr};
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuLaunchKernel(saxpy, 1, 1, 1, 32, 1, 1, 0, stream, params, extra));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuLaunchKernel(saxpy, 1, 1, 1, 2048, 1, 1, 0, stream, params, nullptr));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuLaunchKernel(saxpy, 1, 1, 1, 32, 1, 1, 64 * 1024, stream, params, nullptr));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
            cu.cuLaunchKernel(saxpy, 1, 1, 1, 32, 1, 1, 0, reinterpret_cast<CUstream>(&count),
                              params, nullptr));
  a = 0.0f;  // y = 0 * x + y: unchanged
  EXPECT_EQ(CUDA_SUCCESS, cu.cuLaunchKernel(saxpy, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr,
                                            params, nullptr));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(y.data(), dy, n * sizeof(float)));
  EXPECT_EQ(result, y);

  for (CUevent event : {start, end, untimed}) EXPECT_EQ(CUDA_SUCCESS, cu.cuEventDestroy_v2(event));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuEventDestroy_v2(start));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuStreamQuery(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(dx));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(dy));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuModuleUnload(module));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
            cu.cuLaunchKernel(saxpy, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
}

// Function attributes and occupancy on the driver's sm_90 model (driver_occupancy.cpp): 2048
// threads, 32 blocks and 228 KiB of shared memory per SM, 32 registers a thread. The dynamic
// shared memory a launch may ask for is the function's limit, raised by cuFuncSetAttribute.
TEST_F(CudaTestDriver, AnswersFunctionAttributesAndOccupancy) {
  if (!have_test_ptx()) GTEST_SKIP() << "no PTX built (clang-19 missing)";
  CUmodule module = nullptr;
  std::string info_log, error_log;
  ASSERT_EQ(CUDA_SUCCESS, load_ptx(test_ptx(), &module, &info_log, &error_log));
  CUfunction saxpy = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuModuleGetFunction(&saxpy, module, "saxpy"));
  const std::pair<CUfunction_attribute, int> expected[] = {
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 0},
      {CU_FUNC_ATTRIBUTE_NUM_REGS, 32},
      {CU_FUNC_ATTRIBUTE_BINARY_VERSION, 90},
      {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 48 * 1024},
      {CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1}};
  int value = 0;
  for (const auto& [attribute, number] : expected) {
    EXPECT_EQ(CUDA_SUCCESS, cu.cuFuncGetAttribute(&value, attribute, saxpy)) << attribute;
    EXPECT_EQ(number, value) << attribute;
  }
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuFuncGetAttribute(&value, 10, saxpy));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuFuncGetAttribute(nullptr, CU_FUNC_ATTRIBUTE_NUM_REGS, saxpy));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                                             reinterpret_cast<CUfunction>(&value)));

  int blocks = -1;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 0));
  EXPECT_EQ(8, blocks);  // by threads and by registers
  EXPECT_EQ(CUDA_SUCCESS, cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 32, 0));
  EXPECT_EQ(32, blocks);  // by blocks
  EXPECT_EQ(CUDA_SUCCESS, cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 2048, 0));
  EXPECT_EQ(0, blocks);  // more threads than the function takes
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 100 * 1024));
  EXPECT_EQ(0, blocks);  // more shared memory than the function may ask for
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 0, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, saxpy, 256, 0));

  // The opt-in limit is 227 KiB; the carveout is taken and changes nothing.
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuFuncSetAttribute(saxpy, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                  227 * 1024 + 1));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuFuncSetAttribute(saxpy, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, -1));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuFuncSetAttribute(saxpy, CU_FUNC_ATTRIBUTE_NUM_REGS, 16));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuFuncSetAttribute(saxpy, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101));
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuFuncSetAttribute(saxpy, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
            cu.cuFuncSetAttribute(reinterpret_cast<CUfunction>(&value),
                                  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0));

  // n = 0: the kernel touches no memory.
  int count = 0;
  float a = 1.0f;
  CUdeviceptr none = 0;
  void* params[] = {&count, &a, &none, &none};
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuLaunchKernel(saxpy, 1, 1, 1, 256, 1, 1, 100 * 1024, nullptr, params, nullptr));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuFuncSetAttribute(
                              saxpy, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100 * 1024));
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, saxpy));
  EXPECT_EQ(100 * 1024, value);
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuLaunchKernel(saxpy, 1, 1, 1, 256, 1, 1, 100 * 1024, nullptr, params, nullptr));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuLaunchKernel(saxpy, 1, 1, 1, 256, 1, 1, 100 * 1024 + 1, nullptr, params, nullptr));
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 100 * 1024));
  EXPECT_EQ(2, blocks);  // by shared memory

  // The largest block size with the most threads per SM, and the grid that fills 132 SMs.
  int grid = -1, block = -1;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, nullptr, 0, 0));
  EXPECT_EQ(1024, block);
  EXPECT_EQ(2 * 132, grid);
  // Up to 200 threads: 192 holds 1920 threads, 128 holds 2048.
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, nullptr, 0, 200));
  EXPECT_EQ(128, block);
  EXPECT_EQ(16 * 132, grid);
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, nullptr, 0, 16));
  EXPECT_EQ(16, block);
  EXPECT_EQ(32 * 132, grid);
  // 512 bytes a thread: at most 200 threads within the limit; 64 threads hold 7 blocks (448).
  const CUoccupancyB2DSize per_thread = [](int size) { return size_t{512} * size; };
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, per_thread, 0, 0));
  EXPECT_EQ(64, block);
  EXPECT_EQ(7 * 132, grid);
  // No block size fits more shared memory than the function may ask for.
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, nullptr, 200 * 1024, 0));
  EXPECT_EQ(0, block);
  EXPECT_EQ(0, grid);
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuOccupancyMaxPotentialBlockSize(nullptr, &block, saxpy, nullptr, 0, 0));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuModuleUnload(module));
}

// A stream held busy by wait_flag reports CUDA_ERROR_NOT_READY, and so does an event behind it.
TEST_F(CudaTestDriver, StreamsRunAsynchronously) {
  if (!have_test_ptx()) GTEST_SKIP() << "no PTX built (clang-19 missing)";
  CUmodule module = nullptr;
  std::string info_log, error_log;
  ASSERT_EQ(CUDA_SUCCESS, load_ptx(test_ptx(), &module, &info_log, &error_log));
  CUfunction wait_flag = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuModuleGetFunction(&wait_flag, module, "wait_flag"));
  CUdeviceptr flags = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&flags, 2 * sizeof(int)));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemsetD8_v2(flags, 0, 2 * sizeof(int)));
  // Non-blocking: the default stream's copy that releases it does not wait for it.
  CUstream stream = nullptr;
  CUevent event = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  CUdeviceptr flag = flags, done = flags + sizeof(int);
  void* params[] = {&flag, &done};
  ASSERT_EQ(CUDA_SUCCESS,
            cu.cuLaunchKernel(wait_flag, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuEventRecord(event, stream));
  EXPECT_EQ(CUDA_ERROR_NOT_READY, cu.cuStreamQuery(stream));
  EXPECT_EQ(CUDA_ERROR_NOT_READY, cu.cuEventQuery(event));
  const int one = 1;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyHtoD_v2(flag, &one, sizeof one));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuEventSynchronize(event));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamQuery(stream));
  int finished = 0;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(&finished, done, sizeof finished));
  EXPECT_EQ(1, finished);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuEventDestroy_v2(event));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(flags));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuModuleUnload(module));
}

// What a stream says of itself: its context (any context's stream) and its priority (clamped to
// an H100's range).
TEST_F(CudaTestDriver, StreamsNameTheirContextAndPriority) {
  CUstream urgent = nullptr, plain = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreateWithPriority(&urgent, CU_STREAM_NON_BLOCKING, -9));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&plain, CU_STREAM_NON_BLOCKING));
  int priority = 5;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamGetPriority(urgent, &priority));
  EXPECT_EQ(-5, priority);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamGetPriority(plain, &priority));
  EXPECT_EQ(0, priority);
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuStreamGetPriority(plain, nullptr));
  CUcontext owner = nullptr;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamGetCtx(urgent, &owner));
  EXPECT_EQ(context, owner);
  owner = nullptr;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamGetCtx(nullptr, &owner));  // the current context's
  EXPECT_EQ(context, owner);
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuStreamGetCtx(plain, nullptr));
  int unknown = 0;
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,
            cu.cuStreamGetCtx(reinterpret_cast<CUstream>(&unknown), &owner));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(plain));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(urgent));
}

// Managed memory is host memory the host reaches at once; prefetch and advice check the range (one
// managed allocation), the device (CU_DEVICE_CPU or a device) and the advice.
TEST_F(CudaTestDriver, ManagedMemoryTakesPrefetchAndAdvice) {
  CUdeviceptr managed = 0, plain = 0;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAllocManaged(&managed, 64, 4));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocManaged(&managed, 4096, CU_MEM_ATTACH_GLOBAL));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&plain, 4096));
  reinterpret_cast<int*>(static_cast<uintptr_t>(managed))[1023] = 42;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPrefetchAsync(managed, 4096, 0, nullptr));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPrefetchAsync(managed + 8, 8, CU_DEVICE_CPU, nullptr));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPrefetchAsync(managed, 4097, 0, nullptr));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPrefetchAsync(plain, 16, 0, nullptr));
  EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cu.cuMemPrefetchAsync(managed, 16, 7, nullptr));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemAdvise(managed, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, 0));
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuMemAdvise(managed, 4096, CU_MEM_ADVISE_UNSET_ACCESSED_BY, CU_DEVICE_CPU));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAdvise(managed, 4096, 7, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuMemAdvise(plain, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, 0));
  int value = 0;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(&value, managed + 4092, sizeof value));
  EXPECT_EQ(42, value);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(plain));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(managed));
}

// Any two devices can be peers (all live in host memory). Access goes from the current context to
// another, one way, and the reset of either context forgets it.
TEST_F(CudaTestDriver, PeerAccessIsOneWayAndAResetForgetsIt) {
  int can = -1;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(1, can);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceCanAccessPeer(&can, 1, 0));
  EXPECT_EQ(1, can);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceCanAccessPeer(&can, 1, 1));
  EXPECT_EQ(0, can);  // not its own peer
  EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cu.cuDeviceCanAccessPeer(&can, 0, 2));
  EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cu.cuDeviceCanAccessPeer(&can, -1, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuDeviceCanAccessPeer(nullptr, 0, 1));

  CUcontext peer = nullptr, popped = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRetain(&peer, 1));
  int unknown = 0;
  const auto bogus = reinterpret_cast<CUcontext>(&unknown);
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuCtxEnablePeerAccess(peer, 1));
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxEnablePeerAccess(context, 0));  // itself
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxEnablePeerAccess(bogus, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxEnablePeerAccess(nullptr, 0));
  EXPECT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cu.cuCtxDisablePeerAccess(peer));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxEnablePeerAccess(peer, 0));
  EXPECT_EQ(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, cu.cuCtxEnablePeerAccess(peer, 0));
  // One way: device 1's context has not been given device 0's memory.
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPushCurrent_v2(peer));
  EXPECT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cu.cuCtxDisablePeerAccess(context));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxEnablePeerAccess(context, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPopCurrent_v2(&popped));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxDisablePeerAccess(peer));
  EXPECT_EQ(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cu.cuCtxDisablePeerAccess(peer));
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxDisablePeerAccess(context));
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxDisablePeerAccess(bogus));
  std::thread([&] {  // no current context
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxEnablePeerAccess(peer, 0));
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxDisablePeerAccess(peer));
  })
      .join();

  // Device 1's reset forgets both directions; a context not retained is no peer.
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxEnablePeerAccess(peer, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRelease_v2(1));
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxEnablePeerAccess(peer, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRetain(&peer, 1));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxEnablePeerAccess(peer, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPushCurrent_v2(peer));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxEnablePeerAccess(context, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPopCurrent_v2(&popped));

  // An injected failure changes nothing.
  ASSERT_EQ(0, d.fail("cuDeviceCanAccessPeer", CUDA_ERROR_INVALID_DEVICE, 1));
  ASSERT_EQ(0, d.fail("cuCtxDisablePeerAccess", CUDA_ERROR_INVALID_CONTEXT, 1));
  ASSERT_EQ(0, d.fail("cuCtxEnablePeerAccess", CUDA_ERROR_TOO_MANY_PEERS, 1));
  can = -1;
  EXPECT_EQ(CUDA_ERROR_INVALID_DEVICE, cu.cuDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(-1, can);
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuCtxDisablePeerAccess(peer));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxDisablePeerAccess(peer));  // still enabled until now
  EXPECT_EQ(CUDA_ERROR_TOO_MANY_PEERS, cu.cuCtxEnablePeerAccess(peer, 0));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxEnablePeerAccess(peer, 0));  // not enabled by the failure
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRelease_v2(1));

  // Found by their base names, with the results' names.
  for (const char* name : {"cuDeviceCanAccessPeer", "cuCtxEnablePeerAccess",
                           "cuCtxDisablePeerAccess", "cuMemcpyPeer", "cuMemcpyPeerAsync"}) {
    void* pointer = nullptr;
    EXPECT_EQ(CUDA_SUCCESS, d.get_proc_address(name, &pointer, kRequestedApiVersion, 0, nullptr))
        << name;
    EXPECT_EQ(dlsym(d.handle, name), pointer) << name;
  }
  const char* text = nullptr;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuGetErrorName(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, &text));
  EXPECT_STREQ("CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", text);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuGetErrorString(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, &text));
  EXPECT_STREQ("peer access has not been enabled", text);
}

// cuMemcpyPeer(Async): device memory of one context into another's, peer access enabled or not,
// each side inside an allocation of its own context; the async one in order on its stream.
TEST_F(CudaTestDriver, CopiesBetweenTwoDevicesMemory) {
  CUcontext peer = nullptr, popped = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRetain(&peer, 1));
  constexpr int n = 256;
  constexpr size_t bytes = n * sizeof(int);
  CUdeviceptr a = 0, b = 0;
  CUstream stream = nullptr, other = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&a, bytes));  // device 0's
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPushCurrent_v2(peer));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&b, bytes));  // device 1's
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&other, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPopCurrent_v2(&popped));

  std::vector<int> in(n), next(n), out(n, -1);
  for (int i = 0; i < n; ++i) {
    in[i] = i * 7;
    next[i] = -i;
  }
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemcpyHtoD_v2(a, in.data(), bytes));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyPeer(b, peer, a, context, bytes));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(out.data(), b, bytes));
  EXPECT_EQ(in, out);
  // Between the copies queued before and after it, into b from its second element on.
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyHtoDAsync_v2(a, next.data(), bytes, stream));
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuMemcpyPeerAsync(b + sizeof(int), peer, a, context, bytes - sizeof(int), stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoHAsync_v2(out.data(), b, bytes, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(in[0], out[0]);
  EXPECT_EQ(std::vector<int>(next.begin(), next.end() - 1),
            std::vector<int>(out.begin() + 1, out.end()));
  // Back the other way, on the legacy default stream.
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyPeerAsync(a, context, b, peer, bytes, nullptr));
  std::vector<int> back(n, -1);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(back.data(), a, bytes));
  EXPECT_EQ(out, back);

  // Each side inside one device allocation of its own context.
  int unknown = 0;
  const auto bogus = reinterpret_cast<CUcontext>(&unknown);
  void* pinned = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocHost_v2(&pinned, bytes));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpyPeer(b, context, a, context, bytes));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpyPeer(b, peer, a, peer, bytes));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpyPeer(b + 4, peer, a, context, bytes));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpyPeer(b, peer, address_of(pinned), context, bytes));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuMemcpyPeerAsync(address_of(out.data()), peer, a, context, 4, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemcpyPeer(b, bogus, a, context, bytes));
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemcpyPeerAsync(b, peer, a, nullptr, bytes, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE,  // a stream of device 1's context
            cu.cuMemcpyPeerAsync(b, peer, a, context, bytes, other));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyPeer(0, peer, 0, context, 0));  // nothing to copy
  std::thread([&] {                                                  // no current context
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemcpyPeer(b, peer, a, context, bytes));
  })
      .join();

  // An injected failure copies nothing.
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemsetD8_v2(b, 0, bytes));
  ASSERT_EQ(0, d.fail("cuMemcpyPeer", CUDA_ERROR_ILLEGAL_ADDRESS, 1));
  ASSERT_EQ(0, d.fail("cuMemcpyPeerAsync", CUDA_ERROR_ILLEGAL_ADDRESS, 1));
  EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cu.cuMemcpyPeer(b, peer, a, context, bytes));
  EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cu.cuMemcpyPeerAsync(b, peer, a, context, bytes, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(out.data(), b, bytes));
  EXPECT_EQ(std::vector<int>(n, 0), out);

  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFreeHost(pinned));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(other));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(b));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(a));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRelease_v2(1));
}

// A pool of `device`'s memory, as anygpu asks for one.
CUmemPoolProps pool_props(int device) {
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = device;
  return props;
}

// A host function that holds its stream until `*flag` is set.
void wait_for_flag(void* flag) {
  while (!static_cast<std::atomic<bool>*>(flag)->load()) std::this_thread::yield();
}

cuuint64_t pool_attribute(const CudaFunctions& cu, CUmemoryPool pool,
                          CUmemPool_attribute attribute) {
  cuuint64_t value = ~cuuint64_t{0};
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPoolGetAttribute(pool, attribute, &value));
  return value;
}

size_t free_device_bytes(const CudaFunctions& cu) {
  size_t free_bytes = 0, total_bytes = 0;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemGetInfo_v2(&free_bytes, &total_bytes));
  return free_bytes;
}

// Stream-ordered allocation from a pool: device memory from the call on, the block the pool's
// again in the stream's order (at once for the stream that freed it), counted in whole 256-byte
// blocks as used while allocated and reserved while the pool keeps it.
TEST_F(CudaTestDriver, PoolsHandOutMemoryInStreamOrder) {
  const CUmemPoolProps props = pool_props(0);
  CUmemoryPool pool = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemPoolCreate(&pool, &props));
  CUstream stream = nullptr, other = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
  constexpr int n = 250;  // 1000 bytes, a block of 1024
  CUdeviceptr plain = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&plain, n * sizeof(int)));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  const size_t free_before = free_device_bytes(cu);

  CUdeviceptr p = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&p, n * sizeof(int), pool, stream));
  EXPECT_NE(0u, p);
  EXPECT_EQ(1024u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(1024u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(free_before - 1024, free_device_bytes(cu));
  EXPECT_EQ(4, d.live_objects());  // two streams and two allocations

  // Device memory: memsets and copies take it, up to its block's end.
  std::vector<int> out(n, -1);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemsetD32Async(p, 0x600d, n, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoDAsync_v2(plain, p, n * sizeof(int), stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoHAsync_v2(out.data(), plain, n * sizeof(int), stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(std::vector<int>(n, 0x600d), out);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemsetD32_v2(p, 7, 256));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemsetD32_v2(p, 7, 257));

  // The free waits its turn on the stream, held here by a host function: the block stays
  // reserved, another stream gets a block of its own, the freeing stream this one at once.
  std::atomic<bool> go{false};
  ASSERT_EQ(CUDA_SUCCESS, cu.cuLaunchHostFunc(stream, wait_for_flag, &go));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(p, stream));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(1024u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(3, d.live_objects());
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemsetD8_v2(p, 0, 1));  // no longer memory
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFreeAsync(p, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFree_v2(p));
  CUdeviceptr q = 0, r = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&q, 600, pool, other));  // 768 bytes
  EXPECT_NE(p, q);
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&r, 1000, pool, stream));
  EXPECT_EQ(p, r);
  EXPECT_EQ(1792u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(1792u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  go = true;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemsetD8Async(r, 1, 1000, stream));

  // Release threshold 0: each block goes back once its free has completed.
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(r, stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(q, other));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(other));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(free_before, free_device_bytes(cu));

  // Within a threshold of 4096 bytes the pool keeps what it can: of a 2048 and a 4096-byte block
  // freed (6144 reserved), the larger stays and serves a later 3000-byte request on any stream.
  cuuint64_t threshold = 4096;
  ASSERT_EQ(CUDA_SUCCESS,
            cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
  EXPECT_EQ(4096u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
  CUdeviceptr a = 0, b = 0, c = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&a, 2048, pool, stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&b, 4096, pool, stream));
  EXPECT_EQ(6144u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(a, stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(b, stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(4096u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(free_before - 4096, free_device_bytes(cu));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&c, 3000, pool, other));
  EXPECT_EQ(b, c);
  EXPECT_EQ(4096u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(4096u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));

  // Trimming gives back kept blocks, never what is allocated (here with no threshold to keep
  // within).
  threshold = ~cuuint64_t{0};
  ASSERT_EQ(CUDA_SUCCESS,
            cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&a, 1024, pool, other));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(c, other));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(other));
  EXPECT_EQ(1024u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(5120u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPoolTrimTo(pool, 8192));
  EXPECT_EQ(5120u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPoolTrimTo(pool, 0));
  EXPECT_EQ(1024u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  // cuMemFree_v2 frees it too, the work that may use it done first; the block stays kept.
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemsetD8Async(a, 3, 1024, other));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(a));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(1024u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFreeAsync(a, other));

  // Destroyed, the pool gives back what it keeps.
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPoolDestroy(pool));
  EXPECT_EQ(free_before, free_device_bytes(cu));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(other));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(plain));
}

// cuMemAllocAsync takes the default pool of the stream's device (release threshold 0), and the
// legacy default stream frees at once; a pool's memory is its own device's, whatever the stream.
TEST_F(CudaTestDriver, DefaultPoolsAndAnotherDevicesPool) {
  CUstream stream = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&stream, 0));
  const size_t free_before = free_device_bytes(cu);
  CUdeviceptr a = 0, b = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocAsync(&a, 4096, stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocAsync(&b, 100, nullptr));  // the legacy default stream
  EXPECT_EQ(free_before - 4096 - 256, free_device_bytes(cu));
  std::vector<unsigned char> out(4096, 0);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemsetD8Async(a, 0x5a, 4096, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoHAsync_v2(out.data(), a, 4096, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(std::vector<unsigned char>(4096, 0x5a), out);
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(b, reinterpret_cast<CUstream>(1)));  // CU_STREAM_LEGACY
  EXPECT_EQ(free_before - 4096, free_device_bytes(cu));  // given back at once

  // Held pending on its stream, the block serves that stream again at once.
  std::atomic<bool> go{false};
  CUdeviceptr again = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuLaunchHostFunc(stream, wait_for_flag, &go));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(a, stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocAsync(&again, 4000, stream));
  EXPECT_EQ(a, again);
  go = true;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(again, stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(free_before, free_device_bytes(cu));
  EXPECT_EQ(1, d.live_objects());

  // Device 1's pool, used on device 0's stream: the memory is device 1's (its context's, to
  // cuMemcpyPeer).
  CUcontext peer = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRetain(&peer, 1));
  const CUmemPoolProps props = pool_props(1);
  CUmemoryPool pool = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemPoolCreate(&pool, &props));
  CUdeviceptr there = 0, here = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&there, 64, pool, stream));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&here, 64));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyPeer(there, peer, here, context, 64));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemcpyPeer(there, context, here, context, 64));
  EXPECT_EQ(free_before - 256 - 64, free_device_bytes(cu));  // one count for all devices
  // Destroyed with an allocation live: the handle goes at once, the pool once it is freed.
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPoolDestroy(pool));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolDestroy(pool));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolTrimTo(pool, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAllocFromPoolAsync(&b, 64, pool, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemsetD8_v2(there, 1, 64));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(there, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(free_before - 64, free_device_bytes(cu));  // all but `here` given back
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(here));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRelease_v2(1));
}

// Every error the pool calls have, and injected failures that change nothing.
TEST_F(CudaTestDriver, PoolCallsRefuseWhatCudaRefuses) {
  CUmemoryPool pool = nullptr;
  CUmemPoolProps props = pool_props(0);
  props.allocType = 0;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolCreate(&pool, &props));
  props = pool_props(0);
  props.location.type = 0;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolCreate(&pool, &props));
  for (int device : {-1, 2}) {
    props = pool_props(device);
    EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolCreate(&pool, &props)) << device;
  }
  props = pool_props(0);
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolCreate(nullptr, &props));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolCreate(&pool, nullptr));
  EXPECT_EQ(nullptr, pool);
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemPoolCreate(&pool, &props));

  int unknown = 0;
  const auto bogus_pool = reinterpret_cast<CUmemoryPool>(&unknown);
  const auto bogus_stream = reinterpret_cast<CUstream>(&unknown);
  CUstream stream = nullptr, elsewhere = nullptr;
  CUcontext peer = nullptr, popped = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&stream, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRetain(&peer, 1));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPushCurrent_v2(peer));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&elsewhere, 0));  // device 1's
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxPopCurrent_v2(&popped));

  CUdeviceptr p = 0;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAllocFromPoolAsync(&p, 0, pool, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAllocFromPoolAsync(nullptr, 64, pool, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAllocFromPoolAsync(&p, 64, nullptr, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAllocFromPoolAsync(&p, 64, bogus_pool, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuMemAllocFromPoolAsync(&p, 64, pool, bogus_stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuMemAllocFromPoolAsync(&p, 64, pool, elsewhere));
  EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY,
            cu.cuMemAllocFromPoolAsync(&p, size_t{16} << 30, pool, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAllocAsync(&p, 0, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemAllocAsync(nullptr, 64, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuMemAllocAsync(&p, 64, bogus_stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuMemAllocAsync(&p, 64, elsewhere));
  EXPECT_EQ(0u, p);
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));

  // cuMemFreeAsync takes the start of a live stream-ordered allocation only.
  CUdeviceptr plain = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&plain, 64));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocFromPoolAsync(&p, 512, pool, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFreeAsync(plain, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFreeAsync(p + 256, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFreeAsync(0, stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuMemFreeAsync(p, bogus_stream));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuMemFreeAsync(p, elsewhere));
  std::thread([&] {  // no current context
    CUdeviceptr q = 0;
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemAllocFromPoolAsync(&q, 64, pool, stream));
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemAllocAsync(&q, 64, nullptr));
    EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemFreeAsync(p, stream));
  })
      .join();
  EXPECT_EQ(512u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));  // still live

  // Attributes: the threshold is read and set, the counts only read, nothing else.
  cuuint64_t value = 1;
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &value));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &value));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolSetAttribute(pool, 1, &value));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolGetAttribute(pool, 1, &value));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolGetAttribute(pool, 6, &value));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, nullptr));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, nullptr));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuMemPoolGetAttribute(bogus_pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &value));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE,
            cu.cuMemPoolSetAttribute(bogus_pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &value));
  EXPECT_EQ(1u, value);
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolTrimTo(bogus_pool, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolTrimTo(nullptr, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolDestroy(bogus_pool));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolDestroy(nullptr));

  // An injected failure does nothing: no pool, no memory, no free, no value, no destroy.
  CUmemoryPool none = nullptr;
  CUdeviceptr q = 0;
  ASSERT_EQ(0, d.fail("cuMemPoolCreate", CUDA_ERROR_OUT_OF_MEMORY, 1));
  ASSERT_EQ(0, d.fail("cuMemAllocFromPoolAsync", CUDA_ERROR_OUT_OF_MEMORY, 1));
  ASSERT_EQ(0, d.fail("cuMemAllocAsync", CUDA_ERROR_OUT_OF_MEMORY, 1));
  ASSERT_EQ(0, d.fail("cuMemFreeAsync", CUDA_ERROR_ILLEGAL_ADDRESS, 1));
  ASSERT_EQ(0, d.fail("cuMemPoolGetAttribute", CUDA_ERROR_NOT_SUPPORTED, 1));
  ASSERT_EQ(0, d.fail("cuMemPoolSetAttribute", CUDA_ERROR_NOT_SUPPORTED, 1));
  ASSERT_EQ(0, d.fail("cuMemPoolTrimTo", CUDA_ERROR_NOT_SUPPORTED, 1));
  ASSERT_EQ(0, d.fail("cuMemPoolDestroy", CUDA_ERROR_INVALID_VALUE, 1));
  EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cu.cuMemPoolCreate(&none, &props));
  EXPECT_EQ(nullptr, none);
  EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cu.cuMemAllocFromPoolAsync(&q, 64, pool, stream));
  EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cu.cuMemAllocAsync(&q, 64, stream));
  EXPECT_EQ(0u, q);
  EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, cu.cuMemFreeAsync(p, stream));
  value = 7;
  EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED,
            cu.cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &value));
  EXPECT_EQ(7u, value);
  EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED,
            cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &value));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
  EXPECT_EQ(512u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED, cu.cuMemPoolTrimTo(pool, 0));
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemPoolDestroy(pool));
  EXPECT_EQ(4, d.live_objects());  // two streams, `plain` and `p`
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFreeAsync(p, stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamSynchronize(stream));
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPoolDestroy(pool));

  // CUDA 11.2's, found by their base names; the device says it has pools.
  for (const char* name :
       {"cuMemPoolCreate", "cuMemPoolDestroy", "cuMemAllocFromPoolAsync", "cuMemAllocAsync",
        "cuMemFreeAsync", "cuMemPoolTrimTo", "cuMemPoolSetAttribute", "cuMemPoolGetAttribute"}) {
    void* pointer = nullptr;
    CUdriverProcAddressQueryResult status = -1;
    EXPECT_EQ(CUDA_SUCCESS, d.get_proc_address(name, &pointer, kRequestedApiVersion, 0, &status))
        << name;
    EXPECT_EQ(dlsym(d.handle, name), pointer) << name;
    EXPECT_EQ(CUDA_ERROR_NOT_FOUND, d.get_proc_address(name, &pointer, 11010, 0, &status));
    EXPECT_EQ(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, status) << name;
  }
  int supported = 0;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceGetAttribute(&supported, 115, 0));  // MEMORY_POOLS_SUPPORTED
  EXPECT_EQ(1, supported);

  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(plain));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuStreamDestroy_v2(stream));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRelease_v2(1));  // destroys `elsewhere`
}

// Many threads allocating and freeing on their own streams from one pool and the default one.
TEST_F(CudaTestDriver, PoolsServeManyThreads) {
  const CUmemPoolProps props = pool_props(0);
  CUmemoryPool pool = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemPoolCreate(&pool, &props));
  cuuint64_t threshold = 1 << 20;
  ASSERT_EQ(CUDA_SUCCESS,
            cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
  const size_t free_before = free_device_bytes(cu);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      auto check = [&](CUresult r) { failures += r != CUDA_SUCCESS; };
      check(cu.cuCtxSetCurrent(context));
      CUstream stream = nullptr;
      check(cu.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
      for (int i = 0; i < 50; ++i) {
        const unsigned value = static_cast<unsigned>(t * 1000 + i);
        const size_t count = 64 + 32 * ((t + i) % 7);
        CUdeviceptr p = 0;
        check(i % 2 ? cu.cuMemAllocAsync(&p, count * 4, stream)
                    : cu.cuMemAllocFromPoolAsync(&p, count * 4, pool, stream));
        std::vector<unsigned> out(count, 0);
        check(cu.cuMemsetD32Async(p, value, count, stream));
        check(cu.cuMemcpyDtoHAsync_v2(out.data(), p, count * 4, stream));
        check(cu.cuMemFreeAsync(p, stream));
        check(cu.cuStreamSynchronize(stream));
        for (unsigned got : out) failures += got != value;
      }
      check(cu.cuStreamDestroy_v2(stream));
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(0, failures.load());
  EXPECT_EQ(0u, pool_attribute(cu, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemPoolDestroy(pool));
  EXPECT_EQ(free_before, free_device_bytes(cu));  // the default pool keeps nothing either
}

TEST_F(CudaTestDriver, InjectedFailureSurfacesOnce) {
  const long calls = d.calls("cuMemAlloc");
  EXPECT_EQ(calls, d.calls("cuMemAlloc_v2"));
  EXPECT_EQ(-1, d.calls("cuNoSuchFunction"));
  EXPECT_EQ(-1, d.fail("cuNoSuchFunction", 1, 1));
  EXPECT_EQ(-1, d.fail("cuMemAlloc", 2, 0));

  ASSERT_EQ(0, d.fail("cuMemAlloc", CUDA_ERROR_OUT_OF_MEMORY, 2));  // the second call from now
  CUdeviceptr first = 0, second = 0, third = 0;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&first, 16));
  EXPECT_EQ(CUDA_ERROR_OUT_OF_MEMORY, cu.cuMemAlloc_v2(&second, 16));
  EXPECT_EQ(0u, second);
  EXPECT_EQ(1, d.live_objects());  // the failed call allocated nothing
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&third, 16));
  EXPECT_EQ(calls + 3, d.calls("cuMemAlloc"));

  ASSERT_EQ(0, d.fail("cuMemFree_v2", 719, 1));  // versioned names too
  EXPECT_EQ(719, cu.cuMemFree_v2(first));
  EXPECT_EQ(2, d.live_objects());  // not freed
  ASSERT_EQ(0, d.fail("cuMemFree", 719, 1));
  d.clear_failures();
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(first));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(third));
}

TEST_F(CudaTestDriver, ImagesItCannotRunFailAsARealDriverDoes) {
  CUmodule module = nullptr;
  std::string info_log, error_log;
  const std::string newer_version = ".version 9.9\n.target sm_90\n.address_size 64\n";
  EXPECT_EQ(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
            load_ptx(newer_version, &module, &info_log, &error_log));
  EXPECT_NE(std::string::npos, error_log.find("Unsupported .version 9.9; current version is '8.4'"))
      << error_log;
  EXPECT_EQ("", info_log);
  // The log is cut to the buffer, its NUL included.
  EXPECT_EQ(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
            load_ptx(newer_version, &module, &info_log, &error_log, 16));
  EXPECT_EQ(15u, error_log.size());

  const std::string newer_target = "// a comment\n.version 7.8\n.target sm_100\n.address_size 64\n";
  EXPECT_EQ(CUDA_ERROR_NO_BINARY_FOR_GPU, load_ptx(newer_target, &module, &info_log, &error_log));
  EXPECT_NE(std::string::npos, error_log.find("line 3")) << error_log;
  EXPECT_NE(std::string::npos, error_log.find("sm_100")) << error_log;

  // PTX runs to its NUL: text that runs into binary bytes first is not PTX a driver takes.
  const std::string unterminated = ".version 7.8\n.target sm_90\n\x01\x02";
  EXPECT_EQ(CUDA_ERROR_INVALID_PTX, load_ptx(unterminated, &module, &info_log, &error_log));
  EXPECT_NE(std::string::npos, error_log.find("line 3")) << error_log;

  EXPECT_EQ(CUDA_ERROR_INVALID_IMAGE,
            load_ptx("not a code object", &module, &info_log, &error_log));
  const unsigned char spirv[] = {0x03, 0x02, 0x23, 0x07, 0, 0, 0, 0};
  EXPECT_EQ(CUDA_ERROR_INVALID_IMAGE, cu.cuModuleLoadDataEx(&module, spirv, 0, nullptr, nullptr));

  const std::string sm80 = read_file(ANYGPU_CUDA_TEST_DATA_DIR "/kernels_sm80.cubin");
  const std::string sm90 = read_file(ANYGPU_CUDA_TEST_DATA_DIR "/kernels_sm90.cubin");
  ASSERT_FALSE(sm80.empty());
  ASSERT_FALSE(sm90.empty());
  EXPECT_EQ(CUDA_ERROR_NO_BINARY_FOR_GPU,
            cu.cuModuleLoadDataEx(&module, sm80.data(), 0, nullptr, nullptr));
  EXPECT_EQ(0, d.live_objects());
  ASSERT_EQ(CUDA_SUCCESS, cu.cuModuleLoadDataEx(&module, sm90.data(), 0, nullptr, nullptr));
  CUfunction function = nullptr;
  // In the cubin, but not in the host build of the test kernels.
  EXPECT_EQ(CUDA_ERROR_NOT_FOUND, cu.cuModuleGetFunction(&function, module, "scale"));
  EXPECT_EQ(CUDA_ERROR_NOT_FOUND, cu.cuModuleGetFunction(&function, module, "saxpy"));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuModuleUnload(module));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuModuleUnload(module));

  // A fatbin: its sm_80 cubin does not run on sm_90, and its PTX (9.0, from CUDA 13) is newer than
  // this CUDA 12.4 driver takes. A compressed one is not decompressed here.
  const std::string fatbin = read_file(ANYGPU_CUDA_TEST_DATA_DIR "/kernels_sm80_compute90.fatbin");
  const std::string compressed = read_file(ANYGPU_CUDA_TEST_DATA_DIR "/kernels_compressed.fatbin");
  ASSERT_FALSE(fatbin.empty());
  ASSERT_FALSE(compressed.empty());
  EXPECT_EQ(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
            cu.cuModuleLoadDataEx(&module, fatbin.data(), 0, nullptr, nullptr));
  EXPECT_EQ(CUDA_ERROR_NOT_SUPPORTED,
            cu.cuModuleLoadDataEx(&module, compressed.data(), 0, nullptr, nullptr));
}

TEST_F(CudaTestDriver, GetProcAddressTakesBaseNames) {
  ASSERT_NE(nullptr, d.get_proc_address);
  void* pointer = nullptr;
  CUdriverProcAddressQueryResult status = -1;
  EXPECT_EQ(CUDA_SUCCESS, d.get_proc_address("cuMemAlloc", &pointer, kRequestedApiVersion,
                                             CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status));
  EXPECT_EQ(CU_GET_PROC_ADDRESS_SUCCESS, status);
  EXPECT_EQ(dlsym(d.handle, "cuMemAlloc_v2"), pointer);
  EXPECT_EQ(CUDA_SUCCESS,
            d.get_proc_address("cuDevicePrimaryCtxRelease", &pointer, 12000, 0, &status));
  EXPECT_EQ(dlsym(d.handle, "cuDevicePrimaryCtxRelease_v2"), pointer);

  // ANYGPU_CUDA_TEST_MISSING=cuMemsetD8Async, and a name no driver has.
  for (const char* name : {"cuMemsetD8Async", "cuNoSuchFunction", "cuMemAlloc_v2"}) {
    EXPECT_EQ(CUDA_ERROR_NOT_FOUND, d.get_proc_address(name, &pointer, 12000, 0, &status)) << name;
    EXPECT_EQ(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, status) << name;
    EXPECT_EQ(nullptr, pointer);
  }
  // cuFuncGetParamInfo is CUDA 12.4: asked for as CUDA 12.0 it is not sufficient.
  EXPECT_EQ(CUDA_ERROR_NOT_FOUND,
            d.get_proc_address("cuFuncGetParamInfo", &pointer, 12000, 0, &status));
  EXPECT_EQ(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, status);
  EXPECT_EQ(CUDA_SUCCESS, d.get_proc_address("cuFuncGetParamInfo", &pointer, 12040, 0, &status));
  EXPECT_EQ(reinterpret_cast<void*>(cu.cuFuncGetParamInfo), pointer);
}

// What an nvcc-built CUDA Runtime program calls beyond anygpu's list (tests/interpose/programs/
// has one): the CUDA 13.0 ABIs of cuCtxSynchronize and cuCtxGetDevice, kernels from a library,
// launched by their CUkernel, and cuGetExportTable, which has no table to give.
TEST_F(CudaTestDriver, HasTheCudaRuntimesDocumentedCalls) {
  // This driver says 12.4 (the default), so a CUDA 13.0 caller still gets the 12.x ABI of
  // cuCtxSynchronize; the 13.0 one (a context argument) is there by name.
  void* pointer = nullptr;
  CUdriverProcAddressQueryResult status = -1;
  EXPECT_EQ(CUDA_SUCCESS, d.get_proc_address("cuCtxSynchronize", &pointer, 13000, 0, &status));
  EXPECT_EQ(dlsym(d.handle, "cuCtxSynchronize"), pointer);
  const auto synchronize_v2 =
      reinterpret_cast<CUresult (*)(CUcontext)>(dlsym(d.handle, "cuCtxSynchronize_v2"));
  ASSERT_NE(nullptr, synchronize_v2);
  EXPECT_EQ(CUDA_SUCCESS, synchronize_v2(context));
  EXPECT_EQ(CUDA_SUCCESS, synchronize_v2(nullptr));  // the current context
  const auto get_device =
      reinterpret_cast<CUresult (*)(CUdevice*, CUcontext)>(dlsym(d.handle, "cuCtxGetDevice_v2"));
  ASSERT_NE(nullptr, get_device);
  CUdevice device = -1;
  EXPECT_EQ(CUDA_SUCCESS, get_device(&device, context));
  EXPECT_EQ(0, device);

  // No private tables: every UUID is not found (driver_export_table.cpp).
  ASSERT_EQ(CUDA_SUCCESS, d.get_proc_address("cuGetExportTable", &pointer, 3000, 0, &status));
  const auto get_table = reinterpret_cast<CUresult (*)(const void**, const void*)>(pointer);
  const unsigned char runtime[16] = {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a,
                                     0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9};
  const void* table = &pointer;
  EXPECT_EQ(CUDA_ERROR_NOT_FOUND, get_table(&table, runtime));
  EXPECT_EQ(nullptr, table);
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, get_table(nullptr, runtime));

  if (!have_test_ptx()) GTEST_SKIP() << "no PTX built (clang-19 missing)";
  using LoadData =
      CUresult (*)(void**, const void*, CUjit_option*, void**, unsigned, int*, void**, unsigned);
  using GetKernel = CUresult (*)(void**, void*, const char*);
  const auto load_data = reinterpret_cast<LoadData>(dlsym(d.handle, "cuLibraryLoadData"));
  const auto get_kernel = reinterpret_cast<GetKernel>(dlsym(d.handle, "cuLibraryGetKernel"));
  const auto get_function =
      reinterpret_cast<CUresult (*)(CUfunction*, void*)>(dlsym(d.handle, "cuKernelGetFunction"));
  const auto unload = reinterpret_cast<CUresult (*)(void*)>(dlsym(d.handle, "cuLibraryUnload"));
  ASSERT_TRUE(load_data && get_kernel && get_function && unload);
  const std::string ptx = test_ptx();
  void *library = nullptr, *kernel = nullptr, *again = nullptr;
  ASSERT_EQ(CUDA_SUCCESS,
            load_data(&library, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  EXPECT_EQ(1, d.live_objects());
  EXPECT_EQ(CUDA_ERROR_NOT_FOUND, get_kernel(&kernel, library, "no_such_kernel"));
  ASSERT_EQ(CUDA_SUCCESS, get_kernel(&kernel, library, "saxpy"));
  EXPECT_EQ(CUDA_SUCCESS, get_kernel(&again, library, "saxpy"));
  EXPECT_EQ(kernel, again);
  CUfunction function = nullptr;
  EXPECT_EQ(CUDA_SUCCESS, get_function(&function, kernel));
  EXPECT_NE(nullptr, function);

  constexpr int n = 300;
  std::vector<float> x(n), y(n, 1.0f), result(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  CUdeviceptr dx = 0, dy = 0;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&dx, n * sizeof(float)));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&dy, n * sizeof(float)));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyHtoD_v2(dx, x.data(), n * sizeof(float)));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyHtoD_v2(dy, y.data(), n * sizeof(float)));
  int count = n;
  float a = 2.0f;
  void* params[] = {&count, &a, &dx, &dy};
  EXPECT_EQ(CUDA_SUCCESS, cu.cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), 2, 1, 1, 256, 1,
                                            1, 0, nullptr, params, nullptr));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemcpyDtoH_v2(result.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(2.0f * x[i] + 1.0f, result[i]) << i;
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(dx));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuMemFree_v2(dy));
  EXPECT_EQ(CUDA_SUCCESS, unload(library));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, unload(library));
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), 1, 1,
                                                         1, 32, 1, 1, 0, nullptr, params, nullptr));
}

// The last release resets the primary context: what was made in it is gone.
TEST_F(CudaTestDriver, LastReleaseResetsThePrimaryContext) {
  CUdeviceptr pointer = 0, pooled = 0;
  CUstream stream = nullptr;
  const size_t free_before = free_device_bytes(cu);
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAlloc_v2(&pointer, 64));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuStreamCreate(&stream, 0));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuMemAllocAsync(&pooled, 64, stream));
  EXPECT_EQ(3, d.live_objects());
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRelease_v2(0));
  EXPECT_EQ(0, d.live_objects());
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuMemAlloc_v2(&pointer, 64));  // current, not active
  EXPECT_EQ(CUDA_ERROR_INVALID_CONTEXT, cu.cuDevicePrimaryCtxRelease_v2(0));
  CUcontext retained = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRetain(&retained, 0));  // for TearDown
  EXPECT_EQ(context, retained);
  EXPECT_EQ(CUDA_ERROR_INVALID_HANDLE, cu.cuStreamDestroy_v2(stream));
  EXPECT_EQ(free_before, free_device_bytes(cu));  // the default pool's block went back too
  EXPECT_EQ(CUDA_ERROR_INVALID_VALUE, cu.cuMemFreeAsync(pooled, nullptr));
}

TEST_F(CudaTestDriver, LaunchesFromManyThreads) {
  if (!have_test_ptx()) GTEST_SKIP() << "no PTX built (clang-19 missing)";
  CUmodule module = nullptr;
  std::string info_log, error_log;
  ASSERT_EQ(CUDA_SUCCESS, load_ptx(test_ptx(), &module, &info_log, &error_log));
  CUfunction saxpy = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuModuleGetFunction(&saxpy, module, "saxpy"));
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      auto check = [&](CUresult r) { failures += r != CUDA_SUCCESS; };
      check(cu.cuCtxSetCurrent(context));
      const int n = 1000, launches = 20;
      float a = 1.0f + t;
      std::vector<float> x(n, 1.0f), y(n, 0.0f);
      CUdeviceptr dx = 0, dy = 0;
      CUstream stream = nullptr;
      check(cu.cuStreamCreate(&stream, 0));
      check(cu.cuMemAlloc_v2(&dx, n * sizeof(float)));
      check(cu.cuMemAlloc_v2(&dy, n * sizeof(float)));
      check(cu.cuMemcpyHtoDAsync_v2(dx, x.data(), n * sizeof(float), stream));
      check(cu.cuMemcpyHtoDAsync_v2(dy, y.data(), n * sizeof(float), stream));
      int count = n;
      void* params[] = {&count, &a, &dx, &dy};
      for (int i = 0; i < launches; ++i)
        check(
            cu.cuLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, params, nullptr));
      check(cu.cuMemcpyDtoHAsync_v2(y.data(), dy, n * sizeof(float), stream));
      check(cu.cuStreamSynchronize(stream));
      for (float value : y) failures += value != a * launches;
      check(cu.cuStreamDestroy_v2(stream));
      check(cu.cuMemFree_v2(dx));
      check(cu.cuMemFree_v2(dy));
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(0, failures.load());
  EXPECT_EQ(CUDA_SUCCESS, cu.cuModuleUnload(module));
}

// The old driver (CUDA 11.4) under an environment that changes everything it reads.
TEST(CudaTestDriverOld, HasNoProcAddressAndReadsItsEnvironment) {
  Driver& d = old_driver();
  ASSERT_NE(nullptr, d.handle) << dlerror();
  const CudaFunctions& cu = d.cu;
  EXPECT_EQ(nullptr, d.get_proc_address);
  EXPECT_EQ(nullptr, cu.cuFuncGetParamInfo);
  EXPECT_NE(nullptr, cu.cuLaunchKernel);
  EXPECT_NE(nullptr, cu.cuMemcpyPeerAsync);        // CUDA 4.0's, as every peer call
  EXPECT_NE(nullptr, cu.cuMemAllocFromPoolAsync);  // CUDA 11.2's, as every pool call
  int version = 0, count = 0, value = 0;
  const CUmemPoolProps props = pool_props(0);
  CUmemoryPool pool = nullptr;
  EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cu.cuMemPoolCreate(&pool, &props));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDriverGetVersion(&version));  // before cuInit
  EXPECT_EQ(11040, version);
  EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cu.cuDeviceGetCount(&count));
  EXPECT_EQ(CUDA_ERROR_NO_DEVICE, cu.cuInit(0));  // ANYGPU_CUDA_TEST_FAIL=cuInit:100
  EXPECT_EQ(CUDA_ERROR_NOT_INITIALIZED, cu.cuDeviceGetCount(&count));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuInit(0));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDeviceGetCount(&count));
  EXPECT_EQ(2, count);
  EXPECT_EQ(CUDA_SUCCESS,
            cu.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 1));
  EXPECT_EQ(8, value);
  EXPECT_EQ(2, d.calls("cuInit"));

  CUcontext context = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRetain(&context, 1));
  ASSERT_EQ(CUDA_SUCCESS, cu.cuCtxSetCurrent(context));
  if (have_test_ptx()) {
    // PTX 7.8 is CUDA 11.8's; this driver takes 7.4.
    const std::string ptx = read_file(ANYGPU_CUDA_TEST_PTX_PATH);
    CUmodule module = nullptr;
    EXPECT_EQ(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
              cu.cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr));
  }
  EXPECT_EQ(CUDA_SUCCESS, cu.cuCtxSetCurrent(nullptr));
  EXPECT_EQ(CUDA_SUCCESS, cu.cuDevicePrimaryCtxRelease_v2(1));
  EXPECT_EQ(0, d.live_objects());
}

}  // namespace
