// A CUDA function's attributes and occupancy: cuFuncGetAttribute, cuFuncSetAttribute and the
// driver's occupancy calculator, in the device's primary context.
#include <climits>

#include "cuda_device.h"
#include "shim/core/function_attribute_reader.h"

namespace anygpu::cuda {

ag_result CudaDevice::function_attributes(void* function, FunctionAttributes& attributes) {
  // In FunctionAttributeSlot's order.
  static const CUfunction_attribute kAsked[kAttributeSlotCount] = {
      CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, CU_FUNC_ATTRIBUTE_NUM_REGS,
      CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,     CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES,
      CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,      CU_FUNC_ATTRIBUTE_BINARY_VERSION};
  return in_context([&] {
    const auto f = static_cast<CUfunction>(function);
    return read_function_attributes(
        [&](int slot, int* value) {
          return cuda_fail(cu_.cuFuncGetAttribute(value, kAsked[slot], f), "cuFuncGetAttribute");
        },
        attributes);
  });
}

ag_result CudaDevice::function_set_max_dynamic_shared(void* function, size_t bytes) {
  return in_context([&] {
    // The shim has checked `bytes` against the opt-in limit, which an int holds.
    const int value = bytes > INT_MAX ? INT_MAX : static_cast<int>(bytes);
    return cuda_fail(cu_.cuFuncSetAttribute(static_cast<CUfunction>(function),
                                            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, value),
                     "cuFuncSetAttribute");
  });
}

ag_result CudaDevice::occupancy_max_active_blocks(void* function, int block_size,
                                                  size_t dynamic_shared, int* blocks) {
  return in_context([&] {
    return cuda_fail(cu_.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                         blocks, static_cast<CUfunction>(function), block_size, dynamic_shared),
                     "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  });
}

ag_result CudaDevice::occupancy_max_potential_block_size(void* function, size_t dynamic_shared,
                                                         int block_size_limit, int* min_grid_size,
                                                         int* block_size) {
  return in_context([&] {
    return cuda_fail(cu_.cuOccupancyMaxPotentialBlockSize(
                         min_grid_size, block_size, static_cast<CUfunction>(function), nullptr,
                         dynamic_shared, block_size_limit),
                     "cuOccupancyMaxPotentialBlockSize");
  });
}

}  // namespace anygpu::cuda
