// Reverses each block's slice of `data` in place through dynamic shared memory
// (launch with blockDim.x * sizeof(float) bytes of it). The last block may be partial.
#include <anygpu/kernel.h>

AG_KERNEL(reverse_blocks, (int n, AG_GLOBAL float* data)) {
  AG_DYNAMIC_SHARED(float, buffer);
  unsigned base = blockIdx.x * blockDim.x;
  unsigned count = (unsigned)n - base < blockDim.x ? (unsigned)n - base : blockDim.x;
  unsigned tid = threadIdx.x;
  if (tid < count) buffer[tid] = data[base + tid];
  __syncthreads();
  if (tid < count) data[base + tid] = buffer[count - 1 - tid];
}
