// Not shown in docs/installing.md: the kernels.cpp its CMakeLists.txt names.
#include <anygpu/kernel.h>

AG_KERNEL(scale, (int n, float a, AG_GLOBAL float* y)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= a;
}
