// c = a + b
#include <anygpu/kernel.h>

AG_KERNEL(vector_add,
          (int n, const AG_GLOBAL float* a, const AG_GLOBAL float* b, AG_GLOBAL float* c)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
