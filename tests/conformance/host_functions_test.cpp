// Host functions on streams (agLaunchHostFunc) on every device: ordered with the stream's other
// work both ways, run without a synchronize, once each, and refused the calls that would wait for
// their own device.
#include <anygpu/anygpu.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class HostFunctionTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ASSERT_AG(agStreamCreate(device, 0, &stream));
    ASSERT_AG(agStreamCreate(device, 0, &other_stream));
  }
  void TearDown() override {
    for (ag_stream s : {stream, other_stream}) {
      if (s) {
        EXPECT_AG(agStreamDestroy(s));
      }
    }
  }

  ag_device device = device_at(GetParam());
  TestModule module{device};
  ag_stream stream = nullptr;
  ag_stream other_stream = nullptr;
};

// What the host function in OrderedWithTheWorkAroundIt sees and changes.
struct Checkpoint {
  const std::vector<float>* copied_out;  // written by the copy before the host function
  std::vector<float> seen;
  float* staged;  // read by the copy after it
};

// Kernel -> copy out -> host function (reads the copy, then rewrites the staging buffer after a
// pause) -> copy in -> copy out: the host function sees the kernel's result, and the copy after
// it sees what it wrote, though the host thread never synchronised in between.
TEST_P(HostFunctionTest, OrderedWithTheWorkAroundIt) {
  int n = 4099;
  float a = 2.0f;
  std::vector<float> x(n), y(n, 1.0f), copied_out(n, -1.0f), result(n, -1.0f);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  DeviceBuffer<float> dx(device, x), dy(device, y);
  void* staged = nullptr;
  ASSERT_AG(agMemAllocHost(device, n * sizeof(float), &staged));
  std::fill_n(static_cast<float*>(staged), n, -7.0f);
  Checkpoint checkpoint{&copied_out, {}, static_cast<float*>(staged)};

  void* params[] = {&n, &a, dx.param(), dy.param()};
  ASSERT_AG(agLaunchKernel(module.function("saxpy"), (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream,
                           params, nullptr));
  ASSERT_AG(agMemcpyDtoHAsync(copied_out.data(), dy.get(), dy.bytes(), stream));
  ASSERT_AG(agLaunchHostFunc(
      stream,
      [](void* data) {
        auto* c = static_cast<Checkpoint*>(data);
        c->seen = *c->copied_out;
        // Later work must wait: give it time to run early if it does not.
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        for (size_t i = 0; i < c->seen.size(); ++i) c->staged[i] = c->seen[i] + 0.5f;
      },
      &checkpoint));
  ASSERT_AG(agMemcpyHtoDAsync(dy.get(), staged, dy.bytes(), stream));
  ASSERT_AG(agMemcpyDtoHAsync(result.data(), dy.get(), dy.bytes(), stream));
  ASSERT_AG(agStreamSynchronize(stream));

  ASSERT_EQ(static_cast<size_t>(n), checkpoint.seen.size());
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(2.0f * i + 1.0f, checkpoint.seen[i]) << "the host function ran early, at " << i;
    ASSERT_EQ(2.0f * i + 1.5f, result[i]) << "the copy after it ran early, at " << i;
  }
  EXPECT_AG(agMemFreeHost(device, staged));
}

// Many host functions, between kernels, each called once and in the order queued.
TEST_P(HostFunctionTest, CalledOnceEachInOrder) {
  struct Log {
    std::mutex mutex;
    std::vector<int> order;
  } log;
  struct Entry {
    Log* log;
    int index;
  };
  constexpr int kCount = 200;  // more than a CPU stream's ring holds
  std::vector<Entry> entries(kCount);
  int n = 64;
  float a = 1.0f;
  DeviceBuffer<float> dx(device, std::vector<float>(n, 1.0f)), dy(device, std::vector<float>(n));
  void* params[] = {&n, &a, dx.param(), dy.param()};
  for (int i = 0; i < kCount; ++i) {
    entries[i] = {&log, i};
    ASSERT_AG(agLaunchHostFunc(
        stream,
        [](void* data) {
          auto* e = static_cast<Entry*>(data);
          std::lock_guard<std::mutex> lock(e->log->mutex);
          e->log->order.push_back(e->index);
        },
        &entries[i]));
    if (i % 16 == 0) {
      ASSERT_AG(
          agLaunchKernel(module.function("saxpy"), 1, 1, 1, 64, 1, 1, 0, stream, params, nullptr));
    }
  }
  ASSERT_AG(agStreamSynchronize(stream));
  std::vector<int> expected(kCount);
  for (int i = 0; i < kCount; ++i) expected[i] = i;
  EXPECT_EQ(expected, log.order);
}

// Like a kernel, a host function runs without anyone synchronising: the host thread only waits
// for the function's own signal.
TEST_P(HostFunctionTest, RunsWithoutASynchronize) {
  struct Signal {
    std::mutex mutex;
    std::condition_variable changed;
    bool ran = false;
  } signal;
  ASSERT_AG(agLaunchHostFunc(
      stream,
      [](void* data) {
        auto* s = static_cast<Signal*>(data);
        std::lock_guard<std::mutex> lock(s->mutex);
        s->ran = true;
        s->changed.notify_all();
      },
      &signal));
  std::unique_lock<std::mutex> lock(signal.mutex);
  EXPECT_TRUE(signal.changed.wait_for(lock, std::chrono::seconds(30), [&] { return signal.ran; }))
      << "the host function did not run within 30 s";
}

