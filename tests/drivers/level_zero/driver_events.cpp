// Event pools and events: an event is a CPU backend event, recorded when a list signals it, or
// signalled from the host.
#include <algorithm>
#include <memory>

#include "driver_api.h"
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

void* reference_event() {
  static void* const event = [] {
    void* created = nullptr;
    void* stream = nullptr;
    cpu().stream_create(0, &stream);
    cpu().event_create(0, &created);
    cpu().event_record(created, stream);
    cpu().stream_synchronize(stream);
    return created;  // the stream is kept: the event was recorded on it
  }();
  return event;
}

void wait_for_signal(void* event) {
  Event* e = static_cast<Event*>(event);
  {
    std::unique_lock<std::mutex> lock(e->mutex);
    e->changed.wait(lock, [e] { return e->host_signalled.load() || e->recorded.load(); });
  }
  if (!e->host_signalled.load()) cpu().event_synchronize(e->native);
}

ze_result_t zeEventPoolCreate(ze_context_handle_t context, const ze_event_pool_desc_t* desc,
                              uint32_t device_count, ze_device_handle_t* devices,
                              ze_event_pool_handle_t* pool) {
  DRIVER_ENTRY(zeEventPoolCreate);
  if (!as<Context>(context, Kind::context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !pool) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  DeviceMask visible = device_count ? 0 : kEveryDevice;  // none named: all of them
  for (uint32_t i = 0; i < device_count; ++i) {
    const Device* d = devices ? as_device(devices[i]) : nullptr;
    if (!d) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    visible |= DeviceMask{1} << d->index;
  }
  auto* created = new Pool;
  created->count = desc->count;
  created->flags = desc->flags;
  created->devices = visible;
  *pool = reinterpret_cast<ze_event_pool_handle_t>(static_cast<Object*>(created));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventPoolDestroy(ze_event_pool_handle_t pool) {
  DRIVER_ENTRY(zeEventPoolDestroy);
  Pool* p = as<Pool>(pool, Kind::pool);
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete p;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventCreate(ze_event_pool_handle_t pool, const ze_event_desc_t* desc,
                          ze_event_handle_t* event) {
  DRIVER_ENTRY(zeEventCreate);
  Pool* p = as<Pool>(pool, Kind::pool);
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !event) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->index >= p->count) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  auto created = std::make_unique<Event>();
  created->devices = p->devices;
  if (ag_result r = cpu().event_create(0, &created->native)) return from_ag(r);
  *event = reinterpret_cast<ze_event_handle_t>(static_cast<Object*>(created.release()));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventDestroy(ze_event_handle_t event) {
  DRIVER_ENTRY(zeEventDestroy);
  Event* e = as<Event>(event, Kind::event);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  cpu().event_destroy(e->native);
  delete e;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventHostSynchronize(ze_event_handle_t event, uint64_t timeout) {
  DRIVER_ENTRY(zeEventHostSynchronize);
  Event* e = as<Event>(event, Kind::event);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (e->host_signalled.load()) return ZE_RESULT_SUCCESS;
  // No signal is on its way: a real driver would wait out the timeout.
  if (!e->recorded.load()) return ZE_RESULT_NOT_READY;
  if (timeout == 0) return from_ag(cpu().event_query(e->native));
  return from_ag(cpu().event_synchronize(e->native));
}

ze_result_t zeEventQueryStatus(ze_event_handle_t event) {
  DRIVER_ENTRY(zeEventQueryStatus);
  Event* e = as<Event>(event, Kind::event);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (e->host_signalled.load()) return ZE_RESULT_SUCCESS;
  if (!e->recorded.load()) return ZE_RESULT_NOT_READY;
  return from_ag(cpu().event_query(e->native));
}

ze_result_t zeEventHostReset(ze_event_handle_t event) {
  DRIVER_ENTRY(zeEventHostReset);
  Event* e = as<Event>(event, Kind::event);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  e->recorded.store(false);
  e->host_signalled.store(false);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeEventHostSignal(ze_event_handle_t event) {
  DRIVER_ENTRY(zeEventHostSignal);
  Event* e = as<Event>(event, Kind::event);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  e->mark(e->host_signalled);
  return ZE_RESULT_SUCCESS;
}

// Nanoseconds since the driver started, at the event's signal (timer resolution 1 ns).
ze_result_t zeEventQueryKernelTimestamp(ze_event_handle_t event,
                                        ze_kernel_timestamp_result_t* result) {
  DRIVER_ENTRY(zeEventQueryKernelTimestamp);
  Event* e = as<Event>(event, Kind::event);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!result) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!e->recorded.load()) return ZE_RESULT_NOT_READY;
  float milliseconds = 0;
  if (ag_result r = cpu().event_elapsed(&milliseconds, reference_event(), e->native))
    return from_ag(r);
  const uint64_t ns = static_cast<uint64_t>(std::max(0.0f, milliseconds) * 1e6);
  result->global = {ns, ns};
  result->context = {ns, ns};
  return ZE_RESULT_SUCCESS;
}

}  // namespace anygpu::level_zero_test_driver
