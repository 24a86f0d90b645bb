// A kernel whose only barrier is inside a helper: the block must still switch to fibers there.
// Reverses each block's slice of `data` (full blocks only) through static shared memory.
#include <anygpu/kernel.h>

AG_DEVICE void block_sync() {
  __syncthreads();
}

AG_KERNEL(helper_barrier_reverse, (AG_GLOBAL int* data)) {
  __shared__ int values[1024];
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  values[t] = data[base + t];
  block_sync();
  data[base + t] = values[blockDim.x - 1 - t];
}
