// Kernels that fault on purpose, for the CPU device's fault handling. Each faults only in block
// `fault_block`, with the bad pointer or divisor passed in, so the compiler cannot see it coming.
#include <anygpu/kernel.h>

// The faults must reach the processor: UndefinedBehaviorSanitizer (the asan preset, built with
// -fno-sanitize-recover) would stop the NULL store and the division first. Kept out of line so the
// faulting instruction is still in this host code object.
#define AGT_UNCHECKED __attribute__((noinline, no_sanitize("undefined")))
AGT_UNCHECKED static void store_one(int* target) {
  *target = 1;
}
AGT_UNCHECKED static int quotient(int numerator, int divisor) {
  return numerator / divisor;
}

// Stores 1 at base[offset]: NULL, or an address past a mapped buffer, makes a segmentation fault.
AG_KERNEL(store_at, (AG_GLOBAL int* base, long long offset, int fault_block)) {
  if ((int)blockIdx.x == fault_block && threadIdx.x == 0) store_one(base + offset);
}

// out[block] = numerator / divisor in `fault_block`, numerator / 1 elsewhere.
AG_KERNEL(divide, (AG_GLOBAL int* out, int numerator, int divisor, int fault_block)) {
  const int d = (int)blockIdx.x == fault_block ? divisor : 1;
  if (threadIdx.x == 0) out[blockIdx.x] = quotient(numerator, d);
}

// Fills `count` ints of dynamic shared memory and writes their sum to out[block]: past what the
// launch gave when count * 4 exceeds its shared_memory_bytes.
AG_KERNEL(fill_dynamic_shared, (AG_GLOBAL int* out, int count)) {
  AG_DYNAMIC_SHARED(int, buffer);
  if (threadIdx.x != 0) return;
  for (int i = 0; i < count; ++i) buffer[i] = i;
  int sum = 0;
  for (int i = 0; i < count; ++i) sum += buffer[i];
  out[blockIdx.x] = sum;
}

// A barrier first (so the block runs on fibers with ANYGPU_CPU_WORKITEM_LOOPS=0), then thread
// `fault_thread` of `fault_block` stores through `target`.
AG_KERNEL(store_after_barrier,
          (AG_GLOBAL int* target, int fault_block, int fault_thread, AG_GLOBAL int* out)) {
  __syncthreads();
  if ((int)blockIdx.x == fault_block && (int)threadIdx.x == fault_thread) store_one(target);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// Spins until *flag is set: runs until the watchdog stops it when nobody sets it.
AG_KERNEL(spin_until_set, (AG_GLOBAL int* flag)) {
  while (__atomic_load_n(flag, __ATOMIC_RELAXED) == 0) {
  }
}
