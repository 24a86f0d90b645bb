// Native handles on every device: what agDeviceGetNativeHandle fills for each backend, a stream's
// and an event's driver objects, and a second anygpu stream over a stream's own native one (the
// way a program hands anygpu a stream it made), whose work the first stream's waits see. The CPU
// device has none of these: AG_ERROR_NOT_SUPPORTED, with a detail, and nothing handed out.
#include <anygpu/anygpu.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class NativeHandlesTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    properties.struct_size = sizeof properties;
    ASSERT_AG(agDeviceGetProperties(device, &properties));
  }
  bool is_cpu() const { return properties.backend == AG_BACKEND_CPU; }
  // Expects the CPU's refusal, with a detail that says why.
  static void expect_not_supported(ag_result r) {
    EXPECT_EQ(AG_ERROR_NOT_SUPPORTED, r);
    EXPECT_NE(std::string::npos, last_detail().find("no native")) << last_detail();
  }

  ag_device device = device_at(GetParam());
  ag_device_properties properties{};
};

TEST_P(NativeHandlesTest, DeviceHandleHoldsTheBackendsObjects) {
  ag_native_device native{};
  native.struct_size = sizeof native;
  const ag_result r = agDeviceGetNativeHandle(device, &native);
  if (is_cpu()) {
    expect_not_supported(r);
    EXPECT_EQ(nullptr, native.context) << "a refused call wrote its output";
    return;
  }
  ASSERT_AG(r);
  EXPECT_EQ(sizeof native, native.struct_size);
  EXPECT_EQ(properties.backend, native.backend);
  switch (native.backend) {
    case AG_BACKEND_CUDA:  // CUdevice and its primary context
      EXPECT_GE(native.ordinal, 0);
      EXPECT_NE(nullptr, native.context);
      EXPECT_EQ(nullptr, native.device);
      EXPECT_EQ(nullptr, native.driver);
      break;
    case AG_BACKEND_HIP:  // the ordinal only: HIP keeps its contexts to itself
      EXPECT_GE(native.ordinal, 0);
      EXPECT_EQ(nullptr, native.context);
      EXPECT_EQ(nullptr, native.device);
      EXPECT_EQ(nullptr, native.driver);
      break;
    case AG_BACKEND_LEVEL_ZERO:
      EXPECT_EQ(-1, native.ordinal);
      EXPECT_NE(nullptr, native.context);
      EXPECT_NE(nullptr, native.device);
      EXPECT_NE(nullptr, native.driver);
      break;
    default:
      ADD_FAILURE() << "unexpected backend " << native.backend;
  }
  // The same objects every time.
  ag_native_device again{};
  again.struct_size = sizeof again;
  ASSERT_AG(agDeviceGetNativeHandle(device, &again));
  EXPECT_EQ(native.context, again.context);
  EXPECT_EQ(native.device, again.device);
}

TEST_P(NativeHandlesTest, StreamsAndEventsHaveDistinctNativeObjects) {
  ag_stream a = nullptr, b = nullptr;
  ag_event e = nullptr, f = nullptr;
  ASSERT_AG(agStreamCreate(device, 0, &a));
  ASSERT_AG(agStreamCreate(device, 0, &b));
  ASSERT_AG(agEventCreate(device, 0, &e));
  ASSERT_AG(agEventCreate(device, AG_EVENT_DISABLE_TIMING, &f));
  void* native[4] = {};
  const ag_result results[4] = {
      agStreamGetNativeHandle(a, &native[0]), agStreamGetNativeHandle(b, &native[1]),
      agEventGetNativeHandle(e, &native[2]), agEventGetNativeHandle(f, &native[3])};
  for (int i = 0; i < 4; ++i) {
    if (is_cpu()) {
      expect_not_supported(results[i]);
      EXPECT_EQ(nullptr, native[i]);
    } else {
      EXPECT_AG(results[i]);
      EXPECT_NE(nullptr, native[i]);
    }
  }
  if (!is_cpu()) {
    EXPECT_NE(native[0], native[1]);
    EXPECT_NE(native[2], native[3]);
  }
  // The streams and events still work after their handles went out.
  EXPECT_AG(agEventRecord(e, a));
  EXPECT_AG(agStreamWaitEvent(b, e, 0));
  EXPECT_AG(agStreamSynchronize(b));
  EXPECT_AG(agEventSynchronize(e));
  EXPECT_AG(agEventDestroy(f));
  EXPECT_AG(agEventDestroy(e));
  EXPECT_AG(agStreamDestroy(b));
  EXPECT_AG(agStreamDestroy(a));
}

