/* cooperative_groups_tile.h — CUDA's warp-level cooperative groups, on every target, built on the
 * warp functions (warp_functions.h): tiled_partition<N> and thread_block_tile<N> (N a power of
 * two up to the warp), tiled_partition(parent, n), coalesced_threads(), and cg::reduce with
 * cg::plus, less, greater, bit_and, bit_or and bit_xor (<cooperative_groups/reduce.h>).
 * A tile is whole lanes of one warp: lanes [k * N, (k + 1) * N) of it. Included by anygpu/cuda.h
 * after cooperative_groups_block.h. */
#ifndef ANYGPU_DETAIL_COOPERATIVE_GROUPS_TILE_H
#define ANYGPU_DETAIL_COOPERATIVE_GROUPS_TILE_H

#if !defined(AGK_OPENCL)

namespace cooperative_groups {
AGCG_HOST_ONLY_BEGIN

/* The lanes [first, first + count) of the calling thread's warp, as a mask. */
AGCG_FUNCTION agk_lanes agcg_lane_range(unsigned first, unsigned count) {
  const agk_lanes ones = count >= 64 ? ~(agk_lanes)0 : (((agk_lanes)1 << count) - 1);
  return ones << first;
}

/* A tile whose size is known only at run time (tiled_partition(parent, n)): CUDA's thread_group. */
class thread_group {
 public:
  AGCG_FUNCTION thread_group(unsigned size, unsigned parent_rank, unsigned parent_size)
      : size_(size),
        rank_(parent_rank % size),
        meta_rank_(parent_rank / size),
        meta_size_((parent_size + size - 1) / size) {}
  AGCG_FUNCTION unsigned int size() const { return size_; }
  AGCG_FUNCTION unsigned int num_threads() const { return size_; }
  AGCG_FUNCTION unsigned int thread_rank() const { return rank_; }
  AGCG_FUNCTION unsigned int meta_group_rank() const { return meta_rank_; }
  AGCG_FUNCTION unsigned int meta_group_size() const { return meta_size_; }
  AGCG_FUNCTION bool is_valid() const { return true; }
  template <int N = 0>
  AGCG_FUNCTION void sync() const {
    __syncwarp<N>(agcg_lane_range(agk_lane_id() - rank_, size_));
  }

 private:
  unsigned size_, rank_, meta_rank_, meta_size_;
};

/* Size lanes of one warp; Parent is what it was partitioned from (thread_block by default). */
template <unsigned int Size, typename Parent = void>
class thread_block_tile {
  static_assert(Size > 0 && (Size & (Size - 1)) == 0 && Size <= 64,
                "cooperative_groups::thread_block_tile: the size is a power of two up to the warp "
                "size (32 on NVIDIA and the CPU device, 64 or 32 on AMD)");

 public:
  AGCG_FUNCTION thread_block_tile(unsigned parent_rank = thread_block().thread_rank(),
                                  unsigned parent_size = thread_block().size())
      : rank_(parent_rank % Size),
        meta_rank_(parent_rank / Size),
        meta_size_((parent_size + Size - 1) / Size) {}
  /* A tile converts to the tile of its parent type-erased, as CUDA's does. */
  template <typename Other>
  AGCG_FUNCTION thread_block_tile(const thread_block_tile<Size, Other>& other)
      : rank_(other.thread_rank()),
        meta_rank_(other.meta_group_rank()),
        meta_size_(other.meta_group_size()) {}

  AGCG_FUNCTION static constexpr unsigned int size() { return Size; }
  AGCG_FUNCTION static constexpr unsigned int num_threads() { return Size; }
  AGCG_FUNCTION unsigned int thread_rank() const { return rank_; }
  AGCG_FUNCTION unsigned int meta_group_rank() const { return meta_rank_; }
  AGCG_FUNCTION unsigned int meta_group_size() const { return meta_size_; }
  AGCG_FUNCTION bool is_valid() const { return true; }
  /* The tile's lanes in its warp. */
  AGCG_FUNCTION agk_lanes lanes() const {
    return agcg_lane_range(agk_lane_id() & ~(Size - 1), Size);
  }

  template <int N = 0>
  AGCG_FUNCTION void sync() const {
    __syncwarp<N>(lanes());
  }
  template <typename T>
  AGCG_FUNCTION T shfl(T var, unsigned int src_rank) const {
    return __shfl_sync(lanes(), var, (int)src_rank, (int)Size);
  }
  template <typename T>
  AGCG_FUNCTION T shfl_up(T var, unsigned int delta) const {
    return __shfl_up_sync(lanes(), var, delta, (int)Size);
  }
  template <typename T>
  AGCG_FUNCTION T shfl_down(T var, unsigned int delta) const {
    return __shfl_down_sync(lanes(), var, delta, (int)Size);
  }
  template <typename T>
  AGCG_FUNCTION T shfl_xor(T var, unsigned int lane_mask) const {
    return __shfl_xor_sync(lanes(), var, (int)lane_mask, (int)Size);
  }
  /* Ballots count from the tile's first lane, as CUDA's. */
  template <int N = 0>
  AGCG_FUNCTION unsigned long long ballot(int predicate) const {
    return (unsigned long long)(__ballot_sync<N>(lanes(), predicate) >>
                                (agk_lane_id() & ~(Size - 1)));
  }
  template <int N = 0>
  AGCG_FUNCTION int any(int predicate) const {
    return __any_sync<N>(lanes(), predicate);
  }
  template <int N = 0>
  AGCG_FUNCTION int all(int predicate) const {
    return __all_sync<N>(lanes(), predicate);
  }
  template <typename T>
  AGCG_FUNCTION unsigned long long match_any(T value) const {
    return (unsigned long long)(__match_any_sync(lanes(), value) >> (agk_lane_id() & ~(Size - 1)));
  }
  template <typename T>
  AGCG_FUNCTION unsigned long long match_all(T value, int& pred) const {
    return (unsigned long long)(__match_all_sync(lanes(), value, &pred) >>
                                (agk_lane_id() & ~(Size - 1)));
  }

