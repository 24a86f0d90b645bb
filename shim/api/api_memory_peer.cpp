// Several devices: peer access, and copies between any two devices (agMemcpyPeer), by the driver
// where it can, with one copy where a side is host memory (the CPU device), else through pinned
// host memory.
#include <algorithm>

#include "shim/api/api_common.h"
#include "shim/core/host_function_guard.h"

using namespace anygpu;

namespace {

// The staging buffer's size: big enough that a chunk's copy costs more than its call.
constexpr size_t kStagingBytes = size_t{4} << 20;

ag_result get_device_pair(ag_device device, ag_device peer, Device** dev, Device** peer_dev) {
  if (ag_result r = get_device(device, dev)) return r;
  return get_device(peer, peer_dev);
}

// Devices that can be peers at all: two of one backend. Otherwise the detail says why not.
ag_result require_peer_candidates(const Device& dev, const Device& peer) {
  if (&dev == &peer)
    return fail(AG_ERROR_INVALID_VALUE,
                "device %d and peer are one device, which always reaches its own memory",
                dev.ordinal);
  if (dev.backend != peer.backend)
    return fail(AG_ERROR_NOT_SUPPORTED,
                "device %d (%s) and device %d (%s) are of two backends, which cannot share memory; "
                "agMemcpyPeer copies between them",
                dev.ordinal, dev.backend->label, peer.ordinal, peer.backend->label);
  return AG_SUCCESS;
}

bool peer_enabled(Device& dev, const Device& peer) {
  return std::find(dev.peers_enabled.begin(), dev.peers_enabled.end(), &peer) !=
         dev.peers_enabled.end();
}

// Through `src`'s pinned staging buffer, chunk by chunk; done when it returns.
ag_result copy_through_host(Device& dst_dev, void* dst, Device& src_dev, const void* src,
                            size_t bytes) {
  std::lock_guard<std::mutex> lock(src_dev.staging_mutex);
  if (!src_dev.staging) {
    if (ag_result r = src_dev.impl->host_alloc(kStagingBytes, &src_dev.staging)) return r;
  }
  for (size_t done = 0; done < bytes;) {
    const size_t chunk = std::min(kStagingBytes, bytes - done);
    const char* from = static_cast<const char*>(src) + done;
    if (ag_result r =
            src_dev.impl->copy(CopyKind::device_to_host, src_dev.staging, from, chunk, nullptr))
      return r;
    if (ag_result r = dst_dev.impl->copy(CopyKind::host_to_device, static_cast<char*>(dst) + done,
                                         src_dev.staging, chunk, nullptr))
      return r;
    done += chunk;
  }
  return AG_SUCCESS;
}

// Makes a copy that cannot be queued on `stream` ordered after its work: it waits for them.
ag_result finish_stream_first(const Stream* stream) {
  if (!stream) return AG_SUCCESS;
  if (ag_result r = refuse_wait_in_host_function(*stream->device)) return r;
  return stream->device->impl->stream_synchronize(stream->native);
}

ag_result copy_between_devices(Device& dst_dev, void* dst, Device& src_dev, const void* src,
                               size_t bytes, const Stream* stream) {
  void* native = stream ? stream->native : nullptr;
  if (&dst_dev == &src_dev)
    return dst_dev.impl->copy(CopyKind::device_to_device, dst, src, bytes, native);
  Device& runner = stream ? *stream->device : dst_dev;
  if (dst_dev.backend == src_dev.backend) {
    const ag_result r =
        runner.impl->copy_peer(dst, *dst_dev.impl, src, *src_dev.impl, bytes, native);
    if (r != AG_ERROR_NOT_SUPPORTED) return r;
  }
  // A side whose memory is the host's: one copy by the other device, on the stream if it is its.
  if (src_dev.impl->memory_is_host() || dst_dev.impl->memory_is_host()) {
    const bool by_dst = src_dev.impl->memory_is_host();
    Device& copier = by_dst ? dst_dev : src_dev;
    const CopyKind kind = by_dst ? CopyKind::host_to_device : CopyKind::device_to_host;
    if (stream && stream->device == &copier)
      return copier.impl->copy(kind, dst, src, bytes, native);
    if (ag_result r = finish_stream_first(stream)) return r;
    return copier.impl->copy(kind, dst, src, bytes, nullptr);
  }
  if (ag_result r = finish_stream_first(stream)) return r;
  return copy_through_host(dst_dev, dst, src_dev, src, bytes);
}

}  // namespace

