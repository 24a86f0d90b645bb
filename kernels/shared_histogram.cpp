// Each block counts its values into a shared-memory histogram with atomics, the way CUDA's
// histogram samples do, and writes its counts and its largest value out (no global atomics):
// counts[block * bin_count + b] and largest[block]. Any block shape; bin_count <= 256.
#include <anygpu/kernel.h>

AG_KERNEL(shared_histogram, (int n, const AG_GLOBAL unsigned* values, unsigned bin_count,
                             AG_GLOBAL unsigned* counts, AG_GLOBAL unsigned* largest)) {
  __shared__ unsigned block_counts[256];
  __shared__ unsigned block_largest;
  __shared__ unsigned block_seen;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  for (unsigned b = tid; b < bin_count; b += threads) block_counts[b] = 0;
  if (tid == 0) {
    block_largest = 0;
    block_seen = 0;
  }
  __syncthreads();
  // A grid-stride loop: each thread takes every (grid size)-th value.
  for (unsigned i = blockIdx.x * threads + tid; i < (unsigned)n; i += gridDim.x * threads) {
    const unsigned v = values[i];
    atomicAdd(&block_counts[v % bin_count], 1u);
    atomicMax(&block_largest, v);
    atomicCAS(&block_seen, 0u, 1u);
  }
  __syncthreads();
  for (unsigned b = tid; b < bin_count; b += threads)
    counts[blockIdx.x * bin_count + b] = block_counts[b];
  if (tid == 0) largest[blockIdx.x] = block_seen ? block_largest : 0xFFFFFFFFu;
}
