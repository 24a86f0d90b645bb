// Every atomic of the dialect, on global and shared memory, by every thread of a 1-D launch of
// N threads. From zeroed buffers (except ints[4] = 41) it leaves: uints[0] = N (counted in shared
// memory per block), uints[1] = 7, uints[2] != 0 and uints[3] = 1 (one compare-and-swap wins),
// ints[0] = -2N, ints[1] = N - 1, ints[2] = 1 - N, ints[3] = 42, wide[0] = N << 32,
// floats[0] = N / 2, doubles[0] = N / 4.
#include <anygpu/kernel.h>

AG_KERNEL(dialect_atomics,
          (AG_GLOBAL int* ints, AG_GLOBAL unsigned* uints, AG_GLOBAL uint64_t* wide,
           AG_GLOBAL float* floats, AG_GLOBAL double* doubles)) {
  __shared__ unsigned block_count;
  const unsigned tid = threadIdx.x;
  const int i = (int)(blockIdx.x * blockDim.x + tid);
  if (tid == 0) block_count = 0;
  __syncthreads();
  atomicAdd(&block_count, 1u);
  __syncthreads();
  if (tid == 0) atomicAdd(&uints[0], block_count);
  atomicExch(&uints[1], 7u);
  if (atomicCAS(&uints[2], 0u, (unsigned)i + 1u) == 0u) atomicAdd(&uints[3], 1u);
  atomicSub(&ints[0], 2);
  atomicMax(&ints[1], i);
  atomicMin(&ints[2], -i);
  atomicAdd(&wide[0], (uint64_t)1 << 32);
  atomicAdd(&floats[0], 0.5f);
  atomicAdd(&doubles[0], 0.25);
  if (i == 0) atomicStore(&ints[3], atomicLoad(&ints[4]) + 1);
}
