// The HIP objects behind anygpu's: the device ordinal (HIP has one context per device and keeps
// it to itself), streams and events, and streams the application made on the device.
#include "hip_device.h"
#include "shim/core/error.h"

namespace anygpu::hip {

ag_result HipDevice::native_device(ag_native_device& native) {
  native.ordinal = device_;
  return AG_SUCCESS;
}

ag_result HipDevice::stream_native(void* stream, void** native) {
  *native = stream;  // anygpu's HIP stream is the hipStream_t itself
  return AG_SUCCESS;
}

ag_result HipDevice::event_native(void* event, void** native) {
  *native = event;
  return AG_SUCCESS;
}

ag_result HipDevice::stream_adopt(void* native, void** stream, int* priority) {
  return on_device([&] {
    auto* hip_stream = static_cast<hipStream_t>(native);
    const int owner = hip_.hipGetStreamDeviceId(hip_stream);
    if (owner < 0)
      return fail(AG_ERROR_INVALID_VALUE,
                  "HIP does not know the stream (hipGetStreamDeviceId says %d); pass a "
                  "hipStream_t the application created and has not destroyed",
                  owner);
    if (owner != device_)
      return fail(AG_ERROR_INVALID_VALUE,
                  "the stream belongs to HIP device %d, not to this device (HIP device %d)", owner,
                  device_);
    if (hipError_t r = hip_.hipStreamGetPriority(hip_stream, priority))
      return hip_fail(r, "hipStreamGetPriority");
    *stream = native;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::stream_release(void* stream) {
  return on_device([&] {
    return hip_fail(hip_.hipStreamSynchronize(static_cast<hipStream_t>(stream)),
                    "hipStreamSynchronize");
  });
}

}  // namespace anygpu::hip
