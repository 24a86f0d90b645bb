// Stream-ordered allocation (HIP 5.2): memory pools of a device's memory, each device's default
// pool (hipMallocAsync), and frees in a stream's order, on tests/drivers/common's MemoryPools. A
// pool's allocation is device memory of the pool's device that copies, memsets, kernels and
// hipFree take as any other. The checks are HIP's (hip_mempool.cpp): a null or unknown pool, a
// null pointer or a stream that is not one are hipErrorInvalidValue, and 0 bytes give NULL.
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::hip_test_driver {

test_driver::MemoryPools& pools() {
  static auto* const instance = new test_driver::MemoryPools(
      cpu(), {[](int device, size_t bytes, void** pointer) {
                return reserve_device_memory(device, bytes, pointer) == hipSuccess;
              },
              [](int device, void* pointer, size_t bytes) {
                release_device_memory(device, pointer, bytes);
              }});
  return *instance;
}

namespace {

// Where work on `stream` goes, as stream_for_work says, but a stream that is not one is
// hipErrorInvalidValue, as HIP's pool calls answer.
hipError_t pool_stream(hipStream_t stream, int* device, std::shared_ptr<Stream>* on) {
  const hipError_t r = stream_for_work(stream, device, on);
  return r == hipErrorInvalidHandle ? hipErrorInvalidValue : r;
}

// An allocation from `pool` (by default the default pool of the stream's device; the null
// stream's is the current device) for work on `stream`.
hipError_t allocate_async(void** pointer, size_t bytes, bool by_default, hipMemPool_t pool,
                          hipStream_t stream) {
  if (!pointer || (!by_default && !pools().find(pool))) return hipErrorInvalidValue;
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = pool_stream(stream, &device, &on)) return r;
  if (bytes == 0) {
    *pointer = nullptr;
    return hipSuccess;
  }
  const void* from = by_default ? pools().default_pool(device) : pool;
  void* allocated = nullptr;
  size_t block = 0;
  switch (pools().allocate(from, bytes, on ? on->native : nullptr, &allocated, &block, &device)) {
    case test_driver::MemoryPools::Result::ok:
      break;
    case test_driver::MemoryPools::Result::invalid_pool:  // destroyed meanwhile
      return hipErrorInvalidValue;
    case test_driver::MemoryPools::Result::out_of_memory:
      return hipErrorOutOfMemory;
  }
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    objects().allocations[reinterpret_cast<uintptr_t>(allocated)] =
        Allocation{device, block, false, false, from};
  }
  *pointer = allocated;
  return hipSuccess;
}

}  // namespace

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

// Pinned memory of a device present; the release threshold starts at 0.
ANYGPU_HIP_TEST_API hipError_t hipMemPoolCreate(hipMemPool_t* pool, const hipMemPoolProps* props) {
  DRIVER_ENTRY(hipMemPoolCreate);
  if (!pool || !props || props->allocType != hipMemAllocationTypePinned ||
      props->location.type != hipMemLocationTypeDevice || require_device(props->location.id))
    return hipErrorInvalidValue;
  *pool = static_cast<hipMemPool_t>(pools().create(props->location.id, 0));
  return hipSuccess;
}

// With allocations still live (or frees not yet completed) the handle goes now and the pool once
// they are freed.
ANYGPU_HIP_TEST_API hipError_t hipMemPoolDestroy(hipMemPool_t pool) {
  DRIVER_ENTRY(hipMemPoolDestroy);
  return pools().destroy(pool) ? hipSuccess : hipErrorInvalidValue;
}

ANYGPU_HIP_TEST_API hipError_t hipMallocFromPoolAsync(void** pointer, size_t bytes,
                                                      hipMemPool_t pool, hipStream_t stream) {
  DRIVER_ENTRY(hipMallocFromPoolAsync);
  return allocate_async(pointer, bytes, false, pool, stream);
}

ANYGPU_HIP_TEST_API hipError_t hipMallocAsync(void** pointer, size_t bytes, hipStream_t stream) {
  DRIVER_ENTRY(hipMallocAsync);
  return allocate_async(pointer, bytes, true, nullptr, stream);
}

// The block is the pool's again once the stream reaches the free (at once on the null stream,
// whose work runs to completion); a later allocation on the same stream may have it before. Only
// the start of a live stream-ordered allocation, of any pool, is freed.
ANYGPU_HIP_TEST_API hipError_t hipFreeAsync(void* pointer, hipStream_t stream) {
  DRIVER_ENTRY(hipFreeAsync);
  if (!pointer) return hipErrorInvalidValue;
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = pool_stream(stream, &device, &on)) return r;
  Allocation freed{};
  {
    Objects& o = objects();
    std::lock_guard<std::mutex> lock(o.mutex);
    const auto found = o.allocations.find(reinterpret_cast<uintptr_t>(pointer));
    if (found == o.allocations.end() || !found->second.pool) return hipErrorInvalidValue;
    freed = found->second;
    o.allocations.erase(found);
  }
  pools().free(freed.pool, pointer, freed.bytes, on ? on->native : nullptr);
  return hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipMemPoolTrimTo(hipMemPool_t pool, size_t keep) {
  DRIVER_ENTRY(hipMemPoolTrimTo);
  return pools().trim_to(pool, keep) ? hipSuccess : hipErrorInvalidValue;
}

// Only the release threshold is set (a uint64_t); the counts are read-only.
ANYGPU_HIP_TEST_API hipError_t hipMemPoolSetAttribute(hipMemPool_t pool, hipMemPoolAttr attribute,
                                                      void* value) {
  DRIVER_ENTRY(hipMemPoolSetAttribute);
  if (!value || attribute != hipMemPoolAttrReleaseThreshold) return hipErrorInvalidValue;
  return pools().set_release_threshold(pool, *static_cast<const uint64_t*>(value))
             ? hipSuccess
             : hipErrorInvalidValue;
}

// The release threshold, and the bytes reserved and used (blocks of whole granules), each a
// uint64_t.
ANYGPU_HIP_TEST_API hipError_t hipMemPoolGetAttribute(hipMemPool_t pool, hipMemPoolAttr attribute,
                                                      void* value) {
  DRIVER_ENTRY(hipMemPoolGetAttribute);
  test_driver::MemoryPools::Usage usage{};
  if (!value || !pools().usage(pool, &usage)) return hipErrorInvalidValue;
  switch (attribute) {
    case hipMemPoolAttrReleaseThreshold:
      *static_cast<uint64_t*>(value) = usage.release_threshold;
      return hipSuccess;
    case hipMemPoolAttrReservedMemCurrent:
      *static_cast<uint64_t*>(value) = usage.reserved;
      return hipSuccess;
    case hipMemPoolAttrUsedMemCurrent:
      *static_cast<uint64_t*>(value) = usage.used;
      return hipSuccess;
    default:
      return hipErrorInvalidValue;
  }
}

}  // namespace anygpu::hip
