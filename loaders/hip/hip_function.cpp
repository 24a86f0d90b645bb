// A HIP function's attributes and occupancy: hipFuncGetAttribute and the runtime's occupancy
// calculator. AMD GPUs have no dynamic shared memory opt-in: the default limit is the most, so
// agFunctionSetMaxDynamicShared needs no call here.
#include "hip_device.h"
#include "shim/core/function_attribute_reader.h"

namespace anygpu::hip {

ag_result HipDevice::function_attributes(void* function, FunctionAttributes& attributes) {
  // In FunctionAttributeSlot's order.
  static const hipFunction_attribute kAsked[kAttributeSlotCount] = {
      HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, HIP_FUNC_ATTRIBUTE_NUM_REGS,
      HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,     HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES,
      HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,      HIP_FUNC_ATTRIBUTE_BINARY_VERSION};
  return on_device([&] {
    const auto f = static_cast<hipFunction_t>(function);
    return read_function_attributes(
        [&](int slot, int* value) {
          return hip_fail(hip_.hipFuncGetAttribute(value, kAsked[slot], f), "hipFuncGetAttribute");
        },
        attributes);
  });
}

ag_result HipDevice::occupancy_max_active_blocks(void* function, int block_size,
                                                 size_t dynamic_shared, int* blocks) {
  return on_device([&] {
    return hip_fail(hip_.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
                        blocks, static_cast<hipFunction_t>(function), block_size, dynamic_shared),
                    "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor");
  });
}

ag_result HipDevice::occupancy_max_potential_block_size(void* function, size_t dynamic_shared,
                                                        int block_size_limit, int* min_grid_size,
                                                        int* block_size) {
  return on_device([&] {
    return hip_fail(hip_.hipModuleOccupancyMaxPotentialBlockSize(
                        min_grid_size, block_size, static_cast<hipFunction_t>(function),
                        dynamic_shared, block_size_limit),
                    "hipModuleOccupancyMaxPotentialBlockSize");
  });
}

}  // namespace anygpu::hip
