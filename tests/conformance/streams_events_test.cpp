// Streams and events on every device: ordering within a stream, independence between streams,
// a stream waiting on another's event, event timing.
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class StreamTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ASSERT_AG(agStreamCreate(device, 0, &stream_a));
    ASSERT_AG(agStreamCreate(device, 0, &stream_b));
  }
  void TearDown() override {
    for (ag_stream stream : {stream_a, stream_b}) {
      if (stream) {
        EXPECT_AG(agStreamDestroy(stream));
      }
    }
  }

  // Occupies `stream` with a kernel that spins until release_gate(); `gate` holds {flag, done}.
  void block_stream(ag_stream stream, DeviceBuffer<int>& gate) {
    void* flag = gate.get();
    void* done = static_cast<int*>(gate.get()) + 1;
    void* params[] = {&flag, &done};
    ASSERT_AG(
        agLaunchKernel(module.function("wait_flag"), 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  }
  void release_gate(DeviceBuffer<int>& gate) {
    const int one = 1;
    ASSERT_AG(agMemcpyHtoD(device, gate.get(), &one, sizeof one));
  }

  ag_device device = device_at(GetParam());
  TestModule module{device};
  ag_stream stream_a = nullptr, stream_b = nullptr;
};

// copy -> kernel -> copy on one stream, with host buffers, synchronised once at the end.
TEST_P(StreamTest, CopyKernelCopyRunInOrder) {
  int n = 300001;
  float a = 3.0f;
  std::vector<float> x(n), y(n), result(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 101);
    y[i] = static_cast<float>(i % 3);
  }
  DeviceBuffer<float> dx(device, n), dy(device, n);
  ASSERT_AG(agMemcpyHtoDAsync(dx.get(), x.data(), dx.bytes(), stream_a));
  ASSERT_AG(agMemcpyHtoDAsync(dy.get(), y.data(), dy.bytes(), stream_a));
  void* params[] = {&n, &a, dx.param(), dy.param()};
  ASSERT_AG(agLaunchKernel(module.function("saxpy"), (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream_a,
                           params, nullptr));
  ASSERT_AG(agMemcpyDtoHAsync(result.data(), dy.get(), dy.bytes(), stream_a));
  ASSERT_AG(agStreamSynchronize(stream_a));
  EXPECT_AG(agStreamQuery(stream_a));
  for (int i = 0; i < n; ++i) ASSERT_EQ(a * x[i] + y[i], result[i]) << "element " << i;
}

// Launch arguments are copied at the call: changing them afterwards changes nothing.
TEST_P(StreamTest, LaunchArgumentsAreCapturedAtTheCall) {
  int n = 1000;
  float a = 2.0f;
  DeviceBuffer<float> dx(device, std::vector<float>(n, 1.0f)),
      dy(device, std::vector<float>(n, 0.0f));
  DeviceBuffer<int> gate(device, std::vector<int>{0, 0});
  block_stream(stream_a, gate);
  void* params[] = {&n, &a, dx.param(), dy.param()};
  ASSERT_AG(
      agLaunchKernel(module.function("saxpy"), 4, 1, 1, 256, 1, 1, 0, stream_a, params, nullptr));
  a = 100.0f;
  n = 1;
  release_gate(gate);
  ASSERT_AG(agStreamSynchronize(stream_a));
  for (float v : dy.download()) ASSERT_EQ(2.0f, v);
}

TEST_P(StreamTest, MemsetAndDeviceToDeviceCopyAreOrdered) {
  const size_t n = 4096;
  DeviceBuffer<unsigned char> src(device, n), dst(device, n);
  ASSERT_AG(agMemsetD8Async(src.get(), 0xAB, n, stream_a));
  ASSERT_AG(agMemcpyDtoDAsync(dst.get(), src.get(), n, stream_a));
  ASSERT_AG(agMemsetD8Async(src.get(), 0x00, n / 2, stream_a));
  ASSERT_AG(agStreamSynchronize(stream_a));
  for (unsigned char v : dst.download()) ASSERT_EQ(0xAB, v);
  const std::vector<unsigned char> s = src.download();
  EXPECT_EQ(0x00, s[0]);
  EXPECT_EQ(0xAB, s[n - 1]);
}

// 16- and 32-bit memsets write whole elements, exactly the count asked for, synchronous and in
// stream order; the element after the last keeps its value.
TEST_P(StreamTest, WideMemsetsWriteWholeElements) {
  const size_t n = 1000;
  DeviceBuffer<uint16_t> halves(device, std::vector<uint16_t>(n + 1, 0x1111));
  DeviceBuffer<uint32_t> words(device, std::vector<uint32_t>(n + 1, 0x22222222u));
  ASSERT_AG(agMemsetD16(device, halves.get(), 0xBEEF, n));
  ASSERT_AG(agMemsetD32(device, words.get(), 0xC0FFEE11u, n));
  std::vector<uint16_t> h = halves.download();
  std::vector<uint32_t> w = words.download();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(0xBEEF, h[i]) << i;
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(0xC0FFEE11u, w[i]) << i;
  EXPECT_EQ(0x1111, h[n]);
  EXPECT_EQ(0x22222222u, w[n]);
  // On a stream: the second memset of each overwrites the first half, in order.
  ASSERT_AG(agMemsetD16Async(halves.get(), 0x0102, n, stream_a));
  ASSERT_AG(agMemsetD16Async(halves.get(), 0xFFFE, n / 2, stream_a));
  uint32_t* second = static_cast<uint32_t*>(words.get()) + 1;
  ASSERT_AG(agMemsetD32Async(second, 0x01020304u, n - 1, stream_a));
  ASSERT_AG(agMemsetD32Async(second, 0xFFFFFFFEu, n / 2, stream_a));
  ASSERT_AG(agStreamSynchronize(stream_a));
  h = halves.download();
  w = words.download();
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(i < n / 2 ? 0xFFFE : 0x0102, h[i]) << i;
  EXPECT_EQ(0xC0FFEE11u, w[0]);
  for (size_t i = 1; i < n; ++i) ASSERT_EQ(i <= n / 2 ? 0xFFFFFFFEu : 0x01020304u, w[i]) << i;
  EXPECT_EQ(0x22222222u, w[n]);
}

// agMemcpy finds the direction from the pointers, on a stream too; agStreamGetDevice names the
// stream's device.
TEST_P(StreamTest, CopiesWithTheDirectionFromThePointers) {
  ag_device of_stream = nullptr;
  ASSERT_AG(agStreamGetDevice(stream_a, &of_stream));
  EXPECT_EQ(device, of_stream);
  const size_t n = 3000;
  std::vector<int> values(n), back(n, -1);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i * 37 % 1001);
  DeviceBuffer<int> a(device, n), b(device, n);
  ASSERT_AG(agMemcpy(a.get(), values.data(), n * sizeof(int)));  // host to device
  ASSERT_AG(agMemcpy(b.get(), a.get(), n * sizeof(int)));        // device to device
  ASSERT_AG(agMemcpy(back.data(), b.get(), n * sizeof(int)));    // device to host
  EXPECT_EQ(values, back);
  std::vector<int> twice(n), again(n, -1);
  for (size_t i = 0; i < n; ++i) twice[i] = 2 * values[i];
  ASSERT_AG(agMemcpyAsync(a.get(), twice.data(), n * sizeof(int), stream_a));
  ASSERT_AG(agMemcpyAsync(b.get(), a.get(), n * sizeof(int), stream_a));
  ASSERT_AG(agMemcpyAsync(again.data(), b.get(), n * sizeof(int), stream_a));
  ASSERT_AG(agStreamSynchronize(stream_a));
  EXPECT_EQ(twice, again);
}