 private:
  unsigned rank_, meta_rank_, meta_size_;
};

template <unsigned int Size, typename Parent>
AGCG_FUNCTION thread_block_tile<Size, Parent> tiled_partition(const Parent& parent) {
  return thread_block_tile<Size, Parent>(parent.thread_rank(), parent.size());
}
AGCG_FUNCTION thread_group tiled_partition(const thread_block& parent, unsigned int size) {
  return thread_group(size, parent.thread_rank(), parent.size());
}
template <unsigned int Size, typename Parent>
AGCG_FUNCTION thread_group tiled_partition(const thread_block_tile<Size, Parent>& parent,
                                           unsigned int size) {
  return thread_group(size, parent.thread_rank(), parent.size());
}

/* The warp's threads that call it together. On the CPU device, where a warp's lanes run one
 * after another, that is every lane of the warp that the block has. */
class coalesced_group {
 public:
  AGCG_FUNCTION explicit coalesced_group(agk_lanes lanes) : lanes_(lanes) {}
  AGCG_FUNCTION unsigned int size() const { return (unsigned)__builtin_popcountll(lanes_); }
  AGCG_FUNCTION unsigned int num_threads() const { return size(); }
  AGCG_FUNCTION unsigned int thread_rank() const {
    return (unsigned)__builtin_popcountll(lanes_ & agcg_lane_range(0, agk_lane_id()));
  }
  AGCG_FUNCTION bool is_valid() const { return true; }
  template <int N = 0>
  AGCG_FUNCTION void sync() const {
    __syncwarp<N>(lanes_);
  }
  /* By rank in the group: the lane of the rank-th set bit. */
  template <typename T>
  AGCG_FUNCTION T shfl(T var, unsigned int src_rank) const {
    agk_lanes rest = lanes_;
    for (unsigned i = 0; i < src_rank && rest; ++i) rest &= rest - 1;
    const unsigned lane = rest ? (unsigned)__builtin_ctzll(rest) : agk_lane_id();
    return agk_shfl_from(lanes_, var, lane);
  }
  template <int N = 0>
  AGCG_FUNCTION unsigned long long ballot(int predicate) const {
    /* Bit i: the thread of rank i, as CUDA's. */
    const agk_lanes votes = __ballot_sync<N>(lanes_, predicate);
    unsigned long long result = 0;
    unsigned rank = 0;
    for (agk_lanes rest = lanes_; rest; rest &= rest - 1, ++rank)
      if (votes & rest & (~rest + 1)) result |= 1ull << rank;
    return result;
  }
  template <int N = 0>
  AGCG_FUNCTION int any(int predicate) const {
    return __any_sync<N>(lanes_, predicate);
  }
  template <int N = 0>
  AGCG_FUNCTION int all(int predicate) const {
    return __all_sync<N>(lanes_, predicate);
  }
  AGCG_FUNCTION agk_lanes lanes() const { return lanes_; }

 private:
  agk_lanes lanes_;
};

template <int N = 0>
AGCG_FUNCTION coalesced_group coalesced_threads() {
  return coalesced_group(__activemask<N>());
}

/* cooperative_groups/reduce.h: the operators, and reduce over a tile or a coalesced group, the
 * same result in every thread: a butterfly of shuffles where the group is the whole warp, else
 * every value in lane order (agk_warp_fold). */
template <typename T>
struct plus {
  AGCG_FUNCTION T operator()(T a, T b) const { return a + b; }
};
template <typename T>
struct less {
  AGCG_FUNCTION T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T>
struct greater {
  AGCG_FUNCTION T operator()(T a, T b) const { return a < b ? b : a; }
};
template <typename T>
struct bit_and {
  AGCG_FUNCTION T operator()(T a, T b) const { return a & b; }
};
template <typename T>
struct bit_or {
  AGCG_FUNCTION T operator()(T a, T b) const { return a | b; }
};
template <typename T>
struct bit_xor {
  AGCG_FUNCTION T operator()(T a, T b) const { return a ^ b; }
};

template <typename T, typename Op, unsigned int Size, typename Parent>
AGCG_FUNCTION T reduce(const thread_block_tile<Size, Parent>& group, T value, Op op) {
  for (unsigned offset = Size / 2; offset > 0; offset /= 2)
    value = op(value, group.shfl_xor(value, offset));
  return value;
}
template <typename T, typename Op>
AGCG_FUNCTION T reduce(const coalesced_group& group, T value, Op op) {
  return agk_warp_fold(group.lanes(), value, op);
}

AGCG_HOST_ONLY_END
}  // namespace cooperative_groups

#endif /* !AGK_OPENCL */

#endif /* ANYGPU_DETAIL_COOPERATIVE_GROUPS_TILE_H */
