// Parallel sum reduction as NVIDIA's cuda-samples teach it: the same block-level tree written five
// ways, from interleaved addressing to a grid-stride loop with the block size as a template
// parameter. Each kernel leaves one partial sum per block in g_odata[blockIdx.x]; the host adds
// those up. Block sizes are powers of two; the launch gives blockDim.x elements of dynamic shared
// memory. As in the samples, the block is a cooperative group (cg::sync, cta.sync) in most
// variants and plain __syncthreads() in the last; the warp-synchronous tail is not used here.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Dynamic shared memory for a template: extern __shared__ arrays of different element types may not
// share one name, so every instance reaches the same untyped words through this conversion.
template <class T>
struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int dynamic_words[];
    return (T*)dynamic_words;
  }

  __device__ inline operator const T*() const {
    extern __shared__ int dynamic_words[];
    return (T*)dynamic_words;
  }
};

// Interleaved addressing: the active threads are those whose id is a multiple of twice the stride
// (divergent, and the modulo is slow; the starting point).
template <class T>
__global__ void reduce0(T* g_idata, T* g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T* sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s];
    cg::sync(cta);
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Interleaved addressing with a strided index: contiguous threads stay active.
template <class T>
__global__ void reduce1(T* g_idata, T* g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T* sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    cg::sync(cta);
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Sequential addressing: the lower half adds the upper half, halving each step.
template <class T>
__global__ void reduce2(T* g_idata, T* g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T* sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    cg::sync(cta);
  }

  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

// Each thread loads two elements and adds them on the way in: half the blocks.
template <class T>
__global__ void reduce3(T* g_idata, T* g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T* sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;

  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  cta.sync();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    cta.sync();
  }

  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

// The block size is known at compile time, so the tree's steps unroll, and a grid-stride loop lets
// any number of blocks cover any n (each thread first sums as many pairs as it meets).
template <class T, unsigned int blockSize>
__global__ void reduceGridStride(const T* g_idata, T* g_odata, unsigned int n) {
  T* sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int gridSize = blockSize * 2 * gridDim.x;

  T mySum = 0;
  for (unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x; i < n; i += gridSize) {
    mySum += g_idata[i];
    if (i + blockSize < n) mySum += g_idata[i + blockSize];
  }
  sdata[tid] = mySum;
  __syncthreads();

  if ((blockSize >= 1024) && (tid < 512)) sdata[tid] = mySum = mySum + sdata[tid + 512];
  __syncthreads();
  if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
  __syncthreads();
  if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
  __syncthreads();
  if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
  __syncthreads();
  if ((blockSize >= 64) && (tid < 32)) sdata[tid] = mySum = mySum + sdata[tid + 32];
  __syncthreads();
  if ((blockSize >= 32) && (tid < 16)) sdata[tid] = mySum = mySum + sdata[tid + 16];
  __syncthreads();
  if ((blockSize >= 16) && (tid < 8)) sdata[tid] = mySum = mySum + sdata[tid + 8];
  __syncthreads();
  if ((blockSize >= 8) && (tid < 4)) sdata[tid] = mySum = mySum + sdata[tid + 4];
  __syncthreads();
  if ((blockSize >= 4) && (tid < 2)) sdata[tid] = mySum = mySum + sdata[tid + 2];
  __syncthreads();
  if ((blockSize >= 2) && (tid < 1)) sdata[tid] = mySum = mySum + sdata[tid + 1];
  __syncthreads();

  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

template __global__ void reduce0<float>(float*, float*, unsigned int);
template __global__ void reduce1<float>(float*, float*, unsigned int);
template __global__ void reduce2<float>(float*, float*, unsigned int);
template __global__ void reduce3<float>(float*, float*, unsigned int);
template __global__ void reduce3<int>(int*, int*, unsigned int);
template __global__ void reduceGridStride<float, 64>(const float*, float*, unsigned int);
template __global__ void reduceGridStride<float, 256>(const float*, float*, unsigned int);
