// Stream-ordered allocation (CUDA 11.2): memory pools of a device's memory, each device's default
// pool (cuMemAllocAsync), and frees in a stream's order, on tests/drivers/common's MemoryPools. A
// pool's allocation is device memory of the pool's device (its primary context's, as the
// allocation tables count it) that copies, memsets, kernels and cuMemFree_v2 take as any other.
#include "driver_cpu.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {

test_driver::MemoryPools& pools() {
  static auto* const instance = new test_driver::MemoryPools(
      cpu(), {[](int, size_t bytes, void** pointer) {
                return reserve_device_memory(bytes, pointer) == CUDA_SUCCESS;
              },
              [](int, void* pointer, size_t bytes) { release_device_memory(pointer, bytes); }});
  return *instance;
}

namespace {

void* pointer_of(CUdeviceptr address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

// CUDA answers CUDA_ERROR_INVALID_VALUE for a handle that is not a pool.
CUresult require_pool(CUmemoryPool pool) {
  if (CUresult r = require_initialized()) return r;
  return pools().find(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// An allocation from `pool` (by default the default pool of the device of the stream's context,
// the current one) for work on `stream`, a stream of the current context.
CUresult allocate_async(CUdeviceptr* pointer, size_t bytes, bool by_default, CUmemoryPool pool,
                        CUstream stream) {
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!pointer || bytes == 0 || (!by_default && !pools().find(pool)))
    return CUDA_ERROR_INVALID_VALUE;
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  const void* from = by_default ? pools().default_pool(context->device) : pool;
  void* allocated = nullptr;
  size_t block = 0;
  int device = 0;
  switch (pools().allocate(from, bytes, on ? on->native : nullptr, &allocated, &block, &device)) {
    case test_driver::MemoryPools::Result::ok:
      break;
    case test_driver::MemoryPools::Result::invalid_pool:  // destroyed meanwhile
      return CUDA_ERROR_INVALID_VALUE;
    case test_driver::MemoryPools::Result::out_of_memory:
      return CUDA_ERROR_OUT_OF_MEMORY;
  }
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    objects().allocations[reinterpret_cast<uintptr_t>(allocated)] =
        Allocation{primary_context(device), block, false, false, from};
  }
  *pointer = reinterpret_cast<uintptr_t>(allocated);
  return CUDA_SUCCESS;
}

}  // namespace

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

// Pinned memory of a device present; the release threshold starts at 0. `maxSize` (CUDA 12.2,
// reserved bytes before) limits what the pool reserves where it is not 0.
ANYGPU_CUDA_TEST_API CUresult cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  DRIVER_ENTRY(cuMemPoolCreate);
  if (CUresult r = require_initialized()) return r;
  if (!pool || !props || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
      props->location.type != CU_MEM_LOCATION_TYPE_DEVICE || require_device(props->location.id))
    return CUDA_ERROR_INVALID_VALUE;
  *pool = static_cast<CUmemoryPool>(pools().create(props->location.id, props->maxSize));
  return CUDA_SUCCESS;
}

// With allocations still live (or frees not yet completed) the handle goes now and the pool once
// they are freed, as the CUDA documentation says.
ANYGPU_CUDA_TEST_API CUresult cuMemPoolDestroy(CUmemoryPool pool) {
  DRIVER_ENTRY(cuMemPoolDestroy);
  if (CUresult r = require_initialized()) return r;
  return pools().destroy(pool) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

ANYGPU_CUDA_TEST_API CUresult cuMemAllocFromPoolAsync(CUdeviceptr* pointer, size_t bytes,
                                                      CUmemoryPool pool, CUstream stream) {
  DRIVER_ENTRY(cuMemAllocFromPoolAsync);
  return allocate_async(pointer, bytes, false, pool, stream);
}

ANYGPU_CUDA_TEST_API CUresult cuMemAllocAsync(CUdeviceptr* pointer, size_t bytes, CUstream stream) {
  DRIVER_ENTRY(cuMemAllocAsync);
  return allocate_async(pointer, bytes, true, nullptr, stream);
}

// The block is the pool's again once the stream reaches the free (at once on the legacy default
// stream, whose work runs to completion); a later allocation on the same stream may have it
// before. Only the start of a live stream-ordered allocation, of any pool, is freed.
ANYGPU_CUDA_TEST_API CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
  DRIVER_ENTRY(cuMemFreeAsync);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  Allocation freed{};
  {
    Objects& o = objects();
    std::lock_guard<std::mutex> lock(o.mutex);
    const auto found = o.allocations.find(pointer);
    if (found == o.allocations.end() || !found->second.pool) return CUDA_ERROR_INVALID_VALUE;
    freed = found->second;
    o.allocations.erase(found);
  }
  pools().free(freed.pool, pointer_of(pointer), freed.bytes, on ? on->native : nullptr);
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t keep) {
  DRIVER_ENTRY(cuMemPoolTrimTo);
  if (CUresult r = require_pool(pool)) return r;
  return pools().trim_to(pool, keep) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// Only the release threshold is set (a cuuint64_t); the counts are read-only.
ANYGPU_CUDA_TEST_API CUresult cuMemPoolSetAttribute(CUmemoryPool pool,
                                                    CUmemPool_attribute attribute, void* value) {
  DRIVER_ENTRY(cuMemPoolSetAttribute);
  if (CUresult r = require_pool(pool)) return r;
  if (!value || attribute != CU_MEMPOOL_ATTR_RELEASE_THRESHOLD) return CUDA_ERROR_INVALID_VALUE;
  return pools().set_release_threshold(pool, *static_cast<const cuuint64_t*>(value))
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_VALUE;
}

// The release threshold, and the bytes reserved and used (blocks of whole granules), each a
// cuuint64_t.
ANYGPU_CUDA_TEST_API CUresult cuMemPoolGetAttribute(CUmemoryPool pool,
                                                    CUmemPool_attribute attribute, void* value) {
  DRIVER_ENTRY(cuMemPoolGetAttribute);
  if (CUresult r = require_pool(pool)) return r;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  test_driver::MemoryPools::Usage usage{};
  if (!pools().usage(pool, &usage)) return CUDA_ERROR_INVALID_VALUE;
  switch (attribute) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      *static_cast<cuuint64_t*>(value) = usage.release_threshold;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
      *static_cast<cuuint64_t*>(value) = usage.reserved;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
      *static_cast<cuuint64_t*>(value) = usage.used;
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}

}  // namespace anygpu::cuda
