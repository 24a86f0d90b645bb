// Stream-ordered allocation on CUDA's own pools (CUDA 11.2): every anygpu pool, the default one
// too, is a pool anygpu creates, so that the release threshold anygpu promises (UINT64_MAX unless
// set) never changes the application's default pool.
#include <cstdint>

#include "cuda_device.h"

namespace anygpu::cuda {
namespace {

CUmemoryPool as_pool(void* pool) {
  return static_cast<CUmemoryPool>(pool);
}

}  // namespace

bool CudaDevice::has_pool_functions() const {
  return cu_.cuMemPoolCreate && cu_.cuMemPoolDestroy && cu_.cuMemAllocFromPoolAsync &&
         cu_.cuMemFreeAsync && cu_.cuMemPoolTrimTo && cu_.cuMemPoolSetAttribute &&
         cu_.cuMemPoolGetAttribute;
}

ag_result CudaDevice::pool_create(uint64_t release_threshold, void** pool) {
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = device_;
  return in_context([&] {
    CUmemoryPool created = nullptr;
    if (CUresult r = cu_.cuMemPoolCreate(&created, &props)) return cuda_fail(r, "cuMemPoolCreate");
    if (ag_result r = pool_set_release_threshold(created, release_threshold)) {
      cu_.cuMemPoolDestroy(created);
      return r;
    }
    *pool = created;
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::pool_destroy(void* pool) {
  return cuda_fail(cu_.cuMemPoolDestroy(as_pool(pool)), "cuMemPoolDestroy");
}

ag_result CudaDevice::pool_alloc(void* pool, size_t bytes, void* stream, void** pointer) {
  return in_context([&] {
    CUdeviceptr allocated = 0;
    if (CUresult r = cu_.cuMemAllocFromPoolAsync(&allocated, bytes, as_pool(pool),
                                                 static_cast<CUstream>(stream)))
      return cuda_fail(r, "cuMemAllocFromPoolAsync");
    *pointer = reinterpret_cast<void*>(static_cast<uintptr_t>(allocated));
    return AG_SUCCESS;
  });
}

// With no stream the device is idle: the legacy stream frees it at once.
ag_result CudaDevice::pool_free(void* pointer, void* stream) {
  return in_context([&] {
    return cuda_fail(
        cu_.cuMemFreeAsync(reinterpret_cast<uintptr_t>(pointer), static_cast<CUstream>(stream)),
        "cuMemFreeAsync");
  });
}

ag_result CudaDevice::pool_trim(void* pool, size_t keep) {
  return cuda_fail(cu_.cuMemPoolTrimTo(as_pool(pool), keep), "cuMemPoolTrimTo");
}

ag_result CudaDevice::pool_set_release_threshold(void* pool, uint64_t bytes) {
  cuuint64_t value = bytes;
  return cuda_fail(
      cu_.cuMemPoolSetAttribute(as_pool(pool), CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &value),
      "cuMemPoolSetAttribute", "CU_MEMPOOL_ATTR_RELEASE_THRESHOLD");
}

ag_result CudaDevice::pool_usage(void* pool, uint64_t* used, uint64_t* reserved) {
  cuuint64_t used_bytes = 0, reserved_bytes = 0;
  if (CUresult r =
          cu_.cuMemPoolGetAttribute(as_pool(pool), CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used_bytes))
    return cuda_fail(r, "cuMemPoolGetAttribute", "CU_MEMPOOL_ATTR_USED_MEM_CURRENT");
  if (CUresult r = cu_.cuMemPoolGetAttribute(as_pool(pool), CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT,
                                             &reserved_bytes))
    return cuda_fail(r, "cuMemPoolGetAttribute", "CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT");
  *used = used_bytes;
  *reserved = reserved_bytes;
  return AG_SUCCESS;
}

}  // namespace anygpu::cuda
