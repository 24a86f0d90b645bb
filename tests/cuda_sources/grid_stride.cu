// Grid-stride loops as CUDA programmers write them, in the shapes the CPU device's barrier pass
// must keep right when it runs each iteration for all the block's threads in turn
// (docs/cpu-barrier-pass.md, "Grid-stride loops"): threads that take different numbers of steps,
// a barrier after the loop, the index used after the loop and after a barrier, threads that
// return first, a break, a stride from a parameter, two loops in one kernel, a 2-D walk and a
// walk through an index (the pass prefetches a few steps ahead what it can, never what it cannot).
#include <cuda_runtime.h>

// y = a * x + i % 3 for any n and any grid: the index itself in the arithmetic.
__global__ void stride_axpy(float* y, const float* x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + (float)(i % 3);
}

// Each block's sum of its strided share, two elements a step (the second one guarded), then a
// tree in shared memory whose stride starts right after the loop, before its first barrier.
__global__ void stride_block_sum(const float* in, float* out, unsigned n) {
  extern __shared__ float partial[];
  unsigned tid = threadIdx.x;
  float sum = 0;
  for (unsigned i = blockIdx.x * blockDim.x * 2 + tid; i < n; i += blockDim.x * 2 * gridDim.x) {
    sum += in[i];
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
  }
  partial[tid] = sum;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    __syncthreads();
    if (tid < s) partial[tid] += partial[tid + s];
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

// Some threads return before the loop while the others go on to a barrier after it.
__global__ void stride_some_return(const int* in, int* counts, int n) {
  __shared__ int odd;
  if (threadIdx.x == 0) odd = 0;
  __syncthreads();
  if (threadIdx.x % 5 == 3) return;
  int mine = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    mine += in[i] & 1;
  atomicAdd(&odd, mine);
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = odd;
}

// A break: where each thread stopped and how many steps it took before.
__global__ void stride_until(const float* in, int* stopped, int* steps, int n, float limit) {
  int id = blockIdx.x * blockDim.x + threadIdx.x, count = 0, i = id;
  for (; i < n; i += blockDim.x * gridDim.x) {
    if (in[i] > limit) break;
    ++count;
  }
  stopped[id] = i;
  steps[id] = count;
}

// The index and a sum kept across a barrier after the loop.
__global__ void stride_end_after_barrier(const float* in, int* out, int n) {
  __shared__ int blocks_done;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  if (threadIdx.x == 0) blocks_done = (int)blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = i + (int)sum + blocks_done;
}

// Two loops with a stride from a parameter, a barrier and a shared exchange between them.
__global__ void stride_two_phases(const int* in, int* out, int n, int step) {
  __shared__ int totals[1024];
  int tid = threadIdx.x, total = 0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += step) total += in[i];
  totals[tid] = total;
  __syncthreads();
  int other = totals[blockDim.x - 1 - tid];
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += step) out[i] = in[i] * 2 + other;
}

// A 2-D walk over a matrix: rows by the grid's height, columns by its width.
__global__ void stride_2d(float* m, int rows, int cols) {
  for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += blockDim.y * gridDim.y)
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += blockDim.x * gridDim.x)
      m[r * cols + c] = m[r * cols + c] * 0.5f + (float)(r - c);
}

// A do-while walk whose end is used after a barrier, in a second grid-stride loop.
__global__ void stride_do_while_end(int* out, int n) {
  int stride = blockDim.x * gridDim.x, id = blockIdx.x * blockDim.x + threadIdx.x;
  int i = id;
  do {
    i += stride;
  } while (i < n);
  __syncthreads();
  for (int j = id; j < n; j += stride) out[j] = i + j;
}

// The same walk in an enclosing loop, its end used after the barrier each round.
__global__ void stride_walks(int* out, int n, int rounds) {
  int stride = blockDim.x * gridDim.x, id = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < rounds; ++k) {
    int i = id + k;
    do {
      i += stride;
    } while (i < n);
    __syncthreads();
    out[id * rounds + k] = i;
  }
}

// A grid-stride loop entered again with no barrier between (only the last round has one).
__global__ void stride_reentered(int* out, int n, int rounds) {
  int stride = blockDim.x * gridDim.x, id = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < rounds; ++k) {
    for (int j = id; j < n; j += stride) out[j] += j + 1 + k;
    if (k == rounds - 1) __syncthreads();
  }
}

// A walk through an index, reading what it points at and writing in place: the index and the
// output are read and written at the step's own position, the values wherever the index says.
__global__ void stride_gather(float* out, const float* values, const int* index, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = out[i] * 0.5f + values[index[i]];
}
