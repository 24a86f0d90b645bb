// Inclusive prefix sum with warp shuffles, in the manner of NVIDIA cuda-samples' shfl_scan: each
// warp scans its 32 values in registers with __shfl_up_sync, the warps' totals go through shared
// memory, the first warp scans those (a shuffle of width = the number of warps), and each warp adds
// the total of the warps before it. Blocks are a power of two of 32 to 1024 threads.
#include <cuda_runtime.h>

// out[i] = in[first of the block] + ... + in[i]; blockSums[b] = the sum of block b's elements.
__global__ void shfl_scan(const int* in, int* out, int* blockSums, int n) {
  __shared__ int sums[32];  // one per warp
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  int lane_id = threadIdx.x % warpSize;
  int warp_id = threadIdx.x / warpSize;
  int warps = blockDim.x / warpSize;

  // Past the end a thread adds nothing, but it still takes part in the shuffles.
  int value = (id < n) ? in[id] : 0;

  // After the step of distance i each lane holds the sum of the 2i values that end at it.
  for (int i = 1; i < warpSize; i *= 2) {
    int neighbour = __shfl_up_sync(0xffffffff, value, i);
    if (lane_id >= i) value += neighbour;
  }
  if (lane_id == warpSize - 1) sums[warp_id] = value;
  __syncthreads();

  // Only the lanes that hold a warp's total take part: their mask, from a ballot.
  if (warp_id == 0) {
    unsigned int mask = __ballot_sync(0xffffffff, lane_id < warps);
    if (lane_id < warps) {
      int warp_sum = sums[lane_id];
      for (int i = 1; i < warps; i *= 2) {
        int neighbour = __shfl_up_sync(mask, warp_sum, i, warps);
        if (lane_id >= i) warp_sum += neighbour;
      }
      sums[lane_id] = warp_sum;
    }
  }
  __syncthreads();

  if (warp_id > 0) value += sums[warp_id - 1];
  if (id < n) out[id] = value;
  if (threadIdx.x == blockDim.x - 1) blockSums[blockIdx.x] = value;
}

// Adds to each block the scanned total of the blocks before it: with the block totals scanned by
// shfl_scan, the blocks' scans become one scan of the whole array.
__global__ void uniform_add(int* data, const int* partial_sums, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && id < n) data[id] += partial_sums[blockIdx.x - 1];
}
