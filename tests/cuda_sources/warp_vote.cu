// CUDA's warp functions one by one, and two patterns built on them. A warp is 32 consecutive
// threads of the block in linear order (x fastest, then y, then z), so in a 16 x 4 block each warp
// spans two rows. tests/conformance/cuda_warp_test.cpp computes every word on the host.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define VOTE_WORDS 15
#define TILE_WORDS 13

// VOTE_WORDS words per thread at its rank in the grid, and one double. Blocks of at most 1024
// threads in any shape on a 1-D grid; the last warp of a block may be partial.
__global__ void warp_vote(const int* in, unsigned int* out, double* shuffled) {
  __shared__ int staged[1024];
  int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int lane = tid % warpSize;
  int id = blockIdx.x * (blockDim.x * blockDim.y * blockDim.z) + tid;
  int v = in[id];
  unsigned int* mine = out + id * VOTE_WORDS;

  mine[0] = warpSize;
  mine[1] = __activemask();
  unsigned int positive = __ballot_sync(0xffffffff, v > 0);
  mine[2] = positive;
  mine[3] = __any_sync(0xffffffff, v == 0);
  mine[4] = __all_sync(0xffffffff, v > 0);
  mine[5] = __popc(positive) + 100 * __ffs(positive);

  // Butterfly: after the exchanges at distances 16, 8, 4, 2, 1 every lane holds the warp's sum.
  int sum = v;
  for (int laneMask = warpSize / 2; laneMask > 0; laneMask /= 2) {
    sum += __shfl_xor_sync(0xffffffff, sum, laneMask);
  }
  mine[6] = sum;

  // Width 16: each half of the warp reads its own lane 3.
  mine[7] = __shfl_sync(0xffffffff, v, 3, 16);

  // The warp's maximum as a float butterfly; quarters stay exact.
  float quarter = v * 0.25f;
  for (int laneMask = 16; laneMask > 0; laneMask /= 2) {
    quarter = fmaxf(quarter, __shfl_xor_sync(0xffffffff, quarter, laneMask));
  }
  mine[8] = (int)(quarter * 4.0f);

  // __syncwarp orders the warp's shared-memory writes before its reads: the mirror lane's value.
  staged[tid] = v;
  __syncwarp();
  mine[9] = staged[tid - lane + (warpSize - 1 - lane)];

  // Divergent halves, each voting among its own lanes only.
  if (lane % 2 == 0) {
    mine[10] = __ballot_sync(0x55555555, v > 0);
  } else {
    mine[10] = __any_sync(0xaaaaaaaa, v < 0);
  }

  // 64-bit values move whole: the previous lane's (id, value), and the neighbour's product.
  unsigned long long tagged = ((unsigned long long)id << 32) | (unsigned int)v;
  tagged = __shfl_up_sync(0xffffffff, tagged, 1);
  mine[11] = (unsigned int)tagged;
  mine[12] = (unsigned int)(tagged >> 32);
  long long wide = (long long)v * 1000000007LL;
  wide = __shfl_xor_sync(0xffffffff, wide, 1);
  mine[13] = (unsigned int)wide;
  mine[14] = (unsigned int)(wide >> 32);

  // A double that needs more than a float's bits, from five lanes down.
  double d = v + id / 1048576.0;
  shuffled[id] = __shfl_down_sync(0xffffffff, d, 5);
}

// The same through cooperative groups: tiles of 32 and of 16 threads of a block of whole warps,
// in any shape, on a 1-D grid. TILE_WORDS words per thread at its rank in the grid.
__global__ void tile_partitions(const int* in, unsigned int* out) {
  __shared__ int staged[1024];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
  unsigned int tid = block.thread_rank();
  unsigned int id = blockIdx.x * block.size() + tid;
  int v = in[id];
  unsigned int* mine = out + id * TILE_WORDS;

  mine[0] = half.thread_rank() + 100 * half.meta_group_rank() + 10000 * half.meta_group_size();
  mine[1] = warp.thread_rank() + 100 * warp.meta_group_rank() + 10000 * warp.meta_group_size();
  mine[2] = half.size() + 100 * half.num_threads() + 10000 * warp.size();
  mine[3] = half.shfl(v, 5);
  mine[4] = half.shfl_down(v, 3);
  mine[5] = half.shfl_up(v, 2);
  mine[6] = half.shfl_xor(v, 9);
  mine[7] = half.ballot(v > 0);  // bit i: the thread of rank i in this tile
  mine[8] = (half.any(v == 0) ? 1 : 0) + (half.all(v > 0) ? 2 : 0) + (warp.any(v < 0) ? 4 : 0);
  mine[9] = cg::reduce(half, v, cg::plus<int>());
  mine[10] = cg::reduce(warp, v, cg::less<int>()) + 1000 * cg::reduce(warp, v, cg::greater<int>());
  mine[11] = (int)(2.0f * cg::reduce(warp, v * 0.5f, cg::plus<float>()));

  // half.sync() orders the tile's shared-memory writes before its reads: the mirror rank's value.
  staged[tid] = v;
  half.sync();
  mine[12] = staged[tid ^ 15];
}

// Warp-aggregated atomics with __match_any_sync: the lanes whose keys fall in the same bin elect
// the lowest of them, which adds the group's count with one atomicAdd and shares the old count;
// each lane's slot in its bin is that plus the number of its peers below it. 1-D blocks of whole
// warps; the lanes past n take a bin that does not exist, so that the whole warp matches.
__global__ void histogram_match_any(const unsigned int* keys, unsigned int* histogram,
                                    unsigned int* slots, int n, int bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  unsigned int bin = (i < n) ? keys[i] % bins : bins;

  unsigned int peers = __match_any_sync(0xffffffff, bin);
  int leader = __ffs(peers) - 1;
  unsigned int first = 0;
  if (lane == leader && bin < bins) first = atomicAdd(&histogram[bin], __popc(peers));
  first = __shfl_sync(0xffffffff, first, leader);

  if (i < n) slots[i] = first + __popc(peers & ((1u << lane) - 1));
}
