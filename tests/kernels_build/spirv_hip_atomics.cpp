// The atomics of atomics_gpu.h in the HIP-mode SPIR-V build (AGK_SPIRV_HIP: clang -x hip
// --offload=spirv64, then llvm-spirv), which kernel.h does not select yet: every function in every
// form (kernels/cuda_atomics.h), on global and shared memory. check_spirv_hip_atomics.sh compiles
// it and validates the SPIR-V.
#define AG_DEVICE static inline __attribute__((device))
#include <anygpu/detail/atomics_gpu.h>

#include "cuda_atomics.h"

extern "C" __attribute__((global)) void spirv_hip_atomics(ag_atomic_slots* s, ag_test_ull* olds,
                                                          int* flag) {
  __attribute__((shared)) unsigned long long block_bits;
  __attribute__((shared)) unsigned block_count;
  unsigned k = 0;
#define AG_RECORD(expression) olds[k++] = ag_atomic_bits(expression);
  AG_ATOMIC_STEPS(AG_RECORD, s)
#undef AG_RECORD
  atomicOr_block(&block_bits, 1ull << (k % 64));
  atomicInc_block(&block_count, 7);
  atomicStore(flag, atomicLoad(flag + 1) + (int)block_count + (int)block_bits);
}
