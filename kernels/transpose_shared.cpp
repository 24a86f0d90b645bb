// out (cols x rows) = the transpose of in (rows x cols, row-major), through a 32 x 33 tile of
// static shared memory (the extra column keeps a GPU's shared-memory banks apart).
// Launch with 32 x R blocks, R dividing 32, and a grid of ceil(cols / 32) x ceil(rows / 32).
#include <anygpu/kernel.h>

#define TILE 32

AG_KERNEL(transpose_shared, (int rows, int cols, const AG_GLOBAL float* in, AG_GLOBAL float* out)) {
  __shared__ float tile[TILE][TILE + 1];
  const unsigned tx = threadIdx.x, ty = threadIdx.y, step = blockDim.y;
  const int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE;
  for (unsigned j = ty; j < TILE; j += step) {
    const bool inside = x < cols && y + (int)j < rows;
    tile[j][tx] = inside ? in[(y + (int)j) * cols + x] : 0.0f;
  }
  __syncthreads();
  const int out_x = blockIdx.y * TILE + tx, out_y = blockIdx.x * TILE;
  for (unsigned j = ty; j < TILE; j += step)
    if (out_x < rows && out_y + (int)j < cols) out[(out_y + (int)j) * rows + out_x] = tile[tx][j];
}
