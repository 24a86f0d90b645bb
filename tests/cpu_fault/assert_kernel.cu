// A CUDA kernel whose assert fails: the launch fails as on a GPU, the process lives. NDEBUG is
// undefined here so that the assertion is checked in every build type, as C's rule allows.
#undef NDEBUG
#include <assert.h>

__global__ void check_positive(const int* values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(values[i] > 0);
}
