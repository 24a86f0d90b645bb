// Device and page-locked host memory (both host memory of the CPU backend), copies and memset.
// Device pointers are checked against the allocations, as a real driver rejects a pointer it
// did not allocate; the host side of a copy may be any memory.
#include "driver_cpu.h"
#include "driver_object_tables.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {
namespace {

void* pointer_of(CUdeviceptr address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

CUresult allocate(Context* context, size_t bytes, bool host, void** pointer, bool managed = false) {
  void* allocated = nullptr;
  if (host) {
    if (cpu().host_alloc(bytes, &allocated) != AG_SUCCESS) return CUDA_ERROR_OUT_OF_MEMORY;
  } else if (CUresult r = reserve_device_memory(bytes, &allocated)) {
    return r;
  }
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  o.allocations[reinterpret_cast<uintptr_t>(allocated)] = Allocation{context, bytes, host, managed};
  *pointer = allocated;
  return CUDA_SUCCESS;
}

// Only the start of an allocation of the same kind frees it. A stream-ordered allocation goes
// back to its pool once the work that may use it is done (the current context's and its own), as
// cuMemFree synchronises for one.
CUresult release(Context* current, void* pointer, bool host) {
  Objects& o = objects();
  Allocation taken{};
  {
    std::lock_guard<std::mutex> lock(o.mutex);
    const auto found = o.allocations.find(reinterpret_cast<uintptr_t>(pointer));
    if (!pointer || found == o.allocations.end() || found->second.host != host)
      return CUDA_ERROR_INVALID_VALUE;
    taken = found->second;
    if (!host && !taken.pool) o.device_bytes -= taken.bytes;
    o.allocations.erase(found);
  }
  if (taken.pool) {
    synchronize_context(current);
    if (taken.context != current) synchronize_context(taken.context);
    pools().free(taken.pool, pointer, taken.bytes, nullptr);
    return CUDA_SUCCESS;
  }
  return from_cpu(host ? cpu().host_free(pointer) : cpu().mem_free(pointer));
}

// [pointer, pointer + bytes) inside one managed allocation, and `device` the host or a device:
// what cuMemPrefetchAsync and cuMemAdvise check (CUDA_ERROR_INVALID_VALUE,
// CUDA_ERROR_INVALID_DEVICE).
CUresult check_managed(CUdeviceptr pointer, size_t bytes, CUdevice device) {
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    const Allocation* a =
        test_driver::allocation_holding(objects().allocations, pointer_of(pointer), bytes);
    if (!a || !a->managed || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  }
  if (device != CU_DEVICE_CPU && (device < 0 || device >= config().device_count))
    return CUDA_ERROR_INVALID_DEVICE;
  return CUDA_SUCCESS;
}

bool accessible(const void* pointer, size_t bytes) {
  if (bytes == 0) return true;
  std::lock_guard<std::mutex> lock(objects().mutex);
  return objects().accessible(pointer, bytes);
}

CUresult copy(CopyKind kind, void* dst, const void* src, size_t bytes, CUstream stream) {
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  const bool dst_device = kind != CopyKind::device_to_host;
  const bool src_device = kind != CopyKind::host_to_device;
  if (bytes && (!dst || !src)) return CUDA_ERROR_INVALID_VALUE;
  if ((dst_device && !accessible(dst, bytes)) || (src_device && !accessible(src, bytes)))
    return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  if (bytes == 0) return CUDA_SUCCESS;
  return from_cpu(cpu().copy(kind, dst, src, bytes, on ? on->native : nullptr));
}

// [pointer, pointer + bytes) inside one device allocation made in `context`.
bool in_device_memory(Context* context, const void* pointer, size_t bytes) {
  if (bytes == 0) return true;
  std::lock_guard<std::mutex> lock(objects().mutex);
  const Allocation* a = test_driver::allocation_holding(objects().allocations, pointer, bytes);
  return a && !a->host && a->context == context;
}

// cuMemcpyPeer(Async): each side device memory of its own context, the work on a stream of the
// current context. Peer access need not be enabled, as in CUDA.
CUresult copy_peer(CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src, CUcontext src_context,
                   size_t bytes, CUstream stream) {
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  Context *to = nullptr, *from = nullptr;
  if (CUresult r = find_context(dst_context, &to)) return r;
  if (CUresult r = find_context(src_context, &from)) return r;
  if (!in_device_memory(to, pointer_of(dst), bytes) ||
      !in_device_memory(from, pointer_of(src), bytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  if (bytes == 0) return CUDA_SUCCESS;
  return from_cpu(cpu().copy(CopyKind::device_to_device, pointer_of(dst), pointer_of(src), bytes,
                             on ? on->native : nullptr));
}

// `count` elements of `size` bytes; CUDA wants the destination aligned to the element.
CUresult fill(void* dst, uint32_t value, unsigned size, size_t count, CUstream stream) {
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (reinterpret_cast<uintptr_t>(dst) % size != 0 || count > SIZE_MAX / size ||
      !accessible(dst, count * size))
    return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  if (count == 0) return CUDA_SUCCESS;
  return from_cpu(cpu().fill(dst, value, size, count, on ? on->native : nullptr));
}

}  // namespace

CUresult reserve_device_memory(size_t bytes, void** pointer) {
  Objects& o = objects();
  {
    std::lock_guard<std::mutex> lock(o.mutex);
    if (bytes > kDeviceMemoryBytes - o.device_bytes) return CUDA_ERROR_OUT_OF_MEMORY;
    o.device_bytes += bytes;  // counted before the allocation, so that racing calls see it
  }
  if (cpu().mem_alloc(bytes, pointer) == AG_SUCCESS) return CUDA_SUCCESS;
  std::lock_guard<std::mutex> lock(o.mutex);
  o.device_bytes -= bytes;
  return CUDA_ERROR_OUT_OF_MEMORY;
}

void release_device_memory(void* pointer, size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    objects().device_bytes -= bytes;
  }
  cpu().mem_free(pointer);
}

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  DRIVER_ENTRY(cuMemAlloc_v2);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!pointer || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  void* allocated = nullptr;
  if (CUresult r = allocate(context, bytes, false, &allocated)) return r;
  *pointer = reinterpret_cast<uintptr_t>(allocated);
  return CUDA_SUCCESS;
}

// Managed memory is host memory here: prefetch checks its arguments and waits its turn on the
// stream; advice checks and changes nothing.
ANYGPU_CUDA_TEST_API CUresult cuMemAllocManaged(CUdeviceptr* pointer, size_t bytes,
                                                unsigned flags) {
  DRIVER_ENTRY(cuMemAllocManaged);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!pointer || bytes == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
    return CUDA_ERROR_INVALID_VALUE;
  void* allocated = nullptr;
  if (CUresult r = allocate(context, bytes, false, &allocated, true)) return r;
  *pointer = reinterpret_cast<uintptr_t>(allocated);
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuMemPrefetchAsync(CUdeviceptr pointer, size_t bytes, CUdevice device,
                                                 CUstream stream) {
  DRIVER_ENTRY(cuMemPrefetchAsync);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (CUresult r = check_managed(pointer, bytes, device)) return r;
  std::shared_ptr<Stream> on;
  return stream_for_work(context, stream, &on);
}

ANYGPU_CUDA_TEST_API CUresult cuMemAdvise(CUdeviceptr pointer, size_t bytes, int advice,
                                          CUdevice device) {
  DRIVER_ENTRY(cuMemAdvise);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY)
    return CUDA_ERROR_INVALID_VALUE;
  return check_managed(pointer, bytes, device);
}

ANYGPU_CUDA_TEST_API CUresult cuMemFree_v2(CUdeviceptr pointer) {
  DRIVER_ENTRY(cuMemFree_v2);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  return release(context, pointer_of(pointer), false);
}

ANYGPU_CUDA_TEST_API CUresult cuMemAllocHost_v2(void** pointer, size_t bytes) {
  DRIVER_ENTRY(cuMemAllocHost_v2);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!pointer || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  return allocate(context, bytes, true, pointer);
}

ANYGPU_CUDA_TEST_API CUresult cuMemFreeHost(void* pointer) {
  DRIVER_ENTRY(cuMemFreeHost);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  return release(context, pointer, true);
}

ANYGPU_CUDA_TEST_API CUresult cuMemGetInfo_v2(size_t* free_bytes, size_t* total_bytes) {
  DRIVER_ENTRY(cuMemGetInfo_v2);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!free_bytes || !total_bytes) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(objects().mutex);
  *free_bytes = kDeviceMemoryBytes - objects().device_bytes;
  *total_bytes = kDeviceMemoryBytes;
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t bytes) {
  DRIVER_ENTRY(cuMemcpyHtoD_v2);
  return copy(CopyKind::host_to_device, pointer_of(dst), src, bytes, nullptr);
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t bytes) {
  DRIVER_ENTRY(cuMemcpyDtoH_v2);
  return copy(CopyKind::device_to_host, dst, pointer_of(src), bytes, nullptr);
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  DRIVER_ENTRY(cuMemcpyDtoD_v2);
  return copy(CopyKind::device_to_device, pointer_of(dst), pointer_of(src), bytes, nullptr);
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t bytes,
                                                   CUstream stream) {
  DRIVER_ENTRY(cuMemcpyHtoDAsync_v2);
  return copy(CopyKind::host_to_device, pointer_of(dst), src, bytes, stream);
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, size_t bytes,
                                                   CUstream stream) {
  DRIVER_ENTRY(cuMemcpyDtoHAsync_v2);
  return copy(CopyKind::device_to_host, dst, pointer_of(src), bytes, stream);
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                                   CUstream stream) {
  DRIVER_ENTRY(cuMemcpyDtoDAsync_v2);
  return copy(CopyKind::device_to_device, pointer_of(dst), pointer_of(src), bytes, stream);
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src,
                                           CUcontext src_context, size_t bytes) {
  DRIVER_ENTRY(cuMemcpyPeer);
  return copy_peer(dst, dst_context, src, src_context, bytes, nullptr);
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_context,
                                                CUdeviceptr src, CUcontext src_context,
                                                size_t bytes, CUstream stream) {
  DRIVER_ENTRY(cuMemcpyPeerAsync);
  return copy_peer(dst, dst_context, src, src_context, bytes, stream);
}

