// Streams (asynchronous CPU streams) and events. The null stream (NULL, hipStreamPerThread) of the
// calling thread's current device runs its work to completion after the device's blocking streams'
// work; an event recorded on it is recorded on a stream of the runtime's own and waited for.
#include <algorithm>
#include <memory>

#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

constexpr unsigned kStreamFlags = hipStreamNonBlocking;
constexpr int kGreatestPriority = -1;  // ROCm's range is [-1, 0]
constexpr unsigned kEventFlags = hipEventBlockingSync | hipEventDisableTiming |
                                 hipEventInterprocess | hipEventReleaseToDevice |
                                 hipEventReleaseToSystem;

hipError_t find_stream(hipStream_t handle, std::shared_ptr<Stream>* stream) {
  std::lock_guard<std::mutex> lock(objects().mutex);
  *stream = objects().stream(handle);
  return *stream ? hipSuccess : hipErrorInvalidHandle;
}

hipError_t find_event(hipEvent_t handle, std::shared_ptr<Event>* event) {
  std::lock_guard<std::mutex> lock(objects().mutex);
  *event = objects().event(handle);
  return *event ? hipSuccess : hipErrorInvalidHandle;
}

// A stream callback queued as a CPU host function: its own signature, and the stream it names.
struct StreamCallback {
  hipStreamCallback_t callback;
  hipStream_t stream;
  void* data;

  static void run(void* call) {
    std::unique_ptr<StreamCallback> owned(static_cast<StreamCallback*>(call));
    owned->callback(owned->stream, hipSuccess, owned->data);
  }
};

// hipStreamCreateWithFlags, and with a priority: on the calling thread's current device.
hipError_t create_stream(hipStream_t* stream, unsigned flags, int priority = 0) {
  if (!stream || (flags & ~kStreamFlags)) return hipErrorInvalidValue;
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  void* native = nullptr;
  if (hipError_t r = from_cpu(cpu().stream_create(flags, &native))) return r;
  std::shared_ptr<Stream> created(new Stream{device, native, flags, priority});
  std::lock_guard<std::mutex> lock(objects().mutex);
  objects().streams[created.get()] = created;
  *stream = handle_of<hipStream_t>(created.get());
  return hipSuccess;
}

}  // namespace

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

// On the calling thread's current device.
ANYGPU_HIP_TEST_API hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned flags) {
  DRIVER_ENTRY(hipStreamCreateWithFlags);
  return create_stream(stream, flags);
}

// Pending work finishes first (the CPU stream's destructor waits for it).
ANYGPU_HIP_TEST_API hipError_t hipStreamDestroy(hipStream_t stream) {
  DRIVER_ENTRY(hipStreamDestroy);
  std::shared_ptr<Stream> taken;
  {
    Objects& o = objects();
    std::lock_guard<std::mutex> lock(o.mutex);
    const auto found = o.streams.find(stream);
    if (found == o.streams.end()) return hipErrorInvalidHandle;
    taken = std::move(found->second);
    o.streams.erase(found);
  }
  return hipSuccess;  // `taken` is destroyed here, outside the lock
}

ANYGPU_HIP_TEST_API hipError_t hipStreamSynchronize(hipStream_t stream) {
  DRIVER_ENTRY(hipStreamSynchronize);
  if (is_null_stream(stream)) {
    int device = 0;
    if (hipError_t r = current_device(&device)) return r;
    synchronize_blocking_streams(device);
    return hipSuccess;
  }
  std::shared_ptr<Stream> found;
  if (hipError_t r = find_stream(stream, &found)) return r;
  return from_cpu(cpu().stream_synchronize(found->native));
}

ANYGPU_HIP_TEST_API hipError_t hipStreamQuery(hipStream_t stream) {
  DRIVER_ENTRY(hipStreamQuery);
  if (is_null_stream(stream)) return hipSuccess;  // its work has run to completion
  std::shared_ptr<Stream> found;
  if (hipError_t r = find_stream(stream, &found)) return r;
  return from_cpu(cpu().stream_query(found->native));
}

// Any device's event. The null stream waits on the host, as its work runs there to completion
// anyway.
ANYGPU_HIP_TEST_API hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                                                  unsigned flags) {
  DRIVER_ENTRY(hipStreamWaitEvent);
  if (flags != 0) return hipErrorInvalidValue;
  std::shared_ptr<Event> waited;
  if (hipError_t r = find_event(event, &waited)) return r;
  if (is_null_stream(stream)) return from_cpu(cpu().event_synchronize(waited->native));
  std::shared_ptr<Stream> found;
  if (hipError_t r = find_stream(stream, &found)) return r;
  return from_cpu(cpu().stream_wait_event(found->native, waited->native));
}

// The CPU streams have no priorities: one is kept, clamped to the range (ROCm's), and has no
// effect.
ANYGPU_HIP_TEST_API hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned flags,
                                                           int priority) {
  DRIVER_ENTRY(hipStreamCreateWithPriority);
  return create_stream(stream, flags, std::max(kGreatestPriority, std::min(0, priority)));
}

ANYGPU_HIP_TEST_API hipError_t hipStreamGetPriority(hipStream_t stream, int* priority) {
  DRIVER_ENTRY(hipStreamGetPriority);
  if (!priority) return hipErrorInvalidValue;
  if (is_null_stream(stream)) {
    *priority = 0;
    return hipSuccess;
  }
  std::shared_ptr<Stream> found;
  if (hipError_t r = find_stream(stream, &found)) return r;
  *priority = found->priority;
  return hipSuccess;
}

