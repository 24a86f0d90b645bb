// Error paths of the stream and event calls.
#include <atomic>
#include <climits>
#include <vector>

#include "api_error_support.h"

using namespace api_test;

namespace {

using StreamEventErrorTest = ApiErrorTest;

// agStreamCreate and agEventCreate, with the output as void*.
struct Creator {
  const char* name;
  std::function<ag_result(ag_device, unsigned, void**)> create;
  std::function<ag_result(void*)> destroy;
  std::vector<unsigned> bad_flags;
};

std::vector<Creator> creators() {
  return {{"agStreamCreate",
           [](ag_device d, unsigned flags, void** out) {
             return agStreamCreate(d, flags, reinterpret_cast<ag_stream*>(out));
           },
           [](void* s) { return agStreamDestroy(static_cast<ag_stream>(s)); },
           {1u, 0x80000000u, UINT_MAX}},
          {"agStreamCreateWithPriority",
           [](ag_device d, unsigned flags, void** out) {
             return agStreamCreateWithPriority(d, flags, -1, reinterpret_cast<ag_stream*>(out));
           },
           [](void* s) { return agStreamDestroy(static_cast<ag_stream>(s)); },
           {1u, 0x80000000u, UINT_MAX}},
          {"agEventCreate",
           [](ag_device d, unsigned flags, void** out) {
             return agEventCreate(d, flags, reinterpret_cast<ag_event*>(out));
           },
           [](void* e) { return agEventDestroy(static_cast<ag_event>(e)); },
           {4u, 8u, 0x80000000u, UINT_MAX}}};
}

TEST_F(StreamEventErrorTest, CreateRejectsBadDevicesFlagsAndNullOutput) {
  for (const Creator& c : creators()) {
    expect_invalid_handles<ag_device>(c.name, [&](ag_device bad) {
      return with_untouched_output<void*>([&](void** out) { return c.create(bad, 0, out); });
    });
    for (unsigned flags : c.bad_flags) {
      SCOPED_TRACE(std::string(c.name) + " with flags " + std::to_string(flags));
      Sentinel<void*> out;
      EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, c.name,
                             [&] { return c.create(device, flags, out.get()); }));
      EXPECT_TRUE(out.intact());
    }
    EXPECT_TRUE(
        fails_with(AG_ERROR_INVALID_VALUE, c.name, [&] { return c.create(device, 0, nullptr); }));
    void* created = nullptr;
    ASSERT_AG(c.create(device, 0, &created));
    EXPECT_AG(c.destroy(created));
  }
}

TEST_F(StreamEventErrorTest, StreamCallsRejectBadStreams) {
  expect_invalid_handles<ag_stream>("agStreamDestroy", agStreamDestroy);
  expect_invalid_handles<ag_stream>("agStreamSynchronize", agStreamSynchronize);
  expect_invalid_handles<ag_stream>("agStreamQuery", agStreamQuery);
  expect_invalid_handles<ag_stream>(
      "agStreamWaitEvent", [&](ag_stream bad) { return agStreamWaitEvent(bad, event, 0); });
  expect_invalid_handles<ag_stream>("agEventRecord",
                                    [&](ag_stream bad) { return agEventRecord(event, bad); });
  EXPECT_AG(agStreamSynchronize(stream));
  EXPECT_AG(agStreamQuery(stream));
}

TEST_F(StreamEventErrorTest, EventCallsRejectBadEvents) {
  expect_invalid_handles<ag_event>("agEventDestroy", agEventDestroy);
  expect_invalid_handles<ag_event>("agEventSynchronize", agEventSynchronize);
  expect_invalid_handles<ag_event>("agEventQuery", agEventQuery);
  expect_invalid_handles<ag_event>("agEventRecord",
                                   [&](ag_event bad) { return agEventRecord(bad, stream); });
  expect_invalid_handles<ag_event>("agStreamWaitEvent",
                                   [&](ag_event bad) { return agStreamWaitEvent(stream, bad, 0); });
  ASSERT_AG(agEventRecord(event, stream));
  EXPECT_AG(agEventSynchronize(event));
  EXPECT_AG(agEventQuery(event));
}

