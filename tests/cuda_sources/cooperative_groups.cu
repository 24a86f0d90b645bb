// Cooperative groups at the block and grid level, as CUDA code spells them: each thread writes
// what its block and the grid say about it, and reads a neighbour's rank after cg::sync.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Eight words per thread, at the thread's rank in the grid. Blocks of at most 1024 threads.
__global__ void group_ranks(unsigned int* out) {
  __shared__ unsigned int ranks[1024];
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  const unsigned int rank = block.thread_rank();
  ranks[rank] = rank;
  cg::sync(block);
  unsigned int* mine = out + grid.thread_rank() * 8;
  mine[0] = rank;
  mine[1] = block.size();
  const dim3 group = block.group_index();
  mine[2] = group.x + 100 * group.y + 10000 * group.z;
  const dim3 index = block.thread_index();
  const dim3 threads = block.dim_threads();
  mine[3] = index.x + 100 * index.y + 10000 * index.z + 1000000 * (threads.x * threads.y * threads.z);
  mine[4] = static_cast<unsigned int>(grid.block_rank());
  mine[5] = static_cast<unsigned int>(grid.num_blocks());
  mine[6] = static_cast<unsigned int>(grid.size());
  block.sync();
  // The thread whose rank mirrors this one wrote it before the sync.
  mine[7] = ranks[block.size() - 1 - rank] + 1000 * (cg::thread_rank(block) == rank) +
            2000 * (cg::group_size(grid) == grid.num_threads()) + 4000 * block.is_valid() +
            8000 * grid.is_valid();
}
