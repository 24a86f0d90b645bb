// The Level Zero objects behind a stream and an event of anygpu's (level_zero_device.cpp makes
// them; level_zero_native.cpp hands their driver handles out).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include "level_zero_api.h"
#include "level_zero_host_functions.h"

namespace anygpu::level_zero {

// An immediate command list and the event its barriers signal when a thread waits for it.
struct ZeStream {
  ze_command_list_handle_t list = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t done = nullptr;
  std::mutex mutex;              // a command list takes one appending thread at a time
  bool appended = false;         // work appended since the last barrier that signals `done`
  bool barrier_pending = false;  // that barrier was appended and not yet seen signalled
  int synchronizing = 0;  // device synchronize()s using it; under the device's streams_mutex_
  bool adopted = false;   // the list is the application's: destroying the stream leaves it
  // Its list was handed out or came from the application, which may append to it without
  // `appended` knowing: a wait always appends its barrier.
  std::atomic<bool> shared{false};
  std::unique_ptr<HostFunctionRunner> host_functions;  // made with the first host function
};

// An event in a pool of its own (host-visible, with kernel timestamps), and whether it was ever
// recorded before (a record again resets it; a destroy waits for a recorded one to signal).
struct ZeEvent {
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t event = nullptr;
  std::atomic<bool> recorded{false};
};

}  // namespace anygpu::level_zero
