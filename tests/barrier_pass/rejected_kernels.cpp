// Kernels at the edge of what the barrier pass handles: one it cannot rewrite, which keeps the
// fiber path while the build says why (tests/barrier_pass/CMakeLists.txt checks the message),
// and one whose threads leave at different points; rejected_test.cpp checks their results.
#include <anygpu/kernel.h>

// Written once by the first thread, read through a volatile pointer: the optimizer cannot turn
// the call into a direct one, and the pass cannot see whether the callee reaches a barrier.
AG_DEVICE int twice(int value) {
  return 2 * value;
}
static int (*volatile agk_test_hook)(int) = twice;

// Each block reverses its slice of data through shared memory, doubling every value.
AG_KERNEL(indirect_call, (AG_GLOBAL int* data)) {
  __shared__ int values[1024];
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  values[t] = agk_test_hook(data[base + t]);
  __syncthreads();
  data[base + t] = values[blockDim.x - 1 - t];
}

// Not rejected: threads past n return before the barrier the others wait at (CUDA allows it
// since Volta). The pass's loops skip them after that; the fiber path lets them finish.
AG_KERNEL(early_return, (int n, AG_GLOBAL int* data)) {
  __shared__ int values[1024];
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  if (base + t >= (unsigned)n) return;
  values[t] = data[base + t];
  __syncthreads();
  unsigned count = (unsigned)n - base < blockDim.x ? (unsigned)n - base : blockDim.x;
  data[base + t] = values[count - 1 - t];
}
