// Kernels whose entry names are Itanium-mangled, as a CUDA-syntax source gives its C++ kernels:
// for agModuleGetFunction's name resolution (tests/conformance/kernel_names_test.cpp) on every
// target. Each is an AG_KERNEL whose name is the mangled name of the C++ kernel in its comment;
// each writes what tells it apart, so a test can see which one ran.
#include <anygpu/kernel.h>

// template <int N> __global__ void reduce(float* out, float* unused, unsigned n): out[i] = N
AG_KERNEL(_Z6reduceILi256EEvPfS0_j, (AG_GLOBAL float* out, AG_GLOBAL float* unused, unsigned n)) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 256.0f;
  (void)unused;
}
AG_KERNEL(_Z6reduceILi128EEvPfS0_j, (AG_GLOBAL float* out, AG_GLOBAL float* unused, unsigned n)) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 128.0f;
  (void)unused;
}

// namespace ns { template <typename T> __global__ void scale(T* x, int n): x[i] *= 3 }
AG_KERNEL(_ZN2ns5scaleIfEEvPT_i, (AG_GLOBAL float* x, int n)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 3.0f;
}

// namespace { __global__ void offset(int* x, int n): x[i] += 7 }
AG_KERNEL(_ZN12_GLOBAL__N_16offsetEPii, (AG_GLOBAL int* x, int n)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 7;
}

// namespace other { __global__ void saxpy(float* x, int n): x[i] = -1 }: its plain name is also
// the exact name of the AG_KERNEL saxpy, which wins.
AG_KERNEL(_ZN5other5saxpyEPfi, (AG_GLOBAL float* x, int n)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -1.0f;
}
