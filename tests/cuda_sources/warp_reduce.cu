// Parallel sum reduction with warp-level steps, as NVIDIA's cuda-samples (reduction, reduce4 to
// reduce7 and cg_reduce) teach it: the tree inside a warp is made of register shuffles, not of
// shared-memory steps and barriers. Each kernel leaves one partial sum per block in
// g_odata[blockIdx.x]; the host adds those up. Blocks are whole warps (32 to 1024 threads).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// The sum of the warp's values in lane 0: each step adds the value `offset` lanes up.
template <class T>
__device__ __forceinline__ T warpReduceSum(unsigned int mask, T mySum) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    mySum += __shfl_down_sync(mask, mySum, offset);
  }
  return mySum;
}

// Each thread adds two elements on the way in (reduce4, reduce5); every warp then reduces its
// values by shuffles, lane 0 keeps the warp's sum in shared memory, and the first warp reduces
// those the same way. Only one barrier, between the two warp steps.
template <class T, unsigned int blockSize>
__global__ void reduceWarpShuffle(const T* g_idata, T* g_odata, unsigned int n) {
  __shared__ T warpSums[32];  // one per warp: a block has at most 32
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;

  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) mySum += g_idata[i + blockSize];

  mySum = warpReduceSum<T>(0xffffffff, mySum);
  if ((tid % warpSize) == 0) warpSums[tid / warpSize] = mySum;
  __syncthreads();

  // Lanes past the last warp bring zeros, so that the whole first warp can shuffle.
  if (tid < warpSize) {
    mySum = (tid < blockSize / warpSize) ? warpSums[tid] : 0;
    mySum = warpReduceSum<T>(0xffffffff, mySum);
  }

  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

// reduce7's shape with cooperative groups: a grid-stride loop lets any number of blocks cover
// any n, each tile of 32 threads reduces with cg::reduce, and the first tile reduces the tiles'
// sums. Blocks may be 2-D: the tiles follow the thread's rank in the block.
template <class T>
__global__ void cg_reduce(const T* g_idata, T* g_odata, unsigned int n) {
  __shared__ T tileSums[32];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);

  unsigned int ctaSize = cta.size();
  unsigned int gridSize = gridDim.x * ctaSize;
  T threadVal = 0;
  for (unsigned int i = blockIdx.x * ctaSize + cta.thread_rank(); i < n; i += gridSize) {
    threadVal += g_idata[i];
  }

  T tileSum = cg::reduce(tile, threadVal, cg::plus<T>());
  if (tile.thread_rank() == 0) tileSums[tile.meta_group_rank()] = tileSum;
  cta.sync();

  if (tile.meta_group_rank() == 0) {
    T partial = (tile.thread_rank() < tile.meta_group_size()) ? tileSums[tile.thread_rank()] : 0;
    T blockSum = cg::reduce(tile, partial, cg::plus<T>());
    if (tile.thread_rank() == 0) g_odata[blockIdx.x] = blockSum;
  }
}

template __global__ void reduceWarpShuffle<float, 64>(const float*, float*, unsigned int);
template __global__ void reduceWarpShuffle<float, 256>(const float*, float*, unsigned int);
template __global__ void reduceWarpShuffle<float, 1024>(const float*, float*, unsigned int);
template __global__ void reduceWarpShuffle<int, 128>(const int*, int*, unsigned int);
template __global__ void cg_reduce<float>(const float*, float*, unsigned int);
template __global__ void cg_reduce<int>(const int*, int*, unsigned int);
