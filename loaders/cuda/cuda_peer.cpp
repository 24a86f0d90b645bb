// Peer access and copies between two CUDA devices: each device's primary context, as the CUDA
// Runtime's cudaDeviceEnablePeerAccess and cudaMemcpyPeer use.
#include <cstdint>

#include "cuda_device.h"

namespace anygpu::cuda {
namespace {

CUdeviceptr address(const void* pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

// The shim passes only devices of this backend.
CudaDevice& cuda_device(DeviceBackend& device) {
  return static_cast<CudaDevice&>(device);
}

}  // namespace

ag_result CudaDevice::can_access_peer(DeviceBackend& peer, bool* can_access) {
  int can = 0;
  if (CUresult r = cu_.cuDeviceCanAccessPeer(&can, device_, cuda_device(peer).device_))
    return cuda_fail(r, "cuDeviceCanAccessPeer");
  *can_access = can != 0;
  return AG_SUCCESS;
}

ag_result CudaDevice::enable_peer_access(DeviceBackend& peer) {
  CUcontext peer_context = nullptr;
  if (ag_result r = cuda_device(peer).primary_context(&peer_context)) return r;
  return in_context([&] {
    const CUresult r = cu_.cuCtxEnablePeerAccess(peer_context, 0);
    // The application enabled it on the primary context itself: what was asked for holds.
    if (r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) return AG_SUCCESS;
    return cuda_fail(r, "cuCtxEnablePeerAccess");
  });
}

ag_result CudaDevice::disable_peer_access(DeviceBackend& peer) {
  CUcontext peer_context = nullptr;
  if (ag_result r = cuda_device(peer).primary_context(&peer_context)) return r;
  return in_context([&] {
    return cuda_fail(cu_.cuCtxDisablePeerAccess(peer_context), "cuCtxDisablePeerAccess");
  });
}

// cuMemcpyPeer works with or without peer access: the driver stages it where it must.
ag_result CudaDevice::copy_peer(void* dst, DeviceBackend& dst_device, const void* src,
                                DeviceBackend& src_device, size_t bytes, void* stream) {
  CUcontext dst_context = nullptr;
  CUcontext src_context = nullptr;
  if (ag_result r = cuda_device(dst_device).primary_context(&dst_context)) return r;
  if (ag_result r = cuda_device(src_device).primary_context(&src_context)) return r;
  return in_context([&] {
    if (stream)
      return cuda_fail(cu_.cuMemcpyPeerAsync(address(dst), dst_context, address(src), src_context,
                                             bytes, static_cast<CUstream>(stream)),
                       "cuMemcpyPeerAsync");
    if (CUresult r = cu_.cuMemcpyPeer(address(dst), dst_context, address(src), src_context, bytes))
      return cuda_fail(r, "cuMemcpyPeer");
    // As cuMemcpyDtoD, it may return before the copy is done.
    return finish_default_stream();
  });
}

}  // namespace anygpu::cuda
