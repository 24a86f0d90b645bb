// bins[v % bin_count] += 1 for every value, with atomics (blocks run concurrently).
#include <anygpu/kernel.h>

AG_KERNEL(histogram,
          (int n, const AG_GLOBAL unsigned* values, unsigned bin_count, AG_GLOBAL unsigned* bins)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[values[i] % bin_count], 1u);
}
