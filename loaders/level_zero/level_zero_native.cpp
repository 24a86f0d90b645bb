// The Level Zero objects behind anygpu's: the driver, device and context, a stream's immediate
// command list, an event, and streams over the application's own in-order immediate lists.
#include "level_zero_device.h"
#include "level_zero_objects.h"

namespace anygpu::level_zero {

ag_result LevelZeroDevice::native_device(ag_native_device& native) {
  native.driver = driver_;
  native.device = device_;
  native.context = context_;
  return AG_SUCCESS;
}

// From now on the application may append to the list, so anygpu's waits stop trusting their
// own record of what it holds (ZeStream::shared).
ag_result LevelZeroDevice::stream_native(void* stream, void** native) {
  auto* s = static_cast<ZeStream*>(stream);
  s->shared.store(true, std::memory_order_relaxed);
  *native = s->list;
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::event_native(void* event, void** native) {
  *native = static_cast<ZeEvent*>(event)->event;
  return AG_SUCCESS;
}

// Level Zero cannot say which device or context a list is of, nor whether it is immediate and
// in order (the core API has no query): the caller vouches for it. Its priority is not known.
ag_result LevelZeroDevice::stream_adopt(void* native, void** stream, int* priority) {
  ZeStream* created = nullptr;
  if (ag_result r = create_stream(&created, ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
                                  static_cast<ze_command_list_handle_t>(native)))
    return r;
  track_stream(created);
  *priority = 0;
  *stream = created;
  return AG_SUCCESS;
}

// stream_destroy waits for the stream and destroys what anygpu made, never an adopted list.
ag_result LevelZeroDevice::stream_release(void* stream) {
  return stream_destroy(stream);
}

}  // namespace anygpu::level_zero
