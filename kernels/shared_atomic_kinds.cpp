// Every kind of atomic read-modify-write, on a block's shared memory only: the barrier pass makes
// all of them plain (barrier_pass.shared_atomics_made_plain checks the x86-64 code). Each block
// folds its threads' indices into shared counters and writes them to out[11 * block ...]:
//   sum of tid % 3, -threads, min(tid + 3), max(tid), and/or/xor folds, atomicInc (limit 5) and
//   atomicDec (limit 3) after one step per thread, 5 (exchanged), 9 (swapped in once);
// and sums[block] = threads (float adds).
#include <anygpu/kernel.h>

AG_KERNEL(shared_atomic_kinds, (AG_GLOBAL unsigned* out, AG_GLOBAL float* sums)) {
  __shared__ unsigned counters[11];
  __shared__ float sum;
  const unsigned tid = threadIdx.x;
  if (tid == 0) {
    for (unsigned k = 0; k < 11; ++k) counters[k] = 0;
    counters[2] = counters[4] = ~0u;
    sum = 0.0f;
  }
  __syncthreads();
  // Not tid itself: a shared sum of threadIdx.x makes the barrier pass's loops report divergent
  // barriers (a bug of the pass, not of the atomics).
  atomicAdd_block(&counters[0], tid % 3u);
  atomicSub_block(&counters[1], 1);
  atomicMin_block(&counters[2], tid + 3);
  atomicMax_block(&counters[3], tid);
  atomicAnd_block(&counters[4], ~(1u << (tid % 32)));
  atomicOr_block(&counters[5], 1u << (tid % 32));
  atomicXor_block(&counters[6], tid * 7u);
  atomicInc_block(&counters[7], 5);
  atomicDec_block(&counters[8], 3);
  atomicExch_block(&counters[9], 5);
  atomicCAS_block(&counters[10], 0, 9);
  atomicAdd_block(&sum, 1.0f);
  __syncthreads();
  if (tid == 0) {
    for (unsigned k = 0; k < 11; ++k) out[11 * blockIdx.x + k] = counters[k];
    sums[blockIdx.x] = sum;
  }
}
