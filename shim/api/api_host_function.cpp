// Host functions on streams (agLaunchHostFunc).
#include <memory>

#include "shim/api/api_common.h"
#include "shim/core/host_function_guard.h"

using namespace anygpu;

namespace {

// What the backend calls: the application's function, marked as a host function of its device
// so that a wait for that device is refused rather than never ending.
struct HostCall {
  const Device* device;
  const Stream* stream;
  ag_host_fn fn;
  void* user_data;

  static void run(void* data) {
    std::unique_ptr<HostCall> call(static_cast<HostCall*>(data));
    HostFunctionScope scope(call->device, call->stream);
    call->fn(call->user_data);
  }
};

}  // namespace

extern "C" {

ag_result agLaunchHostFunc(ag_stream stream, ag_host_fn fn, void* user_data) try {
  AG_DEVICE_ENTRY();
  StreamRef s;
  if (ag_result r = get_stream(stream, &s)) return r;
  if (ag_result r = require_pointer(reinterpret_cast<const void*>(fn), "fn")) return r;
  // Once queued, the backend calls HostCall::run, which frees it; until then it is ours.
  auto* call = new HostCall{s->device, s.get(), fn, user_data};
  if (ag_result r = s->device->impl->launch_host_func(s->native, &HostCall::run, call)) {
    delete call;
    return r;
  }
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