TEST_F(StreamEventErrorTest, StreamWaitEventRejectsNonZeroFlags) {
  ASSERT_AG(agEventRecord(event, stream));
  for (unsigned flags : {1u, 2u, 0x80000000u, UINT_MAX}) {
    SCOPED_TRACE(flags);
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agStreamWaitEvent(stream, event, flags));
  }
  EXPECT_AG(agStreamWaitEvent(stream, event, 0));
  EXPECT_AG(agStreamSynchronize(stream));
}

TEST_F(StreamEventErrorTest, ElapsedTimeRejectsBadEventsAndNullOutput) {
  ag_event end = nullptr;
  ASSERT_AG(agEventCreate(device, 0, &end));
  ASSERT_AG(agEventRecord(event, stream));
  ASSERT_AG(agEventRecord(end, stream));
  ASSERT_AG(agStreamSynchronize(stream));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agEventElapsedTime(nullptr, event, end));
  auto elapsed = [](ag_event a, ag_event b) {
    return with_untouched_output<float>([&](float* ms) { return agEventElapsedTime(ms, a, b); });
  };
  expect_invalid_handles<ag_event>("agEventElapsedTime",
                                   [&](ag_event bad) { return elapsed(bad, end); });
  expect_invalid_handles<ag_event>("agEventElapsedTime",
                                   [&](ag_event bad) { return elapsed(event, bad); });
  float ms = -1;
  EXPECT_AG(agEventElapsedTime(&ms, event, end));
  EXPECT_GE(ms, 0.0f);
  EXPECT_AG(agEventDestroy(end));
}

TEST_F(StreamEventErrorTest, ElapsedTimeOfNeverRecordedEventsIsAnInvalidValue) {
  ag_event never = nullptr, recorded = nullptr;
  ASSERT_AG(agEventCreate(device, 0, &never));
  ASSERT_AG(agEventCreate(device, 0, &recorded));
  const std::pair<const char*, std::pair<ag_event, ag_event>> cases[] = {
      {"neither recorded", {never, event}},
      {"start never recorded", {never, recorded}},
      {"end never recorded", {recorded, never}},
      {"the same never-recorded event twice", {never, never}}};
  for (int pass = 0; pass < 2; ++pass) {  // before and after `recorded` is recorded
    if (pass == 1) {
      ASSERT_AG(agEventRecord(recorded, stream));
      ASSERT_AG(agStreamSynchronize(stream));
    }
    for (const auto& c : cases) {
      SCOPED_TRACE(std::string(c.first) + (pass ? ", the other recorded" : ""));
      Sentinel<float> ms;
      EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
                   agEventElapsedTime(ms.get(), c.second.first, c.second.second));
      EXPECT_TRUE(ms.intact());
    }
  }
  float ms = -1;
  EXPECT_AG(agEventElapsedTime(&ms, recorded, recorded));
  EXPECT_EQ(0.0f, ms);
  EXPECT_AG(agEventDestroy(never));
  EXPECT_AG(agEventDestroy(recorded));
}

// A bad stream or a NULL function queues nothing: a function passed with them is never called.
TEST_F(StreamEventErrorTest, LaunchHostFuncRejectsBadStreamsAndNullFunctions) {
  static std::atomic<int> calls{0};
  const ag_host_fn count = [](void*) { calls.fetch_add(1); };
  expect_invalid_handles<ag_stream>(
      "agLaunchHostFunc", [&](ag_stream bad) { return agLaunchHostFunc(bad, count, nullptr); });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agLaunchHostFunc(stream, nullptr, nullptr));
  ASSERT_AG(agStreamSynchronize(stream));
  EXPECT_EQ(0, calls.load());
  ASSERT_AG(agLaunchHostFunc(stream, count, nullptr));
  ASSERT_AG(agStreamSynchronize(stream));
  EXPECT_EQ(1, calls.load());
}