// Stream B finishes its own work while stream A is held busy.
TEST_P(StreamTest, TwoStreamsRunIndependently) {
  DeviceBuffer<int> gate(device, std::vector<int>{0, 0});
  block_stream(stream_a, gate);
  DeviceBuffer<unsigned char> b_data(device, 1024);
  ASSERT_AG(agMemsetD8Async(b_data.get(), 7, 1024, stream_b));
  ASSERT_AG(agStreamSynchronize(stream_b));  // would hang if B waited for A
  for (unsigned char v : b_data.download()) ASSERT_EQ(7, v);
  EXPECT_EQ(AG_ERROR_NOT_READY, agStreamQuery(stream_a));
  release_gate(gate);
  ASSERT_AG(agStreamSynchronize(stream_a));
  EXPECT_EQ(1, gate.download()[1]);
}

// B waits on an event recorded on A after A's blocked kernel: B's memset must wait too.
TEST_P(StreamTest, StreamWaitsOnAnotherStreamsEvent) {
  DeviceBuffer<int> gate(device, std::vector<int>{0, 0});
  DeviceBuffer<unsigned char> data(device, std::vector<unsigned char>(256, 1));
  ag_event event;
  ASSERT_AG(agEventCreate(device, 0, &event));
  block_stream(stream_a, gate);
  ASSERT_AG(agEventRecord(event, stream_a));
  ASSERT_AG(agStreamWaitEvent(stream_b, event, 0));
  ASSERT_AG(agMemsetD8Async(data.get(), 9, 256, stream_b));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // time for B to run, if it could
  EXPECT_EQ(AG_ERROR_NOT_READY, agStreamQuery(stream_b));
  EXPECT_EQ(AG_ERROR_NOT_READY, agEventQuery(event));
  EXPECT_EQ(1, data.download()[0]);
  release_gate(gate);
  ASSERT_AG(agStreamSynchronize(stream_b));
  EXPECT_AG(agEventQuery(event));
  for (unsigned char v : data.download()) ASSERT_EQ(9, v);
  ASSERT_AG(agEventDestroy(event));
}

