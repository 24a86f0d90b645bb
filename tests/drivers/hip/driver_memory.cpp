// Device and page-locked host memory (both host memory of the CPU backend), copies and memset.
// Device pointers are checked against the allocations, as a real runtime rejects a pointer it did
// not allocate; the host side of a copy may be any memory.
#include "driver_object_tables.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

constexpr unsigned kHostMallocFlags = hipHostMallocPortable | hipHostMallocMapped |
                                      hipHostMallocWriteCombined | hipHostMallocNumaUser |
                                      hipHostMallocCoherent | hipHostMallocNonCoherent;

hipError_t allocate(int device, size_t bytes, bool host, void** pointer, bool managed = false) {
  void* allocated = nullptr;
  if (host) {
    if (cpu().host_alloc(bytes, &allocated) != AG_SUCCESS) return hipErrorOutOfMemory;
  } else if (hipError_t r = reserve_device_memory(device, bytes, &allocated)) {
    return r;
  }
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  o.allocations[reinterpret_cast<uintptr_t>(allocated)] = Allocation{device, bytes, host, managed};
  *pointer = allocated;
  return hipSuccess;
}

// Only the start of an allocation of the same kind frees it; NULL frees nothing. As in HIP, the
// allocation's device finishes its work first; a stream-ordered allocation then goes back to its
// pool.
hipError_t release(void* pointer, bool host) {
  if (!pointer) return hipSuccess;
  Objects& o = objects();
  int device = 0;
  {
    std::lock_guard<std::mutex> lock(o.mutex);
    const auto found = o.allocations.find(reinterpret_cast<uintptr_t>(pointer));
    if (found == o.allocations.end() || found->second.host != host) return hipErrorInvalidValue;
    device = found->second.device;
  }
  synchronize_device(device);
  Allocation taken{};
  {
    std::lock_guard<std::mutex> lock(o.mutex);
    const auto found = o.allocations.find(reinterpret_cast<uintptr_t>(pointer));
    if (found == o.allocations.end()) return hipErrorInvalidValue;  // freed meanwhile
    taken = found->second;
    if (!host && !taken.pool) o.device_bytes[device] -= taken.bytes;
    o.allocations.erase(found);
  }
  if (taken.pool) {
    pools().free(taken.pool, pointer, taken.bytes, nullptr);
    return hipSuccess;
  }
  return from_cpu(host ? cpu().host_free(pointer) : cpu().mem_free(pointer));
}

// [pointer, pointer + bytes) inside one managed allocation, and `device` the host or a device:
// what hipMemPrefetchAsync and hipMemAdvise check.
hipError_t check_managed(const void* pointer, size_t bytes, int device) {
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    const Allocation* a = test_driver::allocation_holding(objects().allocations, pointer, bytes);
    if (!a || !a->managed || bytes == 0) return hipErrorInvalidValue;
  }
  if (device != hipCpuDeviceId && (device < 0 || device >= config().device_count))
    return hipErrorInvalidDevice;
  return hipSuccess;
}

bool accessible(const void* pointer, size_t bytes) {
  if (bytes == 0) return true;
  std::lock_guard<std::mutex> lock(objects().mutex);
  return objects().accessible(pointer, bytes);
}

hipError_t copy(CopyKind kind, void* dst, const void* src, size_t bytes, hipStream_t stream) {
  const bool dst_device = kind != CopyKind::device_to_host;
  const bool src_device = kind != CopyKind::host_to_device;
  if (bytes && (!dst || !src)) return hipErrorInvalidValue;
  if ((dst_device && !accessible(dst, bytes)) || (src_device && !accessible(src, bytes)))
    return hipErrorInvalidValue;
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = stream_for_work(stream, &device, &on)) return r;
  if (bytes == 0) return hipSuccess;
  return from_cpu(cpu().copy(kind, dst, src, bytes, on ? on->native : nullptr));
}

// [pointer, pointer + bytes) inside one device allocation of `device`.
bool in_device_memory(int device, const void* pointer, size_t bytes) {
  if (bytes == 0) return true;
  std::lock_guard<std::mutex> lock(objects().mutex);
  const Allocation* a = test_driver::allocation_holding(objects().allocations, pointer, bytes);
  return a && !a->host && a->device == device;
}

