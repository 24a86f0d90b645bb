// Peer access and copies between two HIP devices, by device ordinal as HIP has them.
#include "hip_device.h"

namespace anygpu::hip {
namespace {

// The shim passes only devices of this backend.
int ordinal_of(DeviceBackend& device) {
  return static_cast<HipDevice&>(device).ordinal();
}

}  // namespace

ag_result HipDevice::can_access_peer(DeviceBackend& peer, bool* can_access) {
  int can = 0;
  if (hipError_t r = hip_.hipDeviceCanAccessPeer(&can, device_, ordinal_of(peer)))
    return hip_fail(r, "hipDeviceCanAccessPeer");
  *can_access = can != 0;
  return AG_SUCCESS;
}

ag_result HipDevice::enable_peer_access(DeviceBackend& peer) {
  return on_device([&] {
    const hipError_t r = hip_.hipDeviceEnablePeerAccess(ordinal_of(peer), 0);
    // The application enabled it itself: what was asked for holds.
    if (r == hipErrorPeerAccessAlreadyEnabled) return AG_SUCCESS;
    return hip_fail(r, "hipDeviceEnablePeerAccess");
  });
}

ag_result HipDevice::disable_peer_access(DeviceBackend& peer) {
  return on_device([&] {
    return hip_fail(hip_.hipDeviceDisablePeerAccess(ordinal_of(peer)),
                    "hipDeviceDisablePeerAccess");
  });
}

// hipMemcpyPeer works with or without peer access: the runtime stages it where it must.
ag_result HipDevice::copy_peer(void* dst, DeviceBackend& dst_device, const void* src,
                               DeviceBackend& src_device, size_t bytes, void* stream) {
  const int to = ordinal_of(dst_device);
  const int from = ordinal_of(src_device);
  return on_device([&] {
    if (stream)
      return hip_fail(
          hip_.hipMemcpyPeerAsync(dst, to, src, from, bytes, static_cast<hipStream_t>(stream)),
          "hipMemcpyPeerAsync");
    if (hipError_t r = hip_.hipMemcpyPeer(dst, to, src, from, bytes))
      return hip_fail(r, "hipMemcpyPeer");
    // As hipMemcpyDtoD, it may return before the copy is done.
    return finish_null_stream();
  });
}

}  // namespace anygpu::hip