TEST_P(StreamTest, EventElapsedTimeCoversTheWorkBetween) {
  ag_event start, end;
  ASSERT_AG(agEventCreate(device, 0, &start));
  ASSERT_AG(agEventCreate(device, 0, &end));
  EXPECT_AG(agEventQuery(start));  // never recorded: nothing pending
  DeviceBuffer<int> gate(device, std::vector<int>{0, 0});
  ASSERT_AG(agEventRecord(start, stream_a));
  block_stream(stream_a, gate);
  ASSERT_AG(agEventRecord(end, stream_a));
  float ms = -1.0f;
  EXPECT_EQ(AG_ERROR_NOT_READY, agEventElapsedTime(&ms, start, end));
  EXPECT_EQ(-1.0f, ms);
  ASSERT_AG(agEventSynchronize(start));  // start is stamped before the gate is held 20 ms more
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  release_gate(gate);
  ASSERT_AG(agEventSynchronize(end));
  ASSERT_AG(agEventElapsedTime(&ms, start, end));
  EXPECT_TRUE(std::isfinite(ms));
  EXPECT_GE(ms, 20.0f);  // the gate was held at least this long between the records
  float reverse = 0;
  ASSERT_AG(agEventElapsedTime(&reverse, end, start));
  EXPECT_EQ(-ms, reverse);
  ASSERT_AG(agEventDestroy(start));
  ASSERT_AG(agEventDestroy(end));
}

// An event destroyed while its record is still queued is released safely.
TEST_P(StreamTest, EventDestroyedWhileRecordIsPending) {
  DeviceBuffer<int> gate(device, std::vector<int>{0, 0});
  ag_event event;
  ASSERT_AG(agEventCreate(device, 0, &event));
  block_stream(stream_a, gate);
  ASSERT_AG(agEventRecord(event, stream_a));
  ASSERT_AG(agStreamWaitEvent(stream_b, event, 0));
  ASSERT_AG(agEventDestroy(event));
  release_gate(gate);
  ASSERT_AG(agStreamSynchronize(stream_a));
  ASSERT_AG(agStreamSynchronize(stream_b));
}

TEST_P(StreamTest, DeviceSynchronizeWaitsForEveryStream) {
  DeviceBuffer<int> gate(device, std::vector<int>{0, 0});
  block_stream(stream_a, gate);
  DeviceBuffer<unsigned char> data(device, 512);
  ASSERT_AG(agMemsetD8Async(data.get(), 5, 512, stream_b));
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    release_gate(gate);
  });
  ASSERT_AG(agDeviceSynchronize(device));
  releaser.join();
  EXPECT_EQ(1, gate.download()[1]);  // A's kernel finished
  EXPECT_AG(agStreamQuery(stream_a));
  EXPECT_AG(agStreamQuery(stream_b));
}

// Many more commands than a stream's queue holds at once.
TEST_P(StreamTest, ManyQueuedLaunchesStayInOrder) {
  int n = 256;
  float a = 1.0f;
  DeviceBuffer<float> dx(device, std::vector<float>(n, 1.0f)),
      dy(device, std::vector<float>(n, 0.0f));
  void* params[] = {&n, &a, dx.param(), dy.param()};
  ag_function saxpy = module.function("saxpy");
  for (int i = 0; i < 1000; ++i)
    ASSERT_AG(agLaunchKernel(saxpy, 1, 1, 1, 256, 1, 1, 0, stream_a, params, nullptr));
  ASSERT_AG(agStreamSynchronize(stream_a));
  for (float v : dy.download()) ASSERT_EQ(1000.0f, v);
}

