// A Level Zero kernel's attributes, from the zeKernelGetProperties read when it was created. Level
// Zero has no registers count and no dynamic shared memory opt-in, and its core API no occupancy
// calculator.
#include "level_zero_device.h"
#include "level_zero_module.h"

namespace anygpu::level_zero {

ag_result LevelZeroDevice::function_attributes(void* function, FunctionAttributes& attributes) {
  const ze_kernel_properties_t& p = static_cast<ZeFunction*>(function)->properties;
  // A required work-group size (reqd_work_group_size) fixes the block; otherwise the kernel's
  // registers bound how many sub-groups a work-group may have.
  const uint64_t required =
      uint64_t{p.requiredGroupSizeX} * p.requiredGroupSizeY * p.requiredGroupSizeZ;
  const uint64_t by_subgroups = uint64_t{p.maxNumSubgroups} * p.maxSubgroupSize;
  const uint64_t threads = required ? required : by_subgroups;
  attributes.max_threads_per_block =
      threads > 0 && threads < INT32_MAX ? static_cast<int>(threads) : 0;
  attributes.static_shared_bytes = p.localMemSize;
  attributes.local_bytes_per_thread = uint64_t{p.privateMemSize} + p.spillMemSize;
  return AG_SUCCESS;
}

}  // namespace anygpu::level_zero