// hipMemcpyPeer(Async): each side device memory of its own device, the work on `stream` (the null
// stream: the current device's). Peer access need not be enabled, as in HIP.
hipError_t copy_peer(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                     hipStream_t stream) {
  if (hipError_t r = require_device(dst_device)) return r;
  if (hipError_t r = require_device(src_device)) return r;
  if (!in_device_memory(dst_device, dst, bytes) || !in_device_memory(src_device, src, bytes))
    return hipErrorInvalidValue;
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = stream_for_work(stream, &device, &on)) return r;
  if (bytes == 0) return hipSuccess;
  return from_cpu(
      cpu().copy(CopyKind::device_to_device, dst, src, bytes, on ? on->native : nullptr));
}

// `count` elements of `size` bytes, the destination aligned to the element.
hipError_t fill(void* dst, uint32_t value, unsigned size, size_t count, hipStream_t stream) {
  if (reinterpret_cast<uintptr_t>(dst) % size != 0 || count > SIZE_MAX / size ||
      !accessible(dst, count * size))
    return hipErrorInvalidValue;
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = stream_for_work(stream, &device, &on)) return r;
  if (count == 0) return hipSuccess;
  return from_cpu(cpu().fill(dst, value, size, count, on ? on->native : nullptr));
}

}  // namespace

hipError_t reserve_device_memory(int device, size_t bytes, void** pointer) {
  Objects& o = objects();
  {
    std::lock_guard<std::mutex> lock(o.mutex);
    if (bytes > kDeviceMemoryBytes - o.device_bytes[device]) return hipErrorOutOfMemory;
    o.device_bytes[device] += bytes;  // counted before the allocation, so racing calls see it
  }
  if (cpu().mem_alloc(bytes, pointer) == AG_SUCCESS) return hipSuccess;
  std::lock_guard<std::mutex> lock(o.mutex);
  o.device_bytes[device] -= bytes;
  return hipErrorOutOfMemory;
}

void release_device_memory(int device, void* pointer, size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    objects().device_bytes[device] -= bytes;
  }
  cpu().mem_free(pointer);
}

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

// On the calling thread's current device. 0 bytes: NULL, and success, as in HIP.
ANYGPU_HIP_TEST_API hipError_t hipMalloc(void** pointer, size_t bytes) {
  DRIVER_ENTRY(hipMalloc);
  if (!pointer) return hipErrorInvalidValue;
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  *pointer = nullptr;
  if (bytes == 0) return hipSuccess;
  return allocate(device, bytes, false, pointer);
}

// Managed memory is host memory here: prefetch checks its arguments and waits its turn on the
// stream; advice checks and changes nothing.
ANYGPU_HIP_TEST_API hipError_t hipMallocManaged(void** pointer, size_t bytes, unsigned flags) {
  DRIVER_ENTRY(hipMallocManaged);
  if (!pointer || bytes == 0 || (flags != hipMemAttachGlobal && flags != hipMemAttachHost))
    return hipErrorInvalidValue;
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  return allocate(device, bytes, false, pointer, true);
}

ANYGPU_HIP_TEST_API hipError_t hipMemPrefetchAsync(const void* pointer, size_t bytes, int device,
                                                   hipStream_t stream) {
  DRIVER_ENTRY(hipMemPrefetchAsync);
  if (hipError_t r = check_managed(pointer, bytes, device)) return r;
  int current = 0;
  std::shared_ptr<Stream> on;
  return stream_for_work(stream, &current, &on);
}

ANYGPU_HIP_TEST_API hipError_t hipMemAdvise(const void* pointer, size_t bytes, int advice,
                                            int device) {
  DRIVER_ENTRY(hipMemAdvise);
  if (advice < hipMemAdviseSetReadMostly || advice > hipMemAdviseUnsetAccessedBy)
    return hipErrorInvalidValue;
  return check_managed(pointer, bytes, device);
}