// Destroying a stream lets its pending host function run first.
TEST_P(HostFunctionTest, RunsBeforeItsStreamIsDestroyed) {
  std::atomic<int> ran{0};
  ag_stream doomed = nullptr;
  ASSERT_AG(agStreamCreate(device, 0, &doomed));
  ASSERT_AG(agLaunchHostFunc(
      doomed,
      [](void* data) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        static_cast<std::atomic<int>*>(data)->fetch_add(1);
      },
      &ran));
  ASSERT_AG(agStreamDestroy(doomed));
  EXPECT_EQ(1, ran.load());
}

// What each call made from inside a host function returned, and its detail.
struct Attempt {
  ag_result result = AG_ERROR_UNKNOWN;
  std::string detail;
};
struct InsideHostFunction {
  ag_device device;
  ag_stream own;
  ag_stream other;
  ag_event event;
  void* buffer;
  void* staged;
  Attempt stream_synchronize, device_synchronize, event_synchronize, mem_free, own_stream_copy,
      own_stream_query, other_stream_copy;
};

Attempt attempt(ag_result result) {
  const char* detail = "";
  agGetLastErrorDetail(&detail);
  return {result, detail ? detail : ""};
}

// Waits for the own device and any use of the own stream are refused, and change nothing; work
// queued on another stream of the device is accepted.
TEST_P(HostFunctionTest, RefusesWaitsForItsOwnDevice) {
  DeviceBuffer<int> buffer(device, std::vector<int>(16, 3));
  void* staged = nullptr;
  ASSERT_AG(agMemAllocHost(device, 16 * sizeof(int), &staged));
  memset(staged, 0, 16 * sizeof(int));
  ag_event event = nullptr;
  ASSERT_AG(agEventCreate(device, 0, &event));
  ASSERT_AG(agEventRecord(event, other_stream));
  InsideHostFunction inside{};
  inside.device = device;
  inside.own = stream;
  inside.other = other_stream;
  inside.event = event;
  inside.buffer = buffer.get();
  inside.staged = staged;
  ASSERT_AG(agLaunchHostFunc(
      stream,
      [](void* data) {
        auto* in = static_cast<InsideHostFunction*>(data);
        in->stream_synchronize = attempt(agStreamSynchronize(in->other));
        in->device_synchronize = attempt(agDeviceSynchronize(in->device));
        in->event_synchronize = attempt(agEventSynchronize(in->event));
        in->mem_free = attempt(agMemFree(in->device, in->buffer));
        in->own_stream_copy =
            attempt(agMemcpyDtoHAsync(in->staged, in->buffer, 16 * sizeof(int), in->own));
        in->own_stream_query = attempt(agStreamQuery(in->own));
        in->other_stream_copy =
            attempt(agMemcpyDtoHAsync(in->staged, in->buffer, 16 * sizeof(int), in->other));
      },
      &inside));
  ASSERT_AG(agStreamSynchronize(stream));
  ASSERT_AG(agStreamSynchronize(other_stream));

  const std::pair<const char*, const Attempt*> refused[] = {
      {"agStreamSynchronize", &inside.stream_synchronize},
      {"agDeviceSynchronize", &inside.device_synchronize},
      {"agEventSynchronize", &inside.event_synchronize},
      {"agMemFree", &inside.mem_free},
      {"agMemcpyDtoHAsync", &inside.own_stream_copy},
      {"agStreamQuery", &inside.own_stream_query}};
  for (const auto& [call, what] : refused) {
    SCOPED_TRACE(call);
    EXPECT_EQ(AG_ERROR_NOT_PERMITTED, what->result);
    EXPECT_EQ(0u, what->detail.rfind(call, 0)) << what->detail;
    EXPECT_NE(std::string::npos, what->detail.find("host function")) << what->detail;
  }
  // Work on another stream is anygpu's to allow; a CUDA driver refuses any call of its own there.
  ag_device_properties p{};
  p.struct_size = sizeof p;
  ASSERT_AG(agDeviceGetProperties(device, &p));
  const bool driver_may_refuse = p.backend == AG_BACKEND_CUDA || p.backend == AG_BACKEND_HIP;
  if (!driver_may_refuse || inside.other_stream_copy.result != AG_ERROR_NOT_PERMITTED) {
    EXPECT_EQ(AG_SUCCESS, inside.other_stream_copy.result) << inside.other_stream_copy.detail;
    // The copy on the other stream ran.
    for (int i = 0; i < 16; ++i) EXPECT_EQ(3, static_cast<int*>(staged)[i]) << i;
  }
  // The refused agMemFree left the buffer alone.
  std::vector<int> still(16, 0);
  ASSERT_AG(agMemcpyDtoH(device, still.data(), buffer.get(), 16 * sizeof(int)));
  EXPECT_EQ(std::vector<int>(16, 3), still);
  // Outside a host function the same calls wait as usual.
  EXPECT_AG(agDeviceSynchronize(device));
  EXPECT_AG(agEventDestroy(event));
  EXPECT_AG(agMemFreeHost(device, staged));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, HostFunctionTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
