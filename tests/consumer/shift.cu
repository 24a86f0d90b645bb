// The consumer's CUDA-source kernel, as CUDA code is written: built by the installed
// anygpu_add_kernels for every target next to scale.cpp.
#include <cuda_runtime.h>

template <typename T>
__global__ void shift(int n, T by, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += by;
}
template __global__ void shift<float>(int, float, float*);
