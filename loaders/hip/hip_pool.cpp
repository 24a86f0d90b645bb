// Stream-ordered allocation on HIP's own pools (HIP 5.1): every anygpu pool, the default one too,
// is a pool anygpu creates, so that the release threshold anygpu promises (UINT64_MAX unless set)
// never changes the application's default pool.
#include "hip_device.h"

namespace anygpu::hip {
namespace {

hipMemPool_t as_pool(void* pool) {
  return static_cast<hipMemPool_t>(pool);
}

}  // namespace

bool HipDevice::has_pool_functions() const {
  return hip_.hipMemPoolCreate && hip_.hipMemPoolDestroy && hip_.hipMallocFromPoolAsync &&
         hip_.hipFreeAsync && hip_.hipMemPoolTrimTo && hip_.hipMemPoolSetAttribute &&
         hip_.hipMemPoolGetAttribute;
}

ag_result HipDevice::pool_create(uint64_t release_threshold, void** pool) {
  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = device_;
  return on_device([&] {
    hipMemPool_t created = nullptr;
    if (hipError_t r = hip_.hipMemPoolCreate(&created, &props))
      return hip_fail(r, "hipMemPoolCreate");
    if (ag_result r = pool_set_release_threshold(created, release_threshold)) {
      hip_.hipMemPoolDestroy(created);
      return r;
    }
    *pool = created;
    return AG_SUCCESS;
  });
}

ag_result HipDevice::pool_destroy(void* pool) {
  return hip_fail(hip_.hipMemPoolDestroy(as_pool(pool)), "hipMemPoolDestroy");
}

ag_result HipDevice::pool_alloc(void* pool, size_t bytes, void* stream, void** pointer) {
  return on_device([&] {
    return hip_fail(hip_.hipMallocFromPoolAsync(pointer, bytes, as_pool(pool),
                                                static_cast<hipStream_t>(stream)),
                    "hipMallocFromPoolAsync");
  });
}

// With no stream the device is idle: the null stream frees it at once.
ag_result HipDevice::pool_free(void* pointer, void* stream) {
  return on_device([&] {
    return hip_fail(hip_.hipFreeAsync(pointer, static_cast<hipStream_t>(stream)), "hipFreeAsync");
  });
}

ag_result HipDevice::pool_trim(void* pool, size_t keep) {
  return hip_fail(hip_.hipMemPoolTrimTo(as_pool(pool), keep), "hipMemPoolTrimTo");
}

ag_result HipDevice::pool_set_release_threshold(void* pool, uint64_t bytes) {
  uint64_t value = bytes;
  return hip_fail(
      hip_.hipMemPoolSetAttribute(as_pool(pool), hipMemPoolAttrReleaseThreshold, &value),
      "hipMemPoolSetAttribute", "hipMemPoolAttrReleaseThreshold");
}

ag_result HipDevice::pool_usage(void* pool, uint64_t* used, uint64_t* reserved) {
  uint64_t used_bytes = 0, reserved_bytes = 0;
  if (hipError_t r =
          hip_.hipMemPoolGetAttribute(as_pool(pool), hipMemPoolAttrUsedMemCurrent, &used_bytes))
    return hip_fail(r, "hipMemPoolGetAttribute", "hipMemPoolAttrUsedMemCurrent");
  if (hipError_t r = hip_.hipMemPoolGetAttribute(as_pool(pool), hipMemPoolAttrReservedMemCurrent,
                                                 &reserved_bytes))
    return hip_fail(r, "hipMemPoolGetAttribute", "hipMemPoolAttrReservedMemCurrent");
  *used = used_bytes;
  *reserved = reserved_bytes;
  return AG_SUCCESS;
}

}  // namespace anygpu::hip
