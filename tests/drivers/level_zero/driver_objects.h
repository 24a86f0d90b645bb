// The driver's objects: every handle it gives out points at one of them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "driver_state.h"
#include "shim/code_object/spirv_reader.h"

namespace anygpu::level_zero_test_driver {

// Every handle points at one of these; the magic tells a handle of the wrong kind.
enum class Kind : uint32_t {
  driver = 0x4c304401,
  device,
  context,
  list,
  pool,
  event,
  module,
  log,
  kernel
};

// Counted in anygpu_l0_test_live_objects.
struct Object {
  explicit Object(Kind k);
  virtual ~Object();
  Kind kind;
};

template <typename T>
T* as(void* handle, Kind kind) {
  auto* object = static_cast<Object*>(handle);
  return object && object->kind == kind ? static_cast<T*>(object) : nullptr;
}

struct Driver {
  Kind kind = Kind::driver;
};
// The driver's devices are the first device_count() of kMaxDevices, each at its own address.
struct Device {
  Kind kind = Kind::device;
  uint32_t index = 0;
};
extern Driver the_driver;

// The device behind a handle; nullptr for anything but one of the driver's device_count().
Device* as_device(ze_device_handle_t device);
inline bool is_device(ze_device_handle_t device) {
  return as_device(device) != nullptr;
}
// Device `index` (below device_count()).
ze_device_handle_t device_handle(uint32_t index);

struct Context : Object {
  Context() : Object(Kind::context) {}
};

struct List : Object {
  List() : Object(Kind::list) {}
  void* stream = nullptr;
  uint32_t device = 0;  // the index of the device it was made for
};

// The devices an event pool was made for, one bit each (device 0: bit 0); every device when it
// was made for none. The specification lets a pool's events be used only on them: a list of
// another device that waits on, signals or resets one fails (ZE_RESULT_ERROR_INVALID_ARGUMENT).
using DeviceMask = uint64_t;
constexpr DeviceMask kEveryDevice = ~DeviceMask{0};
static_assert(kMaxDevices <= 64, "a DeviceMask has a bit per device");

struct Pool : Object {
  Pool() : Object(Kind::pool) {}
  uint32_t count = 0;
  uint32_t flags = 0;
  DeviceMask devices = kEveryDevice;
};

struct Event : Object {
  Event() : Object(Kind::event) {}
  void* native = nullptr;
  DeviceMask devices = kEveryDevice;  // its pool's
  std::atomic<bool> recorded{false};  // since the last reset
  std::atomic<bool> host_signalled{false};
  std::mutex mutex;  // with `changed`: a list waiting for a signal not yet on its way
  std::condition_variable changed;
  // Sets one of the flags and wakes a list waiting for either.
  void mark(std::atomic<bool>& flag) {
    std::lock_guard<std::mutex> lock(mutex);
    flag.store(true);
    changed.notify_all();
  }
};

// Queued on a list's stream for a wait on an event neither signalled nor recorded: holds the list
// until the host signals the event (or a list records it, then until that record completes).
void wait_for_signal(void* event);

struct Module : Object {
  Module() : Object(Kind::module) {}
  SpirvInfo info;
};

struct Log : Object {
  Log() : Object(Kind::log) {}
  std::string text;
};

struct Kernel : Object {
  Kernel() : Object(Kind::kernel) {}
  void* native = nullptr;
  std::vector<ag_param_info> layout;  // the host kernel's: the user's parameters
  std::vector<SpirvParam> spirv;      // the SPIR-V entry's: the user's and the trailing __local
  std::mutex mutex;
  uint32_t group[3] = {1, 1, 1};
  std::vector<std::vector<unsigned char>> values;
  std::vector<bool> set;
  size_t local_bytes = 0;
};

// The reference every kernel timestamp counts from: an event recorded when the driver starts.
void* reference_event();

// Whether a list may use the event: its pool was made for the list's device.
inline bool usable_on(const Event& event, const List& list) {
  return (event.devices >> list.device) & 1;
}

// Runs `wait_count` waits, then `work` on the list's stream, then signals `signal`.
template <typename Work>
ze_result_t append(List* list, ze_event_handle_t signal, uint32_t wait_count,
                   ze_event_handle_t* waits, Work&& work) {
  if (!list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  Event* signalled = nullptr;
  if (signal && !(signalled = as<Event>(signal, Kind::event)))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (signalled && !usable_on(*signalled, *list)) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (wait_count && !waits) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < wait_count; ++i) {
    if (Event* e = as<Event>(waits[i], Kind::event); e && !usable_on(*e, *list))
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; i < wait_count; ++i) {
    Event* e = as<Event>(waits[i], Kind::event);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (e->recorded.load()) {
      if (ag_result r = cpu().stream_wait_event(list->stream, e->native)) return from_ag(r);
    } else if (!e->host_signalled.load()) {
      if (ag_result r = cpu().launch_host_func(list->stream, &wait_for_signal, e))
        return from_ag(r);
    }
  }
  if (ze_result_t r = work()) return r;
  if (signalled) {
    if (ag_result r = cpu().event_record(signalled->native, list->stream)) return from_ag(r);
    signalled->mark(signalled->recorded);
  }
  return ZE_RESULT_SUCCESS;
}

}  // namespace anygpu::level_zero_test_driver
