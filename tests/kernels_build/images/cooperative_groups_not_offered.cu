// What anygpu's cooperative groups do not offer yet: each use must be a build error that names it
// (check_cooperative_groups_errors.sh).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void grid_wide(int* data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] = 1;
  grid.sync();
}

__global__ void tiles_wider_than_a_warp(int* data) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<128>(block);
  (void)tile;
  data[block.thread_rank()] = 2;
}
