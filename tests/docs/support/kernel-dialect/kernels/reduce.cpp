// Not shown in docs/kernel-dialect.md: the AG_KERNEL source its CMakeLists.txt builds next to
// kernels/saxpy.cu, one sum per block of 256 threads.
#include <anygpu/kernel.h>

AG_KERNEL(block_sum, (int n, const AG_GLOBAL float* in, AG_GLOBAL float* out)) {
  __shared__ float partial[256];
  const unsigned int tid = threadIdx.x, i = blockIdx.x * 256 + tid;
  partial[tid] = i < (unsigned int)n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int s = 128; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
