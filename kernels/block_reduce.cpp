// Sum of each block's slice of `in` into out[block], through static shared memory and barriers.
// Works for any block size up to 1024 (1-D blocks).
#include <anygpu/kernel.h>

AG_KERNEL(block_reduce, (int n, const AG_GLOBAL float* in, AG_GLOBAL float* out)) {
  __shared__ float partial[1024];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  partial[tid] = (i < (unsigned)n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0 && tid + stride < blockDim.x) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
