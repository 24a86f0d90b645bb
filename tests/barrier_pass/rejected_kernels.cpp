// Kernels at the edge of what the barrier pass handles: one it cannot rewrite, which keeps the
// fiber path while the build says why (tests/barrier_pass/CMakeLists.txt checks the messages),
// one whose threads leave at different points, one with warp functions and one of pre-Volta
// lockstep code the build warns of; rejected_test.cpp checks their results.
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

// Warp functions, which split the loops as barriers do. Each warp's lanes add up their values with
// a butterfly of shuffles; every lane writes its warp's sum.
AG_KERNEL(warp_sums, (AG_GLOBAL int* data)) {
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  int sum = data[base + t];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffff, sum, offset);
  __syncthreads();
  data[base + t] = sum;
}

// Pre-Volta warp-synchronous code: a volatile shared-memory tail with no __syncwarp(), which
// trusts a warp's lanes to run in lockstep. The build warns (tests/barrier_pass/CMakeLists.txt).
AG_KERNEL(lockstep_tail, (AG_GLOBAL int* data)) {
  __shared__ int sums[64];
  unsigned t = threadIdx.x;
  sums[t] = data[t] + data[t + 32];
  volatile int* tail = sums;
  if (t < 16) tail[t] += tail[t + 16];
  if (t < 8) tail[t] += tail[t + 8];
  if (t == 0) data[0] = tail[0];
}

// Lanes past `n` return before a warp vote: they take no part in it, in the loops as on fibers.
AG_KERNEL(ballot_after_return, (int n, AG_GLOBAL unsigned long long* votes)) {
  unsigned t = threadIdx.x;
  if ((int)t >= n) return;
  votes[t] = __ballot_sync(~0ull, t % 3 == 0);
}

// The upper half of warp 1 shuffles among itself first; then every lane reads lane 31 of its warp.
// The loops must not run the second shuffle for warp 1 before its upper half gave its value.
AG_KERNEL(shuffles_apart, (AG_GLOBAL int* out)) {
  unsigned t = threadIdx.x;
  int v = (int)t;
  if (t >= 48) v += __shfl_xor_sync(0xffff0000ull, v, 1);
  out[t] = __shfl_sync(0xffffffffull, v, 31);
}

// Odd and even lanes vote apart in every step of a loop all threads run `n` times: the groups run
// the steps at different times, so the loop counter cannot be one value for the block.
AG_KERNEL(votes_apart_in_a_loop, (int n, AG_GLOBAL int* out)) {
  unsigned t = threadIdx.x, lane = t % warpSize;
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (lane & 1)
      count += __popcll(__ballot_sync(0xaaaaaaaaull, (t + i) % 3 == 0));
    else
      count += __popcll(__ballot_sync(0x55555555ull, (t + i) % 3 == 0));
  }
  out[t] = count;
}

// Levels guarded by `threadIdx.x < limit`, which the pass ends at the limit instead of masking
// every thread (guarded_loops.cpp): a limit past the block, one inside it, and a negative one,
// which no thread passes. Each thread adds its index to data[t] at each level it passes.
AG_KERNEL(guarded_levels, (int low, int mid, AG_GLOBAL int* data)) {
  int t = (int)threadIdx.x, base = (int)(blockIdx.x * blockDim.x);
  if (t < mid) data[base + t] += t;
  __syncthreads();
  if (t < low) data[base + t] += 1000;
  __syncthreads();
  if (t < (int)blockDim.x + 5) data[base + t] += 1;
}

// A grid-stride loop: each thread adds up every value of its stride.
AG_KERNEL(strided_sums, (int n, AG_GLOBAL const int* values, AG_GLOBAL int* sums)) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = 0;
  for (unsigned i = id; i < (unsigned)n; i += blockDim.x * gridDim.x) sum += values[i];
  sums[id] = sum;
}

// A grid-stride loop followed by a warp reduction: the loop still runs a step at a time for all
// threads, and each lane ends with its warp's total.
AG_KERNEL(strided_warp_sums, (int n, AG_GLOBAL const int* values, AG_GLOBAL int* sums)) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = 0;
  for (unsigned i = id; i < (unsigned)n; i += blockDim.x * gridDim.x) sum += values[i];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_xor_sync(0xffffffff, sum, offset);
  sums[id] = sum;
}

// A thread per row summing its floats in order (the build lets the vectorizer widen such loops
// only with the additions kept in order: -force-ordered-reductions), then a block barrier.
AG_KERNEL(ordered_row_sums, (int columns, AG_GLOBAL const float* values, AG_GLOBAL float* sums)) {
  const float* row = values + (blockIdx.x * blockDim.x + threadIdx.x) * columns;
  float sum = 0.0f;
  for (int j = 0; j < columns; ++j) sum += row[j] * 0.5f;
  __syncthreads();
  sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A grid-stride walk through an index: the pass prefetches the index and the output a few passes
// ahead (their addresses follow from the pass count), not the values (known once the index is
// read).
AG_KERNEL(strided_gather,
          (int n, AG_GLOBAL const int* index, AG_GLOBAL const int* values, AG_GLOBAL int* out)) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n;
       i += blockDim.x * gridDim.x)
    out[i] = values[index[i]] + 1;
}

// Each thread stages its value in the launch's dynamic shared memory and writes its mirror's:
// both thread loops vectorise once the test for the array's initialisation function, which C++
// makes at every access to an extern thread_local, is gone (extern_shared.cpp).
extern __shared__ float staged[];  // at file scope: AG_KERNEL bodies have internal linkage
AG_KERNEL(staged_mirror, (AG_GLOBAL const float* in, AG_GLOBAL float* out)) {
  const unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  staged[t] = in[base + t] * 3.0f;
  __syncthreads();
  out[base + t] = staged[blockDim.x - 1 - t];
}

// Each warp rotates an int, a 64-bit integer and a double by one lane: the int's exchange passes
// 32-bit values (narrow_exchanges.cpp), the others keep all 64 bits.
AG_KERNEL(rotated_widths,
          (AG_GLOBAL int* narrow, AG_GLOBAL long long* wide, AG_GLOBAL double* real)) {
  const unsigned id = blockIdx.x * blockDim.x + threadIdx.x, from = (threadIdx.x + 1) % warpSize;
  narrow[id] = __shfl_sync(0xffffffff, narrow[id], from);
  wide[id] = __shfl_sync(0xffffffff, wide[id], from);
  real[id] = __shfl_sync(0xffffffff, real[id], from);
}
