// Reverses the values held by each 3-D block, through static shared memory and a barrier:
// block b's threads, in linear order x + bx * (y + by * z), own data[b * threads + linear].
#include <anygpu/kernel.h>

AG_KERNEL(block_reverse3d, (AG_GLOBAL int* data)) {
  __shared__ int values[1024];
  unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  values[linear] = data[block * threads + linear];
  __syncthreads();
  data[block * threads + linear] = values[threads - 1 - linear];
}
