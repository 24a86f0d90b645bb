// Native handles: the driver objects behind anygpu's devices, streams and events, and streams made
// over the application's own.
#include "shim/api/api_common.h"

using namespace anygpu;

namespace {

// A backend's answer. Only a backend without native objects (the CPU) answers
// AG_ERROR_NOT_SUPPORTED, and leaves the detail to the shim.
ag_result native_answer(ag_result r, const Device& device, const char* what) {
  if (r == AG_ERROR_NOT_SUPPORTED)
    return fail(r, "the %s device has no native %s (only GPU backends do)", device.backend->label,
                what);
  return r;
}

}  // namespace

extern "C" {

ag_result agDeviceGetNativeHandle(ag_device device, ag_native_device* native) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_versioned(native, "native")) return r;
  ag_native_device value{};
  value.struct_size = sizeof value;
  value.backend = dev->backend->kind;
  value.ordinal = -1;
  if (ag_result r = dev->impl->native_device(value)) return native_answer(r, *dev, "device");
  return write_versioned(native, value, "native");
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamGetNativeHandle(ag_stream stream, void** native) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = require_pointer(native, "native")) return r;
  void* value = nullptr;
  if (ag_result r = s->device->impl->stream_native(s->native, &value))
    return native_answer(r, *s->device, "stream");
  *native = value;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agEventGetNativeHandle(ag_event event, void** native) try {
  AG_DEVICE_ENTRY();
  EventRef e;
  if (ag_result r = get_event(event, &e)) return r;
  if (ag_result r = require_pointer(native, "native")) return r;
  void* value = nullptr;
  if (ag_result r = e->device->impl->event_native(e->native, &value))
    return native_answer(r, *e->device, "event");
  *native = value;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agStreamCreateFromNative(ag_device device, void* native_stream, unsigned int flags,
                                   ag_stream* stream) try {
  AG_DEVICE_ENTRY();
  Device* dev;
  if (ag_result r = get_device(device, &dev)) return r;
  if (ag_result r = require_pointer(stream, "stream")) return r;
  if (!native_stream)
    return fail(AG_ERROR_INVALID_VALUE,
                "agStreamCreateFromNative: native_stream is NULL (a default stream); pass a "
                "stream the application created");
  if (ag_result r = require_zero_flags(flags)) return r;
  void* adopted = nullptr;
  int priority = 0;
  if (ag_result r = dev->impl->stream_adopt(native_stream, &adopted, &priority))
    return native_answer(r, *dev, "streams");
  auto* object = new Stream{dev, adopted, priority, true};
  void* handle = handles().streams.insert(object);
  if (!handle) {
    dev->impl->stream_release(adopted);
    delete object;
    return fail(AG_ERROR_OUT_OF_MEMORY, "too many streams");
  }
  *stream = static_cast<ag_stream>(handle);
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
