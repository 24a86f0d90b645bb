// Streams and events.
#include <algorithm>

#include "shim/api/api_common.h"
#include "shim/core/host_function_guard.h"

using namespace anygpu;

namespace {

constexpr unsigned kEventFlags = AG_EVENT_BLOCKING_SYNC | AG_EVENT_DISABLE_TIMING;

// agStreamCreate, and with `prioritised` agStreamCreateWithPriority.
ag_result create_stream(ag_device device, unsigned flags, bool prioritised, int priority,
                        ag_stream* stream) {
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(stream, "stream")) return r;
  if (ag_result r = require_zero_flags(flags)) return r;
  void* native = nullptr;
  int clamped = 0;
  if (prioritised) {
    int least = 0, greatest = 0;
    if (ag_result r = dev->impl->stream_priority_range(&least, &greatest)) return r;
    clamped = std::max(greatest, std::min(least, priority));
    if (ag_result r = dev->impl->stream_create_with_priority(clamped, &native)) return r;
  } else if (ag_result r = dev->impl->stream_create(flags, &native)) {
    return r;
  }
  auto* object = new Stream{dev, native, clamped};
  void* handle = handles().streams.insert(object);
  if (!handle) {
    dev->impl->stream_destroy(native);
    delete object;
    return fail(AG_ERROR_OUT_OF_MEMORY, "too many streams");
  }
  *stream = static_cast<ag_stream>(handle);
  return AG_SUCCESS;
}

}  // namespace

extern "C" {

ag_result agStreamCreate(ag_device device, unsigned int flags, ag_stream* stream) try {
  AG_DEVICE_ENTRY();
  return create_stream(device, flags, false, 0, stream);
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamCreateWithPriority(ag_device device, unsigned int flags, int priority,
                                     ag_stream* stream) try {
  AG_DEVICE_ENTRY();
  return create_stream(device, flags, true, priority, stream);
} catch (...) {
  return fail_from_exception();
}

ag_result agDeviceGetStreamPriorityRange(ag_device device, int* least, int* greatest) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  int low = 0, high = 0;
  if (ag_result r = dev->impl->stream_priority_range(&low, &high)) return r;
  if (least) *least = low;
  if (greatest) *greatest = high;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamGetPriority(ag_stream stream, int* priority) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = require_pointer(priority, "priority")) return r;
  *priority = s->priority;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamDestroy(ag_stream stream) try {
  AG_DEVICE_ENTRY();
  {  // destroying waits for the stream's work; the reference must go before the remove
    StreamRef found;
    if (ag_result r = get_stream(stream, &found)) return r;
    if (ag_result r = refuse_wait_in_host_function(*found->device)) return r;
  }
  Stream* s = handles().streams.remove(stream);
  if (!s) {
    StreamRef none;
    return get_stream(stream, &none);  // records the detail
  }
  {  // blocks freed on it must no longer name it (shim/core/mem_pool.h)
    std::lock_guard<std::mutex> lock(s->device->pools_mutex);
    for (MemPool* pool : s->device->pools) pool->forget_stream(s->native);
  }
  // An adopted stream is its owner's: anygpu waits for it and lets go of its own wrapping only.
  ag_result r = s->adopted ? s->device->impl->stream_release(s->native)
                           : s->device->impl->stream_destroy(s->native);
  delete s;
  return r;
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamSynchronize(ag_stream stream) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = refuse_wait_in_host_function(*s->device)) return r;
  return s->device->impl->stream_synchronize(s->native);
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamQuery(ag_stream stream) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  return s->device->impl->stream_query(s->native);
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamGetDevice(ag_stream stream, ag_device* device) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = require_pointer(device, "device")) return r;
  *device = s->device->handle;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamWaitEvent(ag_stream stream, ag_event event, unsigned int flags) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  EventRef e;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = get_event(event, &e)) return r;
  if (ag_result r = require_zero_flags(flags)) return r;
  if (s->device->backend != e->device->backend)
    return fail(AG_ERROR_NOT_SUPPORTED, "the stream and the event belong to different backends");
  if (!e->recorded.load(std::memory_order_acquire)) return AG_SUCCESS;  // nothing to wait for
  return s->device->impl->stream_wait_event(s->native, e->native);
} catch (...) {
  return fail_from_exception();
}

