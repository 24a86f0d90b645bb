// Shared helpers for anygpu's tests: checked calls, the embedded test kernels, device buffers.
#pragma once

#include <anygpu/anygpu.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "anygpu_image_test_kernels.h"

namespace anygpu_test {

// This thread's last error detail.
std::string last_detail();

// Points ANYGPU_CACHE_DIR at a new directory /tmp/<prefix>-XXXXXX of this process (so that its
// first compile really compiles), removed with its entries at exit; returns its path. Call before
// anygpu reads the cache's settings (a static initialiser does).
std::string use_private_compile_cache(const char* prefix);

// Every device ordinal present (for parameterized suites); at least the CPU.
std::vector<int> all_device_ordinals();
std::string device_test_name(const ::testing::TestParamInfo<int>& info);
// The backend of a device ordinal ("cpu", "cuda", "hip", "level_zero"; "device" if unread).
std::string device_backend_name(int ordinal);

ag_device device_at(int ordinal);
ag_device cpu_device();
bool is_cpu_device(ag_device device);
// C kernels (AG_KERNEL_C) and host code objects exist only for the CPU.
#define SKIP_UNLESS_CPU_DEVICE(device, what) \
  if (!::anygpu_test::is_cpu_device(device)) \
  GTEST_SKIP() << what << " runs only on the CPU device (host-only code)"

// The embedded test kernels, loaded on a device; functions by name.
// saxpy's parameters as its module reports them: four, the third a pointer at offset 8.
void expect_saxpy_layout(ag_function saxpy);

// Fills `count` words of a new buffer of `device` with `value` on `stream`, copies them back on
// it, waits with agStreamSynchronize(`waited`) (the same stream, or one sharing its queue) and
// expects `value` throughout.
void expect_fill_round_trip(ag_device device, ag_stream stream, ag_stream waited, uint32_t value,
                            size_t count = 4096);

class TestModule {
 public:
  explicit TestModule(ag_device device);
  ~TestModule();
  TestModule(const TestModule&) = delete;
  TestModule& operator=(const TestModule&) = delete;
  ag_function function(const char* name);
  ag_module module() const { return module_; }

 private:
  ag_module module_ = nullptr;
};

// Device memory holding `count` elements of T, freed at scope exit.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer(ag_device device, size_t count) : device_(device), count_(count) {
    EXPECT_EQ(AG_SUCCESS, agMemAlloc(device, bytes(), &pointer_)) << last_detail();
  }
  DeviceBuffer(ag_device device, const std::vector<T>& values)
      : DeviceBuffer(device, values.size()) {
    upload(values);
  }
  ~DeviceBuffer() {
    if (pointer_) {
      EXPECT_EQ(AG_SUCCESS, agMemFree(device_, pointer_)) << last_detail();
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void upload(const std::vector<T>& values) {
    EXPECT_EQ(AG_SUCCESS, agMemcpyHtoD(device_, pointer_, values.data(), bytes())) << last_detail();
  }
  std::vector<T> download() const {
    std::vector<T> values(count_);
    EXPECT_EQ(AG_SUCCESS, agMemcpyDtoH(device_, values.data(), pointer_, bytes())) << last_detail();
    return values;
  }
  void* get() const { return pointer_; }
  // The address of the device pointer, for a params array.
  void* param() { return &pointer_; }
  size_t bytes() const { return count_ * sizeof(T); }

 private:
  ag_device device_;
  size_t count_;
  void* pointer_ = nullptr;
};

}  // namespace anygpu_test

#define ASSERT_AG(call) ASSERT_EQ(AG_SUCCESS, (call)) << ::anygpu_test::last_detail()
#define EXPECT_AG(call) EXPECT_EQ(AG_SUCCESS, (call)) << ::anygpu_test::last_detail()
