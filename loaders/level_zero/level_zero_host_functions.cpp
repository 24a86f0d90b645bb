#include "level_zero_host_functions.h"

#include "level_zero_result.h"

namespace anygpu::level_zero {

HostFunctionRunner::~HostFunctionRunner() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  reclaim();
}

ag_result HostFunctionRunner::create_events(Call& call) {
  ze_event_pool_desc_t pool_desc{};
  pool_desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
  pool_desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
  pool_desc.count = 2;
  if (ze_result_t r = ze_.zeEventPoolCreate(context_, &pool_desc, 1, &device_, &call.pool))
    return ze_fail(r, "zeEventPoolCreate");
  ze_event_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
  desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
  desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  ze_result_t r = ze_.zeEventCreate(call.pool, &desc, &call.reached);
  if (r == ZE_RESULT_SUCCESS) {
    desc.index = 1;
    r = ze_.zeEventCreate(call.pool, &desc, &call.returned);
  }
  if (r == ZE_RESULT_SUCCESS) return AG_SUCCESS;
  destroy_events(call);
  return ze_fail(r, "zeEventCreate");
}

void HostFunctionRunner::destroy_events(Call& call) {
  if (call.returned) ze_.zeEventDestroy(call.returned);
  if (call.reached) ze_.zeEventDestroy(call.reached);
  if (call.pool) ze_.zeEventPoolDestroy(call.pool);
  call = Call{};
}

ag_result HostFunctionRunner::append(ze_command_list_handle_t list, void (*fn)(void*), void* data) {
  {  // started first: once the signal is in the list, the function must run
    std::lock_guard<std::mutex> lock(mutex_);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  Call call;
  if (ag_result r = create_events(call)) return r;
  call.fn = fn;
  call.data = data;
  if (ze_result_t r = ze_.zeCommandListAppendSignalEvent(list, call.reached)) {
    destroy_events(call);
    return ze_fail(r, "zeCommandListAppendSignalEvent");
  }
  if (ze_result_t r = ze_.zeCommandListAppendWaitOnEvents(list, 1, &call.returned)) {
    // The signal is in the list: its event may go only once the list has passed it. The
    // function is not called (the caller still owns `data`), and nothing was queued.
    ze_.zeEventHostSynchronize(call.reached, kWaitForever);
    destroy_events(call);
    return ze_fail(r, "zeCommandListAppendWaitOnEvents");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  queued_.push_back(call);
  changed_.notify_all();
  return AG_SUCCESS;
}

void HostFunctionRunner::reclaim() {
  std::vector<Call> done;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done.swap(done_);
  }
  for (Call& call : done) destroy_events(call);
}

void HostFunctionRunner::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queued_.empty(); });
    if (queued_.empty()) return;  // stopping with nothing left
    Call call = queued_.front();
    queued_.pop_front();
    lock.unlock();
    // A lost device fails the wait: the function is called anyway (once), and the list let go,
    // so that neither the program nor a synchronize waits forever.
    ze_.zeEventHostSynchronize(call.reached, kWaitForever);
    call.fn(call.data);
    ze_.zeEventHostSignal(call.returned);
    lock.lock();
    done_.push_back(call);
  }
}

}  // namespace anygpu::level_zero