// A second anygpu stream over the first one's native stream: the same queue, so work on either is
// ordered with the other's and either one's wait covers both. Destroying the adopted stream
// leaves the native one, and the first stream, working.
TEST_P(NativeHandlesTest, StreamOverAnotherStreamsNativeOneSharesItsQueue) {
  ag_stream owner = nullptr;
  ASSERT_AG(agStreamCreate(device, 0, &owner));
  void* native = nullptr;
  ag_result r = agStreamGetNativeHandle(owner, &native);
  if (is_cpu()) {
    expect_not_supported(r);
    int not_a_stream = 0;
    ag_stream adopted = nullptr;
    expect_not_supported(agStreamCreateFromNative(device, &not_a_stream, 0, &adopted));
    EXPECT_EQ(nullptr, adopted);
    EXPECT_AG(agStreamDestroy(owner));
    return;
  }
  ASSERT_AG(r);
  ag_stream adopted = nullptr;
  ASSERT_AG(agStreamCreateFromNative(device, native, 0, &adopted));
  ASSERT_NE(nullptr, adopted);
  EXPECT_NE(owner, adopted);
  void* again = nullptr;
  EXPECT_AG(agStreamGetNativeHandle(adopted, &again));
  EXPECT_EQ(native, again);
  ag_device of = nullptr;
  EXPECT_AG(agStreamGetDevice(adopted, &of));
  EXPECT_EQ(device, of);

  // Work queued on the adopted stream; the owner's synchronize waits for it. Then the other way
  // round, after the adopted stream is gone: the owner still works.
  expect_fill_round_trip(device, adopted, owner, 0x5eed1e55u, 1 << 16);
  EXPECT_AG(agStreamDestroy(adopted));
  expect_fill_round_trip(device, owner, owner, 7u);

  // A query ends as AG_SUCCESS. On Level Zero it puts a barrier after work the application may
  // have appended to the shared list, so it may say AG_ERROR_NOT_READY while that barrier passes.
  ag_result query = AG_ERROR_NOT_READY;
  for (int i = 0; i < 100000 && query == AG_ERROR_NOT_READY; ++i) {
    query = agStreamQuery(owner);
    if (query == AG_ERROR_NOT_READY) std::this_thread::yield();
  }
  EXPECT_AG(query);
  EXPECT_AG(agStreamDestroy(owner));
}

// An adopted stream has the priority its driver reports (Level Zero cannot say: 0).
TEST_P(NativeHandlesTest, StreamOverANativeOneKeepsItsPriority) {
  int least = 0, greatest = 0;
  ASSERT_AG(agDeviceGetStreamPriorityRange(device, &least, &greatest));
  ag_stream owner = nullptr;
  ASSERT_AG(agStreamCreateWithPriority(device, 0, greatest, &owner));
  void* native = nullptr;
  if (is_cpu()) {
    expect_not_supported(agStreamGetNativeHandle(owner, &native));
    EXPECT_AG(agStreamDestroy(owner));
    return;
  }
  ASSERT_AG(agStreamGetNativeHandle(owner, &native));
  ag_stream adopted = nullptr;
  ASSERT_AG(agStreamCreateFromNative(device, native, 0, &adopted));
  int priority = 1;
  EXPECT_AG(agStreamGetPriority(adopted, &priority));
  EXPECT_EQ(properties.backend == AG_BACKEND_LEVEL_ZERO ? 0 : greatest, priority);
  EXPECT_AG(agStreamDestroy(adopted));
  EXPECT_AG(agStreamDestroy(owner));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, NativeHandlesTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
