// What a host function (agLaunchHostFunc) may not do: wait for work of its own device, or name its
// own stream. The device's work includes the stream's later work, which waits for the host
// function to return, so such a wait would never end; and a backend may hold the stream's lock
// while it waits for the stream (Level Zero does), so any call on that stream could hang. The
// shim runs every host function inside a HostFunctionScope and refuses both with
// AG_ERROR_NOT_PERMITTED.
#pragma once

#include <anygpu/anygpu.h>

namespace anygpu {

struct Device;
struct Stream;

// Marks the calling thread as running a host function queued on `stream` of `device`.
class HostFunctionScope {
 public:
  HostFunctionScope(const Device* device, const Stream* stream);
  ~HostFunctionScope();
  HostFunctionScope(const HostFunctionScope&) = delete;
  HostFunctionScope& operator=(const HostFunctionScope&) = delete;

 private:
  const Device* outer_device_;
  const Stream* outer_stream_;
};

// AG_ERROR_NOT_PERMITTED, with a detail, when the calling thread runs a host function of `device`
// (the current call would wait for that device's work); AG_SUCCESS otherwise.
ag_result refuse_wait_in_host_function(const Device& device);
// AG_ERROR_NOT_PERMITTED, with a detail, when the calling thread runs a host function queued on
// `stream`; AG_SUCCESS otherwise.
ag_result refuse_own_stream_in_host_function(const Stream& stream);

}  // namespace anygpu