// Every event flag keeps what events are for (ordering, waits, queries); only
// AG_EVENT_DISABLE_TIMING gives up the time, and agEventElapsedTime says so.
TEST_P(StreamTest, EventFlagsKeepOrderingAndDropOnlyTheTime) {
  int n = 1024;
  float a = 1.0f;
  DeviceBuffer<float> dx(device, std::vector<float>(n, 1.0f));
  DeviceBuffer<float> dy(device, std::vector<float>(n, 0.0f));
  void* params[] = {&n, &a, dx.param(), dy.param()};
  const unsigned all_flags[] = {AG_EVENT_BLOCKING_SYNC, AG_EVENT_DISABLE_TIMING,
                                AG_EVENT_BLOCKING_SYNC | AG_EVENT_DISABLE_TIMING};
  float expected = 0.0f;
  for (unsigned flags : all_flags) {
    SCOPED_TRACE("flags " + std::to_string(flags));
    ag_event start = nullptr, done = nullptr;
    ASSERT_AG(agEventCreate(device, flags, &start));
    ASSERT_AG(agEventCreate(device, flags, &done));
    ASSERT_AG(agEventRecord(start, stream_a));
    ASSERT_AG(agLaunchKernel(module.function("saxpy"), (n + 255) / 256, 1, 1, 256, 1, 1, 0,
                             stream_a, params, nullptr));
    ASSERT_AG(agEventRecord(done, stream_a));
    expected += 1.0f;
    // stream_b's copy waits for the kernel through the event.
    ASSERT_AG(agStreamWaitEvent(stream_b, done, 0));
    std::vector<float> y(n, -1.0f);
    ASSERT_AG(agMemcpyDtoHAsync(y.data(), dy.get(), dy.bytes(), stream_b));
    ASSERT_AG(agStreamSynchronize(stream_b));
    EXPECT_EQ(std::vector<float>(n, expected), y);
    ASSERT_AG(agEventSynchronize(done));
    EXPECT_AG(agEventQuery(done));
    float ms = -1.0f;
    if (flags & AG_EVENT_DISABLE_TIMING) {
      EXPECT_EQ(AG_ERROR_INVALID_VALUE, agEventElapsedTime(&ms, start, done));
      EXPECT_NE(std::string::npos, last_detail().find("AG_EVENT_DISABLE_TIMING")) << last_detail();
      EXPECT_EQ(-1.0f, ms);
    } else {
      EXPECT_AG(agEventElapsedTime(&ms, start, done));
      EXPECT_GE(ms, 0.0f);
    }
    EXPECT_AG(agEventDestroy(start));
    EXPECT_AG(agEventDestroy(done));
  }
}

// Streams of each priority in the device's range run their work; priorities outside it are
// clamped to its ends, as CUDA does.
TEST_P(StreamTest, StreamPrioritiesInTheDevicesRange) {
  int least = 1, greatest = 1;
  ASSERT_AG(agDeviceGetStreamPriorityRange(device, &least, &greatest));
  EXPECT_LE(greatest, least);
  EXPECT_EQ(0, least);  // agStreamCreate's priority is the least urgent, as in CUDA
  ag_device_properties p{};
  p.struct_size = sizeof p;
  ASSERT_AG(agDeviceGetProperties(device, &p));
  if (p.backend == AG_BACKEND_CPU) {
    EXPECT_EQ(0, greatest);
  }
  const std::pair<int, int> asked_and_given[] = {
      {least, least}, {greatest, greatest}, {least + 100, least}, {greatest - 100, greatest}};
  int n = 512;
  float a = 2.0f;
  DeviceBuffer<float> dx(device, std::vector<float>(n, 1.0f));
  for (const auto& [asked, given] : asked_and_given) {
    SCOPED_TRACE("priority " + std::to_string(asked));
    ag_stream s = nullptr;
    ASSERT_AG(agStreamCreateWithPriority(device, 0, asked, &s));
    int priority = 12345;
    EXPECT_AG(agStreamGetPriority(s, &priority));
    EXPECT_EQ(given, priority);
    DeviceBuffer<float> dy(device, std::vector<float>(n, 1.0f));
    void* params[] = {&n, &a, dx.param(), dy.param()};
    ASSERT_AG(agLaunchKernel(module.function("saxpy"), (n + 255) / 256, 1, 1, 256, 1, 1, 0, s,
                             params, nullptr));
    std::vector<float> y(n);
    ASSERT_AG(agMemcpyDtoHAsync(y.data(), dy.get(), dy.bytes(), s));
    ASSERT_AG(agStreamSynchronize(s));
    EXPECT_EQ(std::vector<float>(n, 3.0f), y);
    EXPECT_AG(agStreamDestroy(s));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, StreamTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