// The stream's device; the null stream's is the current device. -1 for a stream HIP does not
// know, and for an injected failure.
ANYGPU_HIP_TEST_API int hipGetStreamDeviceId(hipStream_t stream) {
  if (enter(Fn::hipGetStreamDeviceId)) return -1;
  int device = -1;
  if (is_null_stream(stream)) return current_device(&device) == hipSuccess ? device : -1;
  std::shared_ptr<Stream> found;
  return find_stream(stream, &found) == hipSuccess ? found->device : -1;
}

ANYGPU_HIP_TEST_API hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest) {
  DRIVER_ENTRY(hipDeviceGetStreamPriorityRange);
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  if (least) *least = 0;
  if (greatest) *greatest = kGreatestPriority;
  return hipSuccess;
}

// On the null stream the callback runs at once (its work has run to completion); on another
// stream, on that CPU stream's thread, in order. `status` is always hipSuccess here.
ANYGPU_HIP_TEST_API hipError_t hipStreamAddCallback(hipStream_t stream,
                                                    hipStreamCallback_t callback, void* data,
                                                    unsigned flags) {
  DRIVER_ENTRY(hipStreamAddCallback);
  if (!callback || flags != 0) return hipErrorInvalidValue;
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = stream_for_work(stream, &device, &on)) return r;
  if (!on) {
    callback(stream, hipSuccess, data);
    return hipSuccess;
  }
  auto* call = new StreamCallback{callback, stream, data};
  if (hipError_t r = from_cpu(cpu().launch_host_func(on->native, &StreamCallback::run, call))) {
    delete call;
    return r;
  }
  return hipSuccess;
}

// On the calling thread's current device.
ANYGPU_HIP_TEST_API hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  DRIVER_ENTRY(hipEventCreateWithFlags);
  if (!event || (flags & ~kEventFlags)) return hipErrorInvalidValue;
  if ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming))
    return hipErrorInvalidValue;
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  void* native = nullptr;
  if (hipError_t r = from_cpu(cpu().event_create(flags, &native))) return r;
  auto created = std::make_shared<Event>();
  created->device = device;
  created->native = native;
  created->flags = flags;
  std::lock_guard<std::mutex> lock(objects().mutex);
  objects().events[created.get()] = created;
  *event = handle_of<hipEvent_t>(created.get());
  return hipSuccess;
}

// A record still queued keeps the CPU event alive (it is reference-counted).
ANYGPU_HIP_TEST_API hipError_t hipEventDestroy(hipEvent_t event) {
  DRIVER_ENTRY(hipEventDestroy);
  std::shared_ptr<Event> taken;
  {
    Objects& o = objects();
    std::lock_guard<std::mutex> lock(o.mutex);
    const auto found = o.events.find(event);
    if (found == o.events.end()) return hipErrorInvalidHandle;
    taken = std::move(found->second);
    o.events.erase(found);
  }
  return hipSuccess;
}

// The event and the stream must be of one device (the null stream: the current device's).
ANYGPU_HIP_TEST_API hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  DRIVER_ENTRY(hipEventRecord);
  std::shared_ptr<Event> recorded;
  if (hipError_t r = find_event(event, &recorded)) return r;
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = stream_for_work(stream, &device, &on)) return r;
  if (recorded->device != device) return hipErrorInvalidHandle;
  const bool on_null = !on;
  if (on_null) on = null_stream(device);
  if (hipError_t r = from_cpu(cpu().event_record(recorded->native, on->native))) return r;
  recorded->recorded.store(true, std::memory_order_release);
  // The null stream's work has run to completion, so its record completes now too: later
  // null-stream work must not run before the timestamp is taken.
  if (on_null) cpu().stream_synchronize(on->native);
  return hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipEventSynchronize(hipEvent_t event) {
  DRIVER_ENTRY(hipEventSynchronize);
  std::shared_ptr<Event> found;
  if (hipError_t r = find_event(event, &found)) return r;
  return from_cpu(cpu().event_synchronize(found->native));
}

ANYGPU_HIP_TEST_API hipError_t hipEventQuery(hipEvent_t event) {
  DRIVER_ENTRY(hipEventQuery);
  std::shared_ptr<Event> found;
  if (hipError_t r = find_event(event, &found)) return r;
  return from_cpu(cpu().event_query(found->native));
}

// Both events recorded and timing: else hipErrorInvalidHandle (HIP's answer for either); not yet
// completed: hipErrorNotReady.
ANYGPU_HIP_TEST_API hipError_t hipEventElapsedTime(float* milliseconds, hipEvent_t start,
                                                   hipEvent_t end) {
  DRIVER_ENTRY(hipEventElapsedTime);
  if (!milliseconds) return hipErrorInvalidValue;
  std::shared_ptr<Event> first, last;
  if (hipError_t r = find_event(start, &first)) return r;
  if (hipError_t r = find_event(end, &last)) return r;
  for (const auto& event : {first, last}) {
    if ((event->flags & hipEventDisableTiming) || !event->recorded.load(std::memory_order_acquire))
      return hipErrorInvalidHandle;
  }
  return from_cpu(cpu().event_elapsed(milliseconds, first->native, last->native));
}

}  // namespace anygpu::hip