ANYGPU_CUDA_TEST_API CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value, size_t count) {
  DRIVER_ENTRY(cuMemsetD8_v2);
  return fill(pointer_of(dst), value, 1, count, nullptr);
}

ANYGPU_CUDA_TEST_API CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count,
                                              CUstream stream) {
  DRIVER_ENTRY(cuMemsetD8Async);
  return fill(pointer_of(dst), value, 1, count, stream);
}

ANYGPU_CUDA_TEST_API CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short value, size_t count) {
  DRIVER_ENTRY(cuMemsetD16_v2);
  return fill(pointer_of(dst), value, 2, count, nullptr);
}

ANYGPU_CUDA_TEST_API CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                                               CUstream stream) {
  DRIVER_ENTRY(cuMemsetD16Async);
  return fill(pointer_of(dst), value, 2, count, stream);
}

ANYGPU_CUDA_TEST_API CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count) {
  DRIVER_ENTRY(cuMemsetD32_v2);
  return fill(pointer_of(dst), value, 4, count, nullptr);
}

ANYGPU_CUDA_TEST_API CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                                               CUstream stream) {
  DRIVER_ENTRY(cuMemsetD32Async);
  return fill(pointer_of(dst), value, 4, count, stream);
}

}  // namespace anygpu::cuda
