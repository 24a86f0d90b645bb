// The host build of runtime_program.cu's kernel, in anygpu's kernel dialect, for the CUDA test
// driver (ANYGPU_CUDA_TEST_KERNELS): it runs a launched kernel by name, and runtime_program.cu
// declares its kernel extern "C" so that the names match. The body is the same.
#include <anygpu/kernel.h>

AG_KERNEL(scale_kernel, (AG_GLOBAL float* x, float factor, int n)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}
