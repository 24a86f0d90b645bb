// C (m x n) = A (m x k) * B (k x n), row-major, 16 x 16 tiles in shared memory.
// Launch with 16 x 16 blocks and a grid of ceil(n / 16) x ceil(m / 16).
#include <anygpu/kernel.h>

#define TILE 16

AG_KERNEL(sgemm_tiled, (int m, int n, int k, const AG_GLOBAL float* a, const AG_GLOBAL float* b,
                        AG_GLOBAL float* c)) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    int a_col = t + threadIdx.x, b_row = t + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
    b_tile[threadIdx.y][threadIdx.x] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) sum += a_tile[threadIdx.y][i] * b_tile[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}
