// 256-bin byte histogram in the style of NVIDIA cuda-samples' histogram256: every warp of a block
// counts into its own sub-histogram in shared memory with shared atomics, the block adds its warps'
// counts into one partial histogram in global memory, and a second kernel (one block per bin) sums
// the partial histograms. Each 32-bit word of the input holds four bytes.
#include <cuda_runtime.h>

typedef unsigned int uint;

#define HISTOGRAM256_BIN_COUNT 256
#define LOG2_WARP_SIZE 5U
#define WARP_COUNT 8
#define HISTOGRAM256_THREADBLOCK_SIZE (WARP_COUNT << LOG2_WARP_SIZE)
#define HISTOGRAM256_THREADBLOCK_MEMORY (WARP_COUNT * HISTOGRAM256_BIN_COUNT)
#define MERGE_THREADBLOCK_SIZE 256

__device__ inline void addByte(uint* s_WarpHist, uint data) {
  atomicAdd(s_WarpHist + data, 1);
}

__device__ inline void addWord(uint* s_WarpHist, uint data) {
  addByte(s_WarpHist, (data >> 0) & 0xFFU);
  addByte(s_WarpHist, (data >> 8) & 0xFFU);
  addByte(s_WarpHist, (data >> 16) & 0xFFU);
  addByte(s_WarpHist, (data >> 24) & 0xFFU);
}

// Launched with HISTOGRAM256_THREADBLOCK_SIZE threads per block; writes gridDim.x partial
// histograms.
__global__ void histogram256Kernel(uint* d_PartialHistograms, const uint* d_Data, uint dataCount) {
  __shared__ uint s_Hist[HISTOGRAM256_THREADBLOCK_MEMORY];
  uint* s_WarpHist = s_Hist + (threadIdx.x >> LOG2_WARP_SIZE) * HISTOGRAM256_BIN_COUNT;

  for (uint i = 0; i < (HISTOGRAM256_THREADBLOCK_MEMORY / HISTOGRAM256_THREADBLOCK_SIZE); i++)
    s_Hist[threadIdx.x + i * HISTOGRAM256_THREADBLOCK_SIZE] = 0;
  __syncthreads();

  for (uint pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount;
       pos += blockDim.x * gridDim.x)
    addWord(s_WarpHist, d_Data[pos]);
  __syncthreads();

  for (uint bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT; bin += HISTOGRAM256_THREADBLOCK_SIZE) {
    uint sum = 0;
    for (uint i = 0; i < WARP_COUNT; i++) sum += s_Hist[bin + i * HISTOGRAM256_BIN_COUNT];
    d_PartialHistograms[blockIdx.x * HISTOGRAM256_BIN_COUNT + bin] = sum;
  }
}

// One block of MERGE_THREADBLOCK_SIZE threads per bin.
__global__ void mergeHistogram256Kernel(uint* d_Histogram, const uint* d_PartialHistograms,
                                        uint histogramCount) {
  uint sum = 0;
  for (uint i = threadIdx.x; i < histogramCount; i += MERGE_THREADBLOCK_SIZE)
    sum += d_PartialHistograms[blockIdx.x + i * HISTOGRAM256_BIN_COUNT];

  __shared__ uint data[MERGE_THREADBLOCK_SIZE];
  data[threadIdx.x] = sum;
  for (uint stride = MERGE_THREADBLOCK_SIZE / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (threadIdx.x < stride) data[threadIdx.x] += data[threadIdx.x + stride];
  }

  if (threadIdx.x == 0) d_Histogram[blockIdx.x] = data[0];
}
