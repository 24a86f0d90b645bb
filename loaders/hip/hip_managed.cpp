// Managed memory on HIP: hipMallocManaged, hipMemPrefetchAsync and hipMemAdvise (HIP 4.2 on),
// whose advice numbers are anygpu's (ag_mem_advice has CUDA's values, which HIP shares).
#include "hip_device.h"

namespace anygpu::hip {

ag_result HipDevice::managed_alloc(size_t bytes, void** pointer) {
  static_assert(unsigned{AG_MEM_ATTACH_GLOBAL} == hipMemAttachGlobal &&
                int{AG_MEM_ADVISE_SET_READ_MOSTLY} == hipMemAdviseSetReadMostly &&
                int{AG_MEM_ADVISE_UNSET_ACCESSED_BY} == hipMemAdviseUnsetAccessedBy);
  return on_device([&] {
    return hip_fail(hip_.hipMallocManaged(pointer, bytes, hipMemAttachGlobal), "hipMallocManaged");
  });
}

ag_result HipDevice::prefetch(const void* pointer, size_t bytes, bool to_host, void* stream) {
  return on_device([&] {
    return hip_fail(hip_.hipMemPrefetchAsync(pointer, bytes, to_host ? hipCpuDeviceId : device_,
                                             static_cast<hipStream_t>(stream)),
                    "hipMemPrefetchAsync");
  });
}

ag_result HipDevice::advise(const void* pointer, size_t bytes, ag_mem_advice advice,
                            bool for_host) {
  return on_device([&] {
    return hip_fail(hip_.hipMemAdvise(pointer, bytes, static_cast<int>(advice),
                                      for_host ? hipCpuDeviceId : device_),
                    "hipMemAdvise");
  });
}

}  // namespace anygpu::hip