ag_result agEventCreate(ag_device device, unsigned int flags, ag_event* event) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(event, "event")) return r;
  if (flags & ~kEventFlags)
    return fail(AG_ERROR_INVALID_VALUE,
                "flags 0x%x has bits no AG_EVENT_* flag defines (AG_EVENT_BLOCKING_SYNC 0x1, "
                "AG_EVENT_DISABLE_TIMING 0x2)",
                flags);
  void* native = nullptr;
  if (ag_result r = dev->impl->event_create(flags, &native)) return r;
  auto* object = new Event{dev, native, flags};
  void* handle = handles().events.insert(object);
  if (!handle) {
    dev->impl->event_destroy(native);
    delete object;
    return fail(AG_ERROR_OUT_OF_MEMORY, "too many events");
  }
  *event = static_cast<ag_event>(handle);
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agEventDestroy(ag_event event) try {
  AG_DEVICE_ENTRY();
  Event* e = handles().events.remove(event);
  if (!e) {
    EventRef none;
    return get_event(event, &none);  // records the detail
  }
  ag_result r = e->device->impl->event_destroy(e->native);
  delete e;
  return r;
} catch (...) {
  return fail_from_exception();
}

ag_result agEventRecord(ag_event event, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  EventRef e;
  StreamRef s;
  if (ag_result r = get_event(event, &e)) return r;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = require_same_device(e->device, s->device, "the event and the stream")) return r;
  if (ag_result r = e->device->impl->event_record(e->native, s->native)) return r;
  e->recorded.store(true, std::memory_order_release);
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agEventSynchronize(ag_event event) try {
  AG_DEVICE_ENTRY();
  EventRef e;
  if (ag_result r = get_event(event, &e)) return r;
  if (ag_result r = refuse_wait_in_host_function(*e->device)) return r;
  if (!e->recorded.load(std::memory_order_acquire)) return AG_SUCCESS;
  return e->device->impl->event_synchronize(e->native);
} catch (...) {
  return fail_from_exception();
}

ag_result agEventQuery(ag_event event) try {
  AG_DEVICE_ENTRY();
  EventRef e;
  if (ag_result r = get_event(event, &e)) return r;
  if (!e->recorded.load(std::memory_order_acquire)) return AG_SUCCESS;
  return e->device->impl->event_query(e->native);
} catch (...) {
  return fail_from_exception();
}

ag_result agEventElapsedTime(float* milliseconds, ag_event start, ag_event end) try {
  AG_DEVICE_ENTRY();
  EventRef s, e;
  if (ag_result r = require_pointer(milliseconds, "milliseconds")) return r;
  if (ag_result r = get_event(start, &s)) return r;
  if (ag_result r = get_event(end, &e)) return r;
  if (ag_result r = require_same_device(s->device, e->device, "the two events")) return r;
  for (const Event* event : {s.get(), e.get()}) {
    if (event->flags & AG_EVENT_DISABLE_TIMING)
      return fail(AG_ERROR_INVALID_VALUE,
                  "the %s event was created with AG_EVENT_DISABLE_TIMING and has no timestamp",
                  event == s.get() ? "start" : "end");
  }
  for (const Event* event : {s.get(), e.get()})
    if (!event->recorded.load(std::memory_order_acquire))
      return fail(AG_ERROR_INVALID_VALUE,
                  "the %s event was never recorded (agEventRecord it first)",
                  event == s.get() ? "start" : "end");
  float value = 0;
  if (ag_result r = s->device->impl->event_elapsed(&value, s->native, e->native)) return r;
  *milliseconds = value;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
