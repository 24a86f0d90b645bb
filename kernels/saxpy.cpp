// y = a * x + y
#include <anygpu/kernel.h>

AG_KERNEL(saxpy, (int n, float a, const AG_GLOBAL float* x, AG_GLOBAL float* y)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
