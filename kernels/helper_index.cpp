// A barrier-free kernel whose helper reads the thread's indices (they come from the context, not
// the kernel's frame, so the block loop must keep the context up to date).
#include <anygpu/kernel.h>

AG_DEVICE unsigned global_index() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}

AG_KERNEL(helper_index, (int n, AG_GLOBAL int* out)) {
  unsigned i = global_index();
  if (i < (unsigned)n) out[i] = (int)i;
}
