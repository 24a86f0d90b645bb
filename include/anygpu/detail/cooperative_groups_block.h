/* cooperative_groups_block.h — CUDA's cooperative groups at the block and grid level, on every
 * target: this_thread_block() and its sync, thread_rank, size and indices; this_grid() and its
 * ranks and indices; cg::sync, cg::thread_rank, cg::group_size. What anygpu cannot do yet is a
 * build error that names it: grid_group::sync (it needs a cooperative launch). The warp-level
 * groups are in cooperative_groups_tile.h. Included by anygpu/cuda.h; <cooperative_groups.h> in
 * a kernel build resolves to it. */
#ifndef ANYGPU_DETAIL_COOPERATIVE_GROUPS_BLOCK_H
#define ANYGPU_DETAIL_COOPERATIVE_GROUPS_BLOCK_H

#if !defined(AGK_OPENCL)

#if defined(AGK_TARGET_GPU)
#define AGCG_FUNCTION inline __attribute__((device))
#define AGCG_HOST_ONLY_BEGIN
#define AGCG_HOST_ONLY_END
#else
#define AGCG_FUNCTION inline
/* On the host every source file has its own thread context (kernel_host.h), so the groups'
 * functions, which read it, must not be merged across files: internal linkage. */
#define AGCG_HOST_ONLY_BEGIN namespace {
#define AGCG_HOST_ONLY_END }
#endif

namespace cooperative_groups {
AGCG_HOST_ONLY_BEGIN

/* false, once a template is instantiated: a static_assert that fires only where a call is made. */
template <typename>
struct agcg_never {
  static constexpr bool value = false;
};

/* The threads of one block. */
class thread_block {
 public:
  AGCG_FUNCTION void sync() const { __syncthreads(); }
  AGCG_FUNCTION unsigned int thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  AGCG_FUNCTION unsigned int size() const { return blockDim.x * blockDim.y * blockDim.z; }
  AGCG_FUNCTION unsigned int num_threads() const { return size(); }
  AGCG_FUNCTION dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  AGCG_FUNCTION dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  AGCG_FUNCTION dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  AGCG_FUNCTION dim3 group_dim() const { return dim_threads(); }
  AGCG_FUNCTION bool is_valid() const { return true; }
};

AGCG_FUNCTION thread_block this_thread_block() {
  return thread_block();
}

/* Every thread of the launch. */
class grid_group {
 public:
  AGCG_FUNCTION unsigned long long block_rank() const {
    return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  }
  AGCG_FUNCTION unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  AGCG_FUNCTION unsigned long long thread_rank() const {
    return block_rank() * thread_block().size() + thread_block().thread_rank();
  }
  AGCG_FUNCTION unsigned long long size() const { return num_blocks() * thread_block().size(); }
  AGCG_FUNCTION unsigned long long num_threads() const { return size(); }
  AGCG_FUNCTION dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  AGCG_FUNCTION dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  AGCG_FUNCTION dim3 group_dim() const { return dim_blocks(); }
  /* As CUDA's outside a cooperative launch: anygpu has none yet. */
  AGCG_FUNCTION bool is_valid() const { return false; }
  template <typename Unused = void>
  AGCG_FUNCTION void sync() const {
    static_assert(agcg_never<Unused>::value,
                  "cooperative_groups::grid_group::sync() needs a cooperative launch "
                  "(cudaLaunchCooperativeKernel), which anygpu does not offer yet: end the kernel "
                  "there and launch a second one");
  }
};

AGCG_FUNCTION grid_group this_grid() {
  return grid_group();
}

template <typename Group>
AGCG_FUNCTION void sync(const Group& group) {
  group.sync();
}
template <typename Group>
AGCG_FUNCTION auto thread_rank(const Group& group) -> decltype(group.thread_rank()) {
  return group.thread_rank();
}
template <typename Group>
AGCG_FUNCTION auto group_size(const Group& group) -> decltype(group.size()) {
  return group.size();
}

AGCG_HOST_ONLY_END
}  // namespace cooperative_groups

#endif /* !AGK_OPENCL */

#endif /* ANYGPU_DETAIL_COOPERATIVE_GROUPS_BLOCK_H */