ANYGPU_HIP_TEST_API hipError_t hipFree(void* pointer) {
  DRIVER_ENTRY(hipFree);
  return release(pointer, false);
}

ANYGPU_HIP_TEST_API hipError_t hipHostMalloc(void** pointer, size_t bytes, unsigned flags) {
  DRIVER_ENTRY(hipHostMalloc);
  if (!pointer || (flags & ~kHostMallocFlags)) return hipErrorInvalidValue;
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  *pointer = nullptr;
  if (bytes == 0) return hipSuccess;
  return allocate(device, bytes, true, pointer);
}

ANYGPU_HIP_TEST_API hipError_t hipHostFree(void* pointer) {
  DRIVER_ENTRY(hipHostFree);
  return release(pointer, true);
}

// Of the calling thread's current device.
ANYGPU_HIP_TEST_API hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  DRIVER_ENTRY(hipMemGetInfo);
  if (!free_bytes || !total_bytes) return hipErrorInvalidValue;
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  std::lock_guard<std::mutex> lock(objects().mutex);
  *free_bytes = kDeviceMemoryBytes - objects().device_bytes[device];
  *total_bytes = kDeviceMemoryBytes;
  return hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const void* src, size_t bytes) {
  DRIVER_ENTRY(hipMemcpyHtoD);
  return copy(CopyKind::host_to_device, dst, src, bytes, nullptr);
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t bytes) {
  DRIVER_ENTRY(hipMemcpyDtoH);
  return copy(CopyKind::device_to_host, dst, src, bytes, nullptr);
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) {
  DRIVER_ENTRY(hipMemcpyDtoD);
  return copy(CopyKind::device_to_device, dst, src, bytes, nullptr);
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, const void* src, size_t bytes,
                                                  hipStream_t stream) {
  DRIVER_ENTRY(hipMemcpyHtoDAsync);
  return copy(CopyKind::host_to_device, dst, src, bytes, stream);
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t bytes,
                                                  hipStream_t stream) {
  DRIVER_ENTRY(hipMemcpyDtoHAsync);
  return copy(CopyKind::device_to_host, dst, src, bytes, stream);
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src,
                                                  size_t bytes, hipStream_t stream) {
  DRIVER_ENTRY(hipMemcpyDtoDAsync);
  return copy(CopyKind::device_to_device, dst, src, bytes, stream);
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpyPeer(void* dst, int dst_device, const void* src,
                                             int src_device, size_t bytes) {
  DRIVER_ENTRY(hipMemcpyPeer);
  return copy_peer(dst, dst_device, src, src_device, bytes, nullptr);
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpyPeerAsync(void* dst, int dst_device, const void* src,
                                                  int src_device, size_t bytes,
                                                  hipStream_t stream) {
  DRIVER_ENTRY(hipMemcpyPeerAsync);
  return copy_peer(dst, dst_device, src, src_device, bytes, stream);
}

ANYGPU_HIP_TEST_API hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
  DRIVER_ENTRY(hipMemsetD8);
  return fill(dst, value, 1, count, nullptr);
}

ANYGPU_HIP_TEST_API hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value,
                                                size_t count, hipStream_t stream) {
  DRIVER_ENTRY(hipMemsetD8Async);
  return fill(dst, value, 1, count, stream);
}

ANYGPU_HIP_TEST_API hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value,
                                            size_t count) {
  DRIVER_ENTRY(hipMemsetD16);
  return fill(dst, value, 2, count, nullptr);
}

ANYGPU_HIP_TEST_API hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value,
                                                 size_t count, hipStream_t stream) {
  DRIVER_ENTRY(hipMemsetD16Async);
  return fill(dst, value, 2, count, stream);
}

ANYGPU_HIP_TEST_API hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  DRIVER_ENTRY(hipMemsetD32);
  return fill(dst, static_cast<uint32_t>(value), 4, count, nullptr);
}

ANYGPU_HIP_TEST_API hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                                                 hipStream_t stream) {
  DRIVER_ENTRY(hipMemsetD32Async);
  return fill(dst, static_cast<uint32_t>(value), 4, count, stream);
}

}  // namespace anygpu::hip
