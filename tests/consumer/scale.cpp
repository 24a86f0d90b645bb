// The consumer's own kernel: y[i] = a * x[i] + offset, in anygpu's kernel dialect.
#include <anygpu/kernel.h>

AG_KERNEL(scale, (int n, float a, float offset, const AG_GLOBAL float* x, AG_GLOBAL float* y)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + offset;
}
