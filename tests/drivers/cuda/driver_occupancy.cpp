// Function attributes (cuFuncGetAttribute, cuFuncSetAttribute) and occupancy, on a model of an
// sm_90 SM. A kernel of the host build has no static shared, constant or local memory, and is
// said to use 32 registers a thread; an SM holds 2048 threads, 32 blocks, 228 KiB of shared
// memory and 65536 registers (driver_device.cpp's attributes, where it answers them).
#include <algorithm>
#include <cstddef>
#include <mutex>

#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {
namespace {

constexpr int kRegistersPerThread = 32;
constexpr int kStaticSharedBytes = 0;
constexpr int kWarpSize = 32;
// sm_90's, which driver_device.cpp does not answer.
constexpr int kMaxBlocksPerMultiprocessor = 32;
constexpr int kRegistersPerMultiprocessor = 65536;
// Device attributes driver_device.cpp answers that cuda_api.h does not name.
constexpr CUdevice_attribute kMaxThreadsPerMultiprocessor = 39;
constexpr CUdevice_attribute kSharedMemoryPerMultiprocessor = 81;

// The function's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, looked up under the lock (the
// size callback of cuOccupancyMaxPotentialBlockSize runs without it); CUDA_ERROR_INVALID_HANDLE
// for a handle that is not a function.
CUresult dynamic_shared_limit(CUfunction function, int* limit) {
  std::lock_guard<std::mutex> lock(objects().mutex);
  const Function* found = objects().function(function);
  if (!found) return CUDA_ERROR_INVALID_HANDLE;
  *limit = found->max_dynamic_shared;
  return CUDA_SUCCESS;
}

// The blocks of `block_size` threads one SM holds at once, each with `dynamic_shared` bytes: the
// tightest of its thread, block, register and shared memory limits, a block taking whole warps.
// 0 for a block larger than the function allows or more shared memory than it may ask for.
int active_blocks(int block_size, size_t dynamic_shared, int shared_limit) {
  if (block_size <= 0 || block_size > kMaxThreadsPerBlock ||
      dynamic_shared > static_cast<size_t>(shared_limit))
    return 0;
  const int threads = (block_size + kWarpSize - 1) / kWarpSize * kWarpSize;
  int blocks = std::min(kMaxBlocksPerMultiprocessor,
                        device_attribute(kMaxThreadsPerMultiprocessor) / threads);
  blocks = std::min(blocks, kRegistersPerMultiprocessor / (kRegistersPerThread * threads));
  const size_t shared = kStaticSharedBytes + dynamic_shared;
  if (shared > 0) {
    const auto per_sm = static_cast<size_t>(device_attribute(kSharedMemoryPerMultiprocessor));
    blocks = std::min(blocks, static_cast<int>(per_sm / shared));
  }
  return blocks;
}

bool attribute_value(CUfunction_attribute attribute, int shared_limit, int* value) {
  switch (attribute) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = kMaxThreadsPerBlock;
      return true;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      *value = kStaticSharedBytes;
      return true;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
      *value = 0;
      return true;
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
      *value = kRegistersPerThread;
      return true;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
      *value = static_cast<int>(config().arch.sm);
      return true;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *value = shared_limit;
      return true;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      *value = -1;  // no preference set
      return true;
  }
  return false;
}

}  // namespace

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuFuncGetAttribute(int* value, CUfunction_attribute attribute,
                                                 CUfunction function) {
  DRIVER_ENTRY(cuFuncGetAttribute);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  int shared_limit = 0;
  if (CUresult r = dynamic_shared_limit(function, &shared_limit)) return r;
  return attribute_value(attribute, shared_limit, value) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// MAX_DYNAMIC_SHARED_SIZE_BYTES up to the device's opt-in limit, which later launches and
// occupancy queries of the function then allow; a carveout preference is taken and changes
// nothing. Any other attribute is CUDA_ERROR_INVALID_VALUE.
ANYGPU_CUDA_TEST_API CUresult cuFuncSetAttribute(CUfunction function,
                                                 CUfunction_attribute attribute, int value) {
  DRIVER_ENTRY(cuFuncSetAttribute);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  const int optin = device_attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  std::lock_guard<std::mutex> lock(objects().mutex);
  Function* found = objects().function(function);
  if (!found) return CUDA_ERROR_INVALID_HANDLE;
  switch (attribute) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      if (value < 0 || value > optin - kStaticSharedBytes) return CUDA_ERROR_INVALID_VALUE;
      found->max_dynamic_shared = value;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      return value >= -1 && value <= 100 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

// A block size above the function's limit is 0 blocks, not an error, as on a real driver.
ANYGPU_CUDA_TEST_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, CUfunction function, int block_size, size_t dynamic_shared_bytes) {
  DRIVER_ENTRY(cuOccupancyMaxActiveBlocksPerMultiprocessor);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!blocks) return CUDA_ERROR_INVALID_VALUE;
  int shared_limit = 0;
  if (CUresult r = dynamic_shared_limit(function, &shared_limit)) return r;
  if (block_size <= 0) return CUDA_ERROR_INVALID_VALUE;
  *blocks = active_blocks(block_size, dynamic_shared_bytes, shared_limit);
  return CUDA_SUCCESS;
}

// The largest block size (whole warps, down from the function's limit or `block_size_limit`)
// with the most threads per SM, its shared memory from the callback when there is one; and the
// grid that fills every SM with it. 0 and 0 when no size fits.
ANYGPU_CUDA_TEST_API CUresult
cuOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, CUfunction function,
                                 CUoccupancyB2DSize block_size_to_dynamic_shared,
                                 size_t dynamic_shared_bytes, int block_size_limit) {
  DRIVER_ENTRY(cuOccupancyMaxPotentialBlockSize);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!min_grid_size || !block_size) return CUDA_ERROR_INVALID_VALUE;
  int shared_limit = 0;
  if (CUresult r = dynamic_shared_limit(function, &shared_limit)) return r;
  int start = kMaxThreadsPerBlock;
  if (block_size_limit > 0) start = std::min(start, block_size_limit);
  if (start >= kWarpSize) start -= start % kWarpSize;  // a smaller limit is tried as it is
  int best_size = 0, best_blocks = 0;
  for (int size = start; size > 0; size -= kWarpSize) {
    const size_t shared =
        block_size_to_dynamic_shared ? block_size_to_dynamic_shared(size) : dynamic_shared_bytes;
    const int blocks = active_blocks(size, shared, shared_limit);
    if (blocks * size > best_blocks * best_size) {  // ties keep the larger size
      best_size = size;
      best_blocks = blocks;
    }
  }
  *block_size = best_size;
  *min_grid_size = best_blocks * device_attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  return CUDA_SUCCESS;
}

}  // namespace anygpu::cuda
