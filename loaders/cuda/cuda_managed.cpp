// Managed memory on CUDA: cuMemAllocManaged, and the CUDA 8 forms of prefetch and advice, whose
// advice numbers are anygpu's (ag_mem_advice has CUmem_advise's values).
#include <cstdint>

#include "cuda_device.h"

namespace anygpu::cuda {
namespace {

CUdeviceptr address(const void* pointer) {
  return reinterpret_cast<uintptr_t>(pointer);
}

}  // namespace

ag_result CudaDevice::managed_alloc(size_t bytes, void** pointer) {
  static_assert(unsigned{AG_MEM_ATTACH_GLOBAL} == CU_MEM_ATTACH_GLOBAL &&
                int{AG_MEM_ADVISE_SET_READ_MOSTLY} == CU_MEM_ADVISE_SET_READ_MOSTLY &&
                int{AG_MEM_ADVISE_UNSET_ACCESSED_BY} == CU_MEM_ADVISE_UNSET_ACCESSED_BY);
  return in_context([&] {
    CUdeviceptr allocated = 0;
    if (CUresult r = cu_.cuMemAllocManaged(&allocated, bytes, CU_MEM_ATTACH_GLOBAL))
      return cuda_fail(r, "cuMemAllocManaged");
    *pointer = reinterpret_cast<void*>(static_cast<uintptr_t>(allocated));
    return AG_SUCCESS;
  });
}

ag_result CudaDevice::prefetch(const void* pointer, size_t bytes, bool to_host, void* stream) {
  return in_context([&] {
    return cuda_fail(
        cu_.cuMemPrefetchAsync(address(pointer), bytes, to_host ? CU_DEVICE_CPU : device_,
                               static_cast<CUstream>(stream)),
        "cuMemPrefetchAsync");
  });
}

ag_result CudaDevice::advise(const void* pointer, size_t bytes, ag_mem_advice advice,
                             bool for_host) {
  return in_context([&] {
    return cuda_fail(cu_.cuMemAdvise(address(pointer), bytes, static_cast<int>(advice),
                                     for_host ? CU_DEVICE_CPU : device_),
                     "cuMemAdvise");
  });
}

}  // namespace anygpu::cuda
