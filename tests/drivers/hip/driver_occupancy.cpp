// Function attributes (hipFuncGetAttribute) and occupancy, on a model of a CDNA compute unit: a
// kernel of the host build has no static shared, constant or private memory; a CU holds 2048
// threads in wavefronts of 64, 32 blocks and 64 KiB of LDS (what hipGetDeviceProperties says),
// and registers are not counted.
#include <algorithm>
#include <cstddef>
#include <mutex>

#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

constexpr int kStaticSharedBytes = 0;
constexpr int kRegistersPerThread = 32;
constexpr int kWavefrontSize = 64;
// hipDeviceProp_t's maxThreadsPerMultiProcessor, maxBlocksPerMultiProcessor and
// maxSharedMemoryPerMultiProcessor (driver_device.cpp).
constexpr int kMaxThreadsPerComputeUnit = 2048;
constexpr int kMaxBlocksPerComputeUnit = 32;
constexpr int kSharedMemoryPerComputeUnit = kSharedMemoryPerBlock;
// What a launch may ask for: the block's LDS less the kernel's own.
constexpr int kMaxDynamicShared = kSharedMemoryPerBlock - kStaticSharedBytes;

hipError_t require_function(hipFunction_t function) {
  std::lock_guard<std::mutex> lock(objects().mutex);
  return objects().function(function) ? hipSuccess : hipErrorInvalidHandle;
}

// The blocks of `block_size` threads one CU holds at once, each with `dynamic_shared` bytes: the
// tightest of its thread, block and LDS limits, a block taking whole wavefronts. 0 for a block
// larger than the device allows or more LDS than a launch may ask for.
int active_blocks(int block_size, size_t dynamic_shared) {
  if (block_size <= 0 || block_size > kMaxThreadsPerBlock ||
      dynamic_shared > static_cast<size_t>(kMaxDynamicShared))
    return 0;
  const int threads = (block_size + kWavefrontSize - 1) / kWavefrontSize * kWavefrontSize;
  int blocks = std::min(kMaxBlocksPerComputeUnit, kMaxThreadsPerComputeUnit / threads);
  const size_t shared = kStaticSharedBytes + dynamic_shared;
  if (shared > 0) blocks = std::min(blocks, static_cast<int>(kSharedMemoryPerComputeUnit / shared));
  return blocks;
}

// hipFunction_attribute values (CUDA's numbering) as HIP answers them; PTX_VERSION and
// BINARY_VERSION say nothing here.
bool attribute_value(hipFunction_attribute attribute, int* value) {
  switch (attribute) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *value = kMaxThreadsPerBlock;
      return true;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
      *value = kStaticSharedBytes;
      return true;
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    case HIP_FUNC_ATTRIBUTE_PTX_VERSION:
    case HIP_FUNC_ATTRIBUTE_BINARY_VERSION:
    case 7:  // CACHE_MODE_CA
    case 9:  // PREFERRED_SHARED_MEMORY_CARVEOUT
      *value = 0;
      return true;
    case HIP_FUNC_ATTRIBUTE_NUM_REGS:
      *value = kRegistersPerThread;
      return true;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *value = kMaxDynamicShared;
      return true;
  }
  return false;
}

}  // namespace

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

// A null function is hipErrorInvalidValue, as in HIP; one that is not a function,
// hipErrorInvalidHandle.
ANYGPU_HIP_TEST_API hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attribute,
                                                   hipFunction_t function) {
  DRIVER_ENTRY(hipFuncGetAttribute);
  if (!value || !function) return hipErrorInvalidValue;
  if (hipError_t r = require_function(function)) return r;
  return attribute_value(attribute, value) ? hipSuccess : hipErrorInvalidValue;
}

// A block size above the device's limit is 0 blocks, not an error, as in HIP.
ANYGPU_HIP_TEST_API hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
    int* blocks, hipFunction_t function, int block_size, size_t dynamic_shared) {
  DRIVER_ENTRY(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor);
  if (!blocks) return hipErrorInvalidValue;
  if (hipError_t r = require_function(function)) return r;
  if (block_size <= 0) return hipErrorInvalidValue;
  *blocks = active_blocks(block_size, dynamic_shared);
  return hipSuccess;
}

// The largest block size (whole wavefronts, down from the device's limit or `block_size_limit`)
// with the most threads per CU, and the grid that fills every CU with it. 0 and 0 when no size
// fits.
ANYGPU_HIP_TEST_API hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* grid_size,
                                                                       int* block_size,
                                                                       hipFunction_t function,
                                                                       size_t dynamic_shared,
                                                                       int block_size_limit) {
  DRIVER_ENTRY(hipModuleOccupancyMaxPotentialBlockSize);
  if (!grid_size || !block_size) return hipErrorInvalidValue;
  if (hipError_t r = require_function(function)) return r;
  int start = kMaxThreadsPerBlock;
  if (block_size_limit > 0) start = std::min(start, block_size_limit);
  if (start >= kWavefrontSize) start -= start % kWavefrontSize;  // a smaller limit as it is
  int best_size = 0, best_blocks = 0;
  for (int size = start; size > 0; size -= kWavefrontSize) {
    const int blocks = active_blocks(size, dynamic_shared);
    if (blocks * size > best_blocks * best_size) {  // ties keep the larger size
      best_size = size;
      best_blocks = blocks;
    }
  }
  *block_size = best_size;
  *grid_size = best_blocks * kComputeUnits;
  return hipSuccess;
}

}  // namespace anygpu::hip
