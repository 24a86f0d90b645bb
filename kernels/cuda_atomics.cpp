// CUDA's atomic functions on every target (tests/conformance/atomics_test.cpp checks them).
//
// cuda_atomics_every_form: thread 0 runs every overload in every form (name, name_block,
// name_system) once, in the order of cuda_atomics.h, on `slots`, and writes each old value to
// `olds`; the host runs the same list on plain memory and compares.
//
// cuda_atomics_contended: every thread of a 1-D launch of n threads hits the same global counters
// (device and system forms, alternating by thread) and its block's shared counters (block forms).
// From the starting values the test sets, it leaves (ull/ll: CUDA's 64-bit types):
//   uints: [0] n, [1] -n, [2] 5, [3] n - 1, [4] n % 10 (atomicInc, limit 9), [5] atomicDec's
//          (limit 6) n-th value, [6] 0, [7] ~0, [8] xor of i * 40503, [9] some i;
//   ints:  [0] -3n, [1] 1 - n, [2] n - 1, [3] INT_MIN, [4] INT_MAX, [5] xor of i * 2654435761,
//          [6] some i + 1, [7] n (compare-and-swap increments);
//   ulls:  [0] n, [1] n << 32, [2] 1, [3] (n - 1) << 33, [4] 0, [5] ~0, [6] xor of i << 40 | i,
//          [7] some i << 32, [8] n (compare-and-swap increments);
//   lls:   [0] -((n - 1) << 40), [1] n - 1001, [2] xor of i << 44;
//   floats: [0] n / 2, [1] some i; doubles: [0] n / 4; shorts (one 32-bit word): [0] n, [1] 3n;
//   returned[4i .. 4i+3]: thread i's old values of uints[0] and ints[7] (each a permutation of
//          0..n-1), uints[4] (atomicInc's sequence) and ints[6] (an exchange chain);
//   blocks[8b ..]: block b's shared counters: threads, atomicInc (limit 4) final, compare-and-swap
//          winners, -min, max, the low and high words of an or of 1 << (tid % 64), the float sum.
#include <anygpu/kernel.h>

#include "cuda_atomics.h"

AG_KERNEL(cuda_atomics_every_form,
          (AG_GLOBAL ag_atomic_slots * slots, AG_GLOBAL ag_test_ull* olds)) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  ag_atomic_slots* s = slots;
  unsigned k = 0;
#define AG_RECORD(expression) olds[k++] = ag_atomic_bits(expression);
  AG_ATOMIC_STEPS(AG_RECORD, s)
#undef AG_RECORD
}

