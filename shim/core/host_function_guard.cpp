#include "shim/core/host_function_guard.h"

#include "shim/core/error.h"
#include "shim/core/objects.h"

namespace anygpu {
namespace {

thread_local const Device* host_function_device = nullptr;
thread_local const Stream* host_function_stream = nullptr;

}  // namespace

HostFunctionScope::HostFunctionScope(const Device* device, const Stream* stream)
    : outer_device_(host_function_device), outer_stream_(host_function_stream) {
  host_function_device = device;
  host_function_stream = stream;
}

HostFunctionScope::~HostFunctionScope() {
  host_function_device = outer_device_;
  host_function_stream = outer_stream_;
}

ag_result refuse_wait_in_host_function(const Device& device) {
  if (host_function_device != &device) return AG_SUCCESS;
  return fail(AG_ERROR_NOT_PERMITTED,
              "called from a host function of device %d, it would wait for that device's work, "
              "which waits for the host function to return; wait outside the host function (for "
              "example on a condition variable the host function signals)",
              device.ordinal);
}

ag_result refuse_own_stream_in_host_function(const Stream& stream) {
  if (host_function_stream != &stream) return AG_SUCCESS;
  return fail(AG_ERROR_NOT_PERMITTED,
              "a host function may not use the stream it was queued on (its later work waits for "
              "the host function); queue the work after agLaunchHostFunc instead, or on another "
              "stream");
}

}  // namespace anygpu
