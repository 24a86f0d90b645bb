// CUDA's kernel language as a CUDA file is written: no anygpu spelling anywhere. Built by
// anygpu_add_kernels for every target as part of the test image; tests/conformance/
// cuda_sources_test.cpp runs the kernels on every backend.
#include <cuda_runtime.h>

#include <assert.h>

__device__ __forceinline__ float twice(float v) {
  return 2.0f * v;
}

__device__ __noinline__ int clamp_index(int i, int n) {
  return min(max(i, 0), n - 1);
}

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// A block-wide tree sum in the launch's dynamic shared memory, one template per block size.
template <unsigned int BLOCK>
__global__ void __launch_bounds__(BLOCK) block_sums(const float* in, float* out, unsigned int n) {
  extern __shared__ float partial[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * BLOCK + tid;
  partial[tid] = i < n ? __ldg(&in[i]) : 0.0f;
  __syncthreads();
  for (unsigned int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}
template __global__ void block_sums<64>(const float*, float*, unsigned int);
template __global__ void block_sums<256>(const float*, float*, unsigned int);

// Static shared memory declared in a __device__ helper, not in the kernel.
__device__ float reversed_in_block(float value) {
  __shared__ float staged[128];
  staged[threadIdx.x] = value;
  __syncthreads();
  return staged[blockDim.x - 1 - threadIdx.x];
}

__global__ void reverse_blocks_128(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = reversed_in_block(in[i]);
}

namespace cuda_sources {

template <typename T>
__global__ void scale_clamped(T* data, int n, T factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(n > 0);
  if (i < n) data[i] = twice(data[clamp_index(i, n)]) * factor;
}
template __global__ void scale_clamped<float>(float*, int, float);
template __global__ void scale_clamped<int>(int*, int, int);

}  // namespace cuda_sources

// Counts with an unsigned counter and a deduced literal, as CUDA code does.
__global__ void count_positive(const int* values, int n, unsigned int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && values[i] > 0) atomicAdd(count, 1u);
}
