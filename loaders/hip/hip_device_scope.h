// Makes a device the calling thread's current HIP device for one call, without disturbing the
// application's: HIP keeps a current device per thread (device 0 until hipSetDevice), and the
// calls without a device argument (allocation, synchronous copies, stream, event and module
// creation, launches on the null stream) act on it. When the thread's device is already ours
// nothing is set; otherwise ours is set for the call and the previous one set back after.
#pragma once

#include "hip_api.h"

namespace anygpu::hip {

class DeviceScope {
 public:
  DeviceScope(const HipFunctions& hip, int device) : hip_(hip) {
    int current = -1;
    result_ = hip.hipGetDevice(&current);
    if (result_ != hipSuccess || current == device) return;
    result_ = hip.hipSetDevice(device);
    call_ = "hipSetDevice";
    if (result_ == hipSuccess) {
      previous_ = current;
      restore_ = true;
    }
  }
  ~DeviceScope() {
    if (restore_) hip_.hipSetDevice(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

  hipError_t result() const { return result_; }
  const char* call() const { return call_; }

 private:
  const HipFunctions& hip_;
  hipError_t result_ = hipSuccess;
  const char* call_ = "hipGetDevice";
  int previous_ = 0;
  bool restore_ = false;
};

}  // namespace anygpu::hip