namespace anygpu {

ag_result copy_peer_checked(Device& dst_dev, void* dst, Device& src_dev, const void* src,
                            size_t bytes, const Stream* stream) {
  if (ag_result r = require_size(bytes)) return r;
  if (ag_result r = require_device_range(dst_dev, dst, bytes, "dst")) return r;
  if (ag_result r = require_device_range(src_dev, src, bytes, "src")) return r;
  if (stream && stream->device != &dst_dev && stream->device != &src_dev)
    return fail(AG_ERROR_INVALID_VALUE,
                "the stream is device %d's; a copy between devices %d and %d goes on a stream of "
                "one of them",
                stream->device->ordinal, src_dev.ordinal, dst_dev.ordinal);
  return copy_between_devices(dst_dev, dst, src_dev, src, bytes, stream);
}

}  // namespace anygpu

namespace {

ag_result copy_peer(void* dst, ag_device dst_device, const void* src, ag_device src_device,
                    size_t bytes, ag_stream stream, bool async) {
  Device* dst_dev = nullptr;
  Device* src_dev = nullptr;
  StreamRef s;
  if (ag_result r = get_device_pair(dst_device, src_device, &dst_dev, &src_dev)) return r;
  if (async) {
    if (ag_result r = get_stream(stream, &s)) return r;
  }
  if (ag_result r = require_pointer(dst, "dst")) return r;
  if (ag_result r = require_pointer(src, "src")) return r;
  return copy_peer_checked(*dst_dev, dst, *src_dev, src, bytes, async ? s.get() : nullptr);
}

}  // namespace

extern "C" {

ag_result agDeviceCanAccessPeer(ag_device device, ag_device peer, int* can_access) try {
  AG_DEVICE_ENTRY();
  Device* dev = nullptr;
  Device* peer_dev = nullptr;
  if (ag_result r = get_device_pair(device, peer, &dev, &peer_dev)) return r;
  if (ag_result r = require_pointer(can_access, "can_access")) return r;
  bool can = false;
  if (dev != peer_dev && dev->backend == peer_dev->backend) {
    if (ag_result r = dev->impl->can_access_peer(*peer_dev->impl, &can)) return r;
  }
  *can_access = can ? 1 : 0;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agDeviceEnablePeerAccess(ag_device device, ag_device peer, unsigned int flags) try {
  AG_DEVICE_ENTRY();
  Device* dev = nullptr;
  Device* peer_dev = nullptr;
  if (ag_result r = get_device_pair(device, peer, &dev, &peer_dev)) return r;
  if (ag_result r = require_zero_flags(flags)) return r;
  if (ag_result r = require_peer_candidates(*dev, *peer_dev)) return r;
  bool can = false;
  if (ag_result r = dev->impl->can_access_peer(*peer_dev->impl, &can)) return r;
  if (!can)
    return fail(AG_ERROR_NOT_SUPPORTED,
                "the driver says device %d cannot reach device %d's memory; agMemcpyPeer still "
                "copies between them",
                dev->ordinal, peer_dev->ordinal);
  std::lock_guard<std::mutex> lock(dev->peers_mutex);
  if (peer_enabled(*dev, *peer_dev)) return AG_SUCCESS;
  if (ag_result r = dev->impl->enable_peer_access(*peer_dev->impl)) return r;
  dev->peers_enabled.push_back(peer_dev);
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agDeviceDisablePeerAccess(ag_device device, ag_device peer) try {
  AG_DEVICE_ENTRY();
  Device* dev = nullptr;
  Device* peer_dev = nullptr;
  if (ag_result r = get_device_pair(device, peer, &dev, &peer_dev)) return r;
  if (ag_result r = require_peer_candidates(*dev, *peer_dev)) return r;
  std::lock_guard<std::mutex> lock(dev->peers_mutex);
  if (!peer_enabled(*dev, *peer_dev))
    return fail(AG_ERROR_INVALID_VALUE,
                "device %d's access to device %d's memory is not enabled; agDeviceEnablePeerAccess "
                "enables it",
                dev->ordinal, peer_dev->ordinal);
  if (ag_result r = dev->impl->disable_peer_access(*peer_dev->impl)) return r;
  dev->peers_enabled.erase(
      std::find(dev->peers_enabled.begin(), dev->peers_enabled.end(), peer_dev));
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyPeer(void* dst, ag_device dst_device, const void* src, ag_device src_device,
                       size_t bytes) try {
  AG_DEVICE_ENTRY();
  return copy_peer(dst, dst_device, src, src_device, bytes, nullptr, false);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpyPeerAsync(void* dst, ag_device dst_device, const void* src, ag_device src_device,
                            size_t bytes, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return copy_peer(dst, dst_device, src, src_device, bytes, stream, true);
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
