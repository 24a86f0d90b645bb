// c = a + b
#include <anygpu/kernel.h>

AG_KERNEL(vector_add, (int n, const float* a, const float* b, float* c)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