TEST_F(StreamEventErrorTest, PriorityCallsRejectBadHandlesAndNullOutputs) {
  expect_invalid_handles<ag_device>("agDeviceGetStreamPriorityRange", [&](ag_device bad) {
    return with_untouched_output<int>(
        [&](int* least) { return agDeviceGetStreamPriorityRange(bad, least, nullptr); });
  });
  expect_invalid_handles<ag_stream>("agStreamGetPriority", [&](ag_stream bad) {
    return with_untouched_output<int>([&](int* out) { return agStreamGetPriority(bad, out); });
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agStreamGetPriority(stream, nullptr));
  // Either output of the range may be NULL.
  EXPECT_AG(agDeviceGetStreamPriorityRange(device, nullptr, nullptr));
  int priority = 42;
  EXPECT_AG(agStreamGetPriority(stream, &priority));
  EXPECT_EQ(0, priority);  // agStreamCreate's
}

// The native-handle calls: bad handles, NULL outputs, a small struct, a NULL native stream and
// flags, in that order; then the CPU device's refusal, with nothing written.
TEST_F(StreamEventErrorTest, NativeHandleCallsRejectBadInput) {
  expect_invalid_handles<ag_device>("agDeviceGetNativeHandle", [&](ag_device bad) {
    return with_untouched_output<ag_native_device>(
        [&](ag_native_device* out) { return agDeviceGetNativeHandle(bad, out); });
  });
  expect_invalid_handles<ag_stream>("agStreamGetNativeHandle", [&](ag_stream bad) {
    return with_untouched_output<void*>(
        [&](void** out) { return agStreamGetNativeHandle(bad, out); });
  });
  expect_invalid_handles<ag_event>("agEventGetNativeHandle", [&](ag_event bad) {
    return with_untouched_output<void*>(
        [&](void** out) { return agEventGetNativeHandle(bad, out); });
  });
  int native_stream = 0;  // never reaches a backend: the arguments are refused first
  expect_invalid_handles<ag_device>("agStreamCreateFromNative", [&](ag_device bad) {
    return with_untouched_output<ag_stream>(
        [&](ag_stream* out) { return agStreamCreateFromNative(bad, &native_stream, 0, out); });
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceGetNativeHandle(device, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agStreamGetNativeHandle(stream, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agEventGetNativeHandle(event, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agStreamCreateFromNative(device, &native_stream, 0, nullptr));
  expect_small_struct_sizes_rejected<ag_native_device>(
      "agDeviceGetNativeHandle",
      [&](ag_native_device* out) { return agDeviceGetNativeHandle(device, out); });
  for (unsigned flags : {1u, 0x80000000u, UINT_MAX}) {
    SCOPED_TRACE(flags);
    Sentinel<ag_stream> out;
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
                 agStreamCreateFromNative(device, &native_stream, flags, out.get()));
    EXPECT_TRUE(out.intact());
  }
  Sentinel<ag_stream> adopted;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agStreamCreateFromNative(device, nullptr, 0, adopted.get()));
  EXPECT_TRUE(adopted.intact());

  // The CPU device has no native objects.
  Sentinel<ag_native_device> native(sizeof(ag_native_device));
  EXPECT_FAILS(AG_ERROR_NOT_SUPPORTED, agDeviceGetNativeHandle(device, native.get()));
  EXPECT_TRUE(native.intact());
  Sentinel<void*> out;
  EXPECT_FAILS(AG_ERROR_NOT_SUPPORTED, agStreamGetNativeHandle(stream, out.get()));
  EXPECT_FAILS(AG_ERROR_NOT_SUPPORTED, agEventGetNativeHandle(event, out.get()));
  EXPECT_TRUE(out.intact());
  EXPECT_FAILS(AG_ERROR_NOT_SUPPORTED,
               agStreamCreateFromNative(device, &native_stream, 0, adopted.get()));
  EXPECT_TRUE(adopted.intact());
  EXPECT_AG(agStreamSynchronize(stream));
}

}  // namespace
