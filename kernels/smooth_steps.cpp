// Smooths each block's slice of `data` steps[blockIdx.x] times with a 3-point average in static
// shared memory: a barrier inside a loop whose trip count is data (the same for the whole block,
// as CUDA requires). 1-D blocks of up to 1024 threads; the last block may be partial.
#include <anygpu/kernel.h>

AG_KERNEL(smooth_steps, (int n, const AG_GLOBAL int* steps, AG_GLOBAL float* data)) {
  __shared__ float values[1024];
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  values[tid] = i < (unsigned)n ? data[i] : 0.0f;
  __syncthreads();
  const int count = steps[blockIdx.x];
  for (int s = 0; s < count; ++s) {
    float left = tid > 0 ? values[tid - 1] : values[tid];
    float right = tid + 1 < blockDim.x ? values[tid + 1] : values[tid];
    float mine = (left + values[tid] + right) * (1.0f / 3.0f);
    __syncthreads();
    values[tid] = mine;
    __syncthreads();
  }
  if (i < (unsigned)n) data[i] = values[tid];
}
