// Host functions on a Level Zero stream, which has no host-function command: the list signals an
// event where the function belongs and then waits on a second event; a thread of the stream's own
// waits for the first, calls the function and signals the second from the host, so the list goes
// on only once the function returned (what Unified Runtime does for its host tasks).
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "level_zero_api.h"
#include "shim/core/backend.h"

namespace anygpu::level_zero {

class HostFunctionRunner {
 public:
  HostFunctionRunner(const LevelZeroFunctions& ze, ze_context_handle_t context,
                     ze_device_handle_t device)
      : ze_(ze), context_(context), device_(device) {}
  // Calls what is queued (each function is called once, whatever the device did) and lets go of
  // every event pool. The list must have passed all of them (the stream finished).
  ~HostFunctionRunner();
  HostFunctionRunner(const HostFunctionRunner&) = delete;
  HostFunctionRunner& operator=(const HostFunctionRunner&) = delete;

  // Appends the signal and the wait to `list` (whose lock the caller holds) and queues `fn(data)`.
  ag_result append(ze_command_list_handle_t list, void (*fn)(void*), void* data);
  // Destroys the events of functions the list has passed: call after the stream finished.
  void reclaim();

 private:
  struct Call {
    ze_event_pool_handle_t pool = nullptr;
    ze_event_handle_t reached = nullptr;   // signalled by the list where the function belongs
    ze_event_handle_t returned = nullptr;  // signalled by the host once it returned
    void (*fn)(void*) = nullptr;
    void* data = nullptr;
  };
  ag_result create_events(Call& call);
  void destroy_events(Call& call);
  void run();

  const LevelZeroFunctions& ze_;
  ze_context_handle_t context_;
  ze_device_handle_t device_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Call> queued_;
  std::vector<Call> done_;  // returned; the list may still be reading their events
  bool stopping_ = false;
  std::thread thread_;  // started with the first function
};

}  // namespace anygpu::level_zero
