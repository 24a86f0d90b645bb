// Work-efficient exclusive prefix sum (Blelloch's up-sweep / down-sweep, as in GPU Gems 3's
// "Parallel Prefix Sum with CUDA" and NVIDIA's scan samples). Each block scans 2 * blockDim.x
// elements in dynamic shared memory (2 * blockDim.x floats; blockDim.x a power of two) and writes
// its total to g_blockSums. Scanning those totals with the same kernel and adding each block's
// offset with uniformAdd makes the scan of the whole array. n need not be a multiple of the block.
#include <cuda_runtime.h>

__global__ void prescan(float* g_odata, const float* g_idata, float* g_blockSums, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int elements = 2 * blockDim.x;
  int first = blockIdx.x * elements;

  // Two elements per thread, zero past the end.
  int ai = thid;
  int bi = thid + blockDim.x;
  temp[ai] = (first + ai < n) ? g_idata[first + ai] : 0.0f;
  temp[bi] = (first + bi < n) ? g_idata[first + bi] : 0.0f;

  // Up-sweep: build partial sums in place up the tree.
  int offset = 1;
  for (int d = elements >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1;
      int b = offset * (2 * thid + 2) - 1;
      temp[b] += temp[a];
    }
    offset *= 2;
  }

  // The root holds the block's total; clear it for the exclusive scan.
  if (thid == 0) {
    g_blockSums[blockIdx.x] = temp[elements - 1];
    temp[elements - 1] = 0.0f;
  }

  // Down-sweep: push the prefixes back down the tree.
  for (int d = 1; d < elements; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1;
      int b = offset * (2 * thid + 2) - 1;
      float t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();

  if (first + ai < n) g_odata[first + ai] = temp[ai];
  if (first + bi < n) g_odata[first + bi] = temp[bi];
}

// Adds to each block's 2 * blockDim.x elements the scanned total of the blocks before it.
__global__ void uniformAdd(float* g_data, const float* g_blockOffsets, int n) {
  float offset = g_blockOffsets[blockIdx.x];
  int i = blockIdx.x * 2 * blockDim.x + threadIdx.x;
  if (i < n) g_data[i] += offset;
  if (i + blockDim.x < n) g_data[i + blockDim.x] += offset;
}
