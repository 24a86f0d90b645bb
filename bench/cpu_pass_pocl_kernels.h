// The bench's kernels in OpenCL C, line for line the anygpu kernels of kernels/ (same block
// shapes, same shared-memory use), for PoCL.
#pragma once

namespace cpu_pass_bench {

inline const char* const kOpenclSource = R"CLC(
__kernel void saxpy(int n, float a, __global const float* x, __global float* y) {
  int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

__kernel void block_reduce(int n, __global const float* in, __global float* out) {
  __local float partial[1024];
  unsigned tid = get_local_id(0);
  unsigned i = get_group_id(0) * get_local_size(0) + tid;
  partial[tid] = (i < (unsigned)n) ? in[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (unsigned stride = 1; stride < get_local_size(0); stride *= 2) {
    if (tid % (2 * stride) == 0 && tid + stride < get_local_size(0))
      partial[tid] += partial[tid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) out[get_group_id(0)] = partial[0];
}

#define TILE 16
__kernel void sgemm_tiled(int m, int n, int k, __global const float* a, __global const float* b,
                          __global float* c) {
  __local float a_tile[TILE][TILE];
  __local float b_tile[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TILE + ty;
  int col = get_group_id(0) * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    int a_col = t + tx, b_row = t + ty;
    a_tile[ty][tx] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < TILE; ++i) sum += a_tile[ty][i] * b_tile[i][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

#define TTILE 32
__kernel void transpose_shared(int rows, int cols, __global const float* in, __global float* out) {
  __local float tile[TTILE][TTILE + 1];
  const unsigned tx = get_local_id(0), ty = get_local_id(1), step = get_local_size(1);
  const int x = get_group_id(0) * TTILE + tx, y = get_group_id(1) * TTILE;
  for (unsigned j = ty; j < TTILE; j += step) {
    const bool inside = x < cols && y + (int)j < rows;
    tile[j][tx] = inside ? in[(y + (int)j) * cols + x] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int out_x = get_group_id(1) * TTILE + tx, out_y = get_group_id(0) * TTILE;
  for (unsigned j = ty; j < TTILE; j += step)
    if (out_x < rows && out_y + (int)j < cols) out[(out_y + (int)j) * rows + out_x] = tile[tx][j];
}

__kernel void smooth_steps(int n, __global const int* steps, __global float* data) {
  __local float values[1024];
  unsigned tid = get_local_id(0), i = get_group_id(0) * get_local_size(0) + tid;
  values[tid] = i < (unsigned)n ? data[i] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int count = steps[get_group_id(0)];
  for (int s = 0; s < count; ++s) {
    float left = tid > 0 ? values[tid - 1] : values[tid];
    float right = tid + 1 < get_local_size(0) ? values[tid + 1] : values[tid];
    float mine = (left + values[tid] + right) * (1.0f / 3.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    values[tid] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i < (unsigned)n) data[i] = values[tid];
}

__kernel void empty(void) {}
)CLC";

}  // namespace cpu_pass_bench
