// Kernels whose names test agModuleGetFunction's resolution (tests/conformance/
// kernel_names_test.cpp) on every target: two instances of one template, a namespaced template, a
// kernel in an anonymous namespace, other::saxpy, whose plain name is also the exact name of the
// AG_KERNEL saxpy (which wins), and an extern "C" kernel, as programs that load kernels by name
// through the driver API write them. Each writes what tells it apart, so a test can see which ran.
#include <cuda_runtime.h>

template <int N>
__global__ void reduce(float* out, float* unused, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<float>(N);
  (void)unused;
}
template __global__ void reduce<256>(float*, float*, unsigned);
template __global__ void reduce<128>(float*, float*, unsigned);

namespace ns {
template <typename T>
__global__ void scale(T* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 3;
}
template __global__ void scale<float>(float*, int);
}  // namespace ns

namespace {
__global__ void offset(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 7;
}
}  // namespace

namespace other {
__global__ void saxpy(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -1.0f;
}
}  // namespace other

extern "C" __global__ void c_linkage_offset(int* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 11;
}