AG_KERNEL(cuda_atomics_contended,
          (AG_GLOBAL int* ints, AG_GLOBAL unsigned* uints, AG_GLOBAL ag_test_ull* ulls,
           AG_GLOBAL ag_test_ll* lls, AG_GLOBAL float* floats, AG_GLOBAL double* doubles,
           AG_GLOBAL unsigned short* shorts, AG_GLOBAL unsigned* returned,
           AG_GLOBAL unsigned* blocks)) {
  __shared__ unsigned block_count, block_wrap, block_cas, block_winners;
  __shared__ int block_min, block_max;
  __shared__ ag_test_ull block_bits;
  __shared__ float block_sum;
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  const bool system = (i & 1u) != 0;
#define AG_SCOPED(f, ...) (system ? f##_system(__VA_ARGS__) : f(__VA_ARGS__))
  if (tid == 0) {
    block_count = block_wrap = block_cas = block_winners = 0;
    block_min = block_max = 0;
    block_bits = 0;
    block_sum = 0.0f;
  }
  __syncthreads();
  atomicAdd_block(&block_count, 1);
  atomicInc_block(&block_wrap, 4);
  if (atomicCAS_block(&block_cas, 0u, tid + 1) == 0u) atomicAdd_block(&block_winners, 1);
  atomicMin_block(&block_min, -(int)tid);
  atomicMax_block(&block_max, (int)tid);
  atomicOr_block(&block_bits, (ag_test_ull)1 << (tid % 64));
  atomicAdd_block(&block_sum, 1.0f);

  returned[4 * i] = AG_SCOPED(atomicAdd, &uints[0], 1);
  AG_SCOPED(atomicSub, &uints[1], 1);
  AG_SCOPED(atomicMin, &uints[2], i + 5);
  AG_SCOPED(atomicMax, &uints[3], i);
  returned[4 * i + 2] = AG_SCOPED(atomicInc, &uints[4], 9);
  AG_SCOPED(atomicDec, &uints[5], 6);
  AG_SCOPED(atomicAnd, &uints[6], ~(1u << (i % 32)));
  AG_SCOPED(atomicOr, &uints[7], 1u << (i % 32));
  AG_SCOPED(atomicXor, &uints[8], i * 40503u);
  AG_SCOPED(atomicExch, &uints[9], i);

  AG_SCOPED(atomicSub, &ints[0], 3);
  AG_SCOPED(atomicMin, &ints[1], -(int)i);
  AG_SCOPED(atomicMax, &ints[2], (int)i);
  AG_SCOPED(atomicAnd, &ints[3], ~(1 << (i % 31)));
  AG_SCOPED(atomicOr, &ints[4], 1 << (i % 31));
  AG_SCOPED(atomicXor, &ints[5], (int)(i * 2654435761u));
  returned[4 * i + 3] = (unsigned)AG_SCOPED(atomicExch, &ints[6], (int)i + 1);
  int expected = 0;  // a ticket: compare-and-swap until this thread's increment lands
  for (int seen; (seen = AG_SCOPED(atomicCAS, &ints[7], expected, expected + 1)) != expected;)
    expected = seen;
  returned[4 * i + 1] = (unsigned)expected;

  AG_SCOPED(atomicAdd, &ulls[0], 1);
  AG_SCOPED(atomicAdd, &ulls[1], (ag_test_ull)1 << 32);
  AG_SCOPED(atomicMin, &ulls[2], ((ag_test_ull)i << 33) + 1);
  AG_SCOPED(atomicMax, &ulls[3], (ag_test_ull)i << 33);
  AG_SCOPED(atomicAnd, &ulls[4], ~((ag_test_ull)1 << (i % 64)));
  AG_SCOPED(atomicOr, &ulls[5], (ag_test_ull)1 << (i % 64));
  AG_SCOPED(atomicXor, &ulls[6], (ag_test_ull)i << 40 | i);
  AG_SCOPED(atomicExch, &ulls[7], (ag_test_ull)i << 32);
  ag_test_ull wide_expected = 0;
  for (ag_test_ull seen;
       (seen = AG_SCOPED(atomicCAS, &ulls[8], wide_expected, wide_expected + 1)) != wide_expected;)
    wide_expected = seen;

  AG_SCOPED(atomicMin, &lls[0], -((ag_test_ll)i << 40));
  AG_SCOPED(atomicMax, &lls[1], (ag_test_ll)i - 1000);
  AG_SCOPED(atomicXor, &lls[2], (ag_test_ll)i << 44);

  AG_SCOPED(atomicAdd, &floats[0], 0.5f);
  AG_SCOPED(atomicExch, &floats[1], (float)i);
  AG_SCOPED(atomicAdd, &doubles[0], 0.25);

  // Two 16-bit counters in one 32-bit word: neither may clobber the other.
  for (unsigned short e = 0, seen;
       (seen = AG_SCOPED(atomicCAS, &shorts[0], e, (unsigned short)(e + 1))) != e;)
    e = seen;
  for (unsigned short e = 0, seen;
       (seen = AG_SCOPED(atomicCAS, &shorts[1], e, (unsigned short)(e + 3))) != e;)
    e = seen;
#undef AG_SCOPED

  __syncthreads();
  if (tid == 0) {
    AG_GLOBAL unsigned* out = blocks + 8 * blockIdx.x;
    out[0] = block_count;
    out[1] = block_wrap;
    out[2] = block_winners;
    out[3] = (unsigned)-block_min;
    out[4] = (unsigned)block_max;
    out[5] = (unsigned)block_bits;
    out[6] = (unsigned)(block_bits >> 32);
    out[7] = (unsigned)block_sum;
  }
}
