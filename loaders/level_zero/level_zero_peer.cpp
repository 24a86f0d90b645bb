// Peers on Level Zero: devices of one driver share anygpu's context for it, and a device that
// zeDeviceCanAccessPeer says can reach another's memory may use it with nothing to enable. A copy
// between them is a plain list copy on the device whose stream it is.
#include "level_zero_device.h"

namespace anygpu::level_zero {

ag_result LevelZeroDevice::can_access_peer(DeviceBackend& peer, bool* can_access) {
  auto& other = static_cast<LevelZeroDevice&>(peer);  // the shim passes only this backend's
  *can_access = false;
  if (other.context_ != context_) return AG_SUCCESS;  // two drivers: no memory in common
  ze_bool_t value = 0;
  if (ze_result_t r = ze_.zeDeviceCanAccessPeer(device_, other.device_, &value))
    return ze_fail(r, "zeDeviceCanAccessPeer");
  *can_access = value != 0;
  return AG_SUCCESS;
}

// Nothing to switch: access follows from the shared context.
ag_result LevelZeroDevice::enable_peer_access(DeviceBackend&) {
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::disable_peer_access(DeviceBackend&) {
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::copy_peer(void* dst, DeviceBackend& dst_device, const void* src,
                                     DeviceBackend& src_device, size_t bytes, void* stream) {
  DeviceBackend& other = &dst_device == this ? src_device : dst_device;
  bool reachable = false;
  if (ag_result r = can_access_peer(other, &reachable)) return r;
  if (!reachable) return AG_ERROR_NOT_SUPPORTED;  // the shim copies through host memory
  return copy(CopyKind::device_to_device, dst, src, bytes, stream);
}

}  // namespace anygpu::level_zero
