// Writes each element's own 3-D coordinates, x + 1000 * y + 1000000 * z, computed from a 3-D grid
// of 3-D blocks; elements outside nx * ny * nz are left alone.
#include <anygpu/kernel.h>

AG_KERNEL(index3d, (int nx, int ny, int nz, AG_GLOBAL int* out)) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x + 1000 * y + 1000000 * z;
}
