// Issue 15, defect 3: no lock of the runtime is held while a call waits for device work. A kernel
// that waits for the host holds four threads in the four calls that wait for the device; a fifth
// creates and destroys streams, events and modules, which must all finish before the host lets
// the kernel go. Before the fix, the CPU device's synchronize held the list of streams locked while
// it waited, and the churn deadlocked behind it.
#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "test_support.h"

using namespace anygpu_test;

namespace {

using std::chrono::seconds;

class DeviceWait : public ::testing::TestWithParam<int> {
 protected:
  // The CPU device's memory is the host's: the host reads and writes the gate atomically there, as
  // the kernel does (a plain copy would race with it, which ThreadSanitizer reports).
  void write_int(void* device_pointer, int value) {
    if (is_cpu_device(device))
      __atomic_store_n(static_cast<int*>(device_pointer), value, __ATOMIC_RELEASE);
    else
      ASSERT_AG(agMemcpyHtoD(device, device_pointer, &value, sizeof value));
  }
  int read_int(const void* device_pointer) {
    int value = -1;
    if (is_cpu_device(device))
      value = __atomic_load_n(static_cast<const int*>(device_pointer), __ATOMIC_ACQUIRE);
    else
      EXPECT_AG(agMemcpyDtoH(device, &value, device_pointer, sizeof value));
    return value;
  }

  ag_device device = device_at(GetParam());
};

// Creates and destroys a stream, an event (recorded on that idle stream) and, `with_modules`, a
// module, `rounds` times; the number of calls that failed.
int churn_objects(ag_device device, int rounds, bool with_modules) {
  int bad = 0;
  for (int i = 0; i < rounds; ++i) {
    ag_stream stream = nullptr;
    ag_event event = nullptr;
    ag_module module = nullptr;
    ag_function function = nullptr;
    bad += agStreamCreate(device, 0, &stream) != AG_SUCCESS;
    bad += agEventCreate(device, 0, &event) != AG_SUCCESS;
    bad += agEventRecord(event, stream) != AG_SUCCESS;
    bad += agEventSynchronize(event) != AG_SUCCESS;
    bad += agStreamSynchronize(stream) != AG_SUCCESS;
    bad += agEventDestroy(event) != AG_SUCCESS;
    bad += agStreamDestroy(stream) != AG_SUCCESS;
    if (!with_modules) continue;
    bad += agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                            &module) != AG_SUCCESS;
    bad += agModuleGetFunction(module, "saxpy", &function) != AG_SUCCESS;
    bad += agModuleUnload(module) != AG_SUCCESS;
  }
  return bad;
}

TEST_P(DeviceWait, ObjectsComeAndGoWhileCallsWaitForAKernelThatWaitsForTheHost) {
  TestModule module(device);
  DeviceBuffer<int> gate(device, std::vector<int>{0, 0});  // {flag, done}
  ag_stream gated = nullptr;
  ASSERT_AG(agStreamCreate(device, 0, &gated));
  // Loaded before the gate kernel runs: under CUDA's lazy loading loading a kernel may wait for
  // the device's work (docs/cuda-backend.md), and the CUDA test driver's loading does.
  ag_module to_unload = nullptr;
  ASSERT_AG(agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                             &to_unload));
  ag_function queued_kernel = nullptr;  // a launch of it queued behind the gate
  ASSERT_AG(agModuleGetFunction(to_unload, "empty", &queued_kernel));
  void* flag = gate.get();
  void* done = static_cast<int*>(gate.get()) + 1;
  void* params[] = {&flag, &done};
  ASSERT_AG(
      agLaunchKernel(module.function("wait_flag"), 1, 1, 1, 1, 1, 1, 0, gated, params, nullptr));
  // An idle stream that exists when the device synchronize starts, destroyed while it waits: the
  // destroy must not wait for the gated stream (Level Zero's did).
  ag_stream idle = nullptr;
  ASSERT_AG(agStreamCreate(device, 0, &idle));
  void* to_free = nullptr;
  ASSERT_AG(agMemAlloc(device, 4096, &to_free));
  ASSERT_AG(agLaunchKernel(queued_kernel, 1, 1, 1, 1, 1, 1, 0, gated, nullptr, nullptr));

  // The waiting calls; each may return before the gate opens (a backend that need not wait), but
  // none may fail.
  std::vector<std::future<ag_result>> waiting;
  waiting.push_back(std::async(std::launch::async, [&] { return agDeviceSynchronize(device); }));
  waiting.push_back(std::async(std::launch::async, [&] { return agMemFree(device, to_free); }));
  waiting.push_back(std::async(std::launch::async, [&] { return agModuleUnload(to_unload); }));
  waiting.push_back(std::async(std::launch::async, [&] { return agStreamSynchronize(gated); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // let them reach their waits

  // Bounded: a deadlock fails the test instead of hanging it; the gate opens either way.
  // The GPU backends' agModuleUnload waits for the device (anygpu.h); the CPU's waits for nothing.
  const bool with_modules = is_cpu_device(device);
  std::future<int> churn = std::async(std::launch::async, [&] {
    return int{agStreamDestroy(idle) != AG_SUCCESS} + churn_objects(device, 20, with_modules);
  });
  const bool churn_finished = churn.wait_for(seconds(60)) == std::future_status::ready;
  EXPECT_TRUE(churn_finished)
      << "creating and destroying streams, events and modules blocked behind a wait for a kernel";
  EXPECT_EQ(0, read_int(done)) << "the gate kernel finished before the host opened the gate";

  write_int(flag, 1);
  for (auto& call : waiting) EXPECT_EQ(AG_SUCCESS, call.get());
  EXPECT_EQ(0, churn.get());
  EXPECT_EQ(1, read_int(done));
  EXPECT_AG(agStreamDestroy(gated));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, DeviceWait, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
