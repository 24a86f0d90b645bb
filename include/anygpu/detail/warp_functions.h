/* warp_functions.h — CUDA's warp-level functions, the same on every target, built on each
 * target's primitives (warp_host.h, warp_gpu.h): warpSize, __shfl*_sync, __ballot_sync,
 * __any_sync, __all_sync, __activemask, __syncwarp, __match_any_sync, __match_all_sync and the
 * __reduce_*_sync functions. Masks are 64-bit (agk_lanes), as HIP's: bit i is lane i; CUDA code's
 * 32-bit masks convert. docs/kernel-dialect.md, Warp functions, says how to write code that is
 * right at any warp width. Included by kernel.h (C++). */
#ifndef ANYGPU_DETAIL_WARP_FUNCTIONS_H
#define ANYGPU_DETAIL_WARP_FUNCTIONS_H

/* CUDA's built-in variable: 32 on NVIDIA and the CPU device, 64 or 32 on AMD, the sub-group
 * size on SPIR-V devices. */
#define warpSize ((int)agk_warp_width())

#if defined(AGK_TARGET_GPU) && !defined(AGK_OPENCL)
#define AGK_DEVICE_MEMBER __attribute__((device))
#else
#define AGK_DEVICE_MEMBER
#endif

template <typename T>
AG_DEVICE agk_lanes agk_to_lane_bits(T value) {
  static_assert(sizeof(T) <= 8, "warp functions exchange values of at most 8 bytes");
  agk_lanes bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <typename T>
AG_DEVICE T agk_from_lane_bits(agk_lanes bits) {
  T value;
  __builtin_memcpy(&value, &bits, sizeof(T));
  return value;
}

/* `value` as lane `lane` of the warp holds it (absolute lane; each caller names one). */
template <typename T>
AG_DEVICE T agk_shfl_from(agk_lanes mask, T value, unsigned lane) {
  const agk_lanes bits = agk_to_lane_bits(value);
#ifdef AGK_TARGET_GPU
  agk_lanes theirs = agk_shfl_word(mask, (unsigned)bits, lane);
  if (sizeof(T) > 4) theirs |= (agk_lanes)agk_shfl_word(mask, (unsigned)(bits >> 32), lane) << 32;
  return agk_from_lane_bits<T>(theirs);
#else
  const agk_lanes* values = nullptr;
  const agk_lanes taking_part = agk_warp_exchange(mask, bits, &values);
  return (taking_part >> lane) & 1 ? agk_from_lane_bits<T>(values[lane]) : value;
#endif
}

/* Widths are powers of two up to warpSize; a lane reads within its own segment of `width` lanes,
 * and gets its own value back where the source lies outside it (CUDA's rules). */
template <typename T>
AG_DEVICE T __shfl_sync(agk_lanes mask, T var, int src_lane, int width = warpSize) {
  const unsigned lane = agk_lane_id(), w = (unsigned)width;
  return agk_shfl_from(mask, var, (lane & ~(w - 1)) | ((unsigned)src_lane & (w - 1)));
}
template <typename T>
AG_DEVICE T __shfl_up_sync(agk_lanes mask, T var, unsigned int delta, int width = warpSize) {
  const unsigned lane = agk_lane_id(), w = (unsigned)width;
  return agk_shfl_from(mask, var, (lane & (w - 1)) >= delta ? lane - delta : lane);
}
template <typename T>
AG_DEVICE T __shfl_down_sync(agk_lanes mask, T var, unsigned int delta, int width = warpSize) {
  const unsigned lane = agk_lane_id(), w = (unsigned)width;
  return agk_shfl_from(mask, var, (lane & (w - 1)) + delta < w ? lane + delta : lane);
}
template <typename T>
AG_DEVICE T __shfl_xor_sync(agk_lanes mask, T var, int lane_mask, int width = warpSize) {
  const unsigned lane = agk_lane_id(), w = (unsigned)width;
  const unsigned source = lane ^ (unsigned)lane_mask;
  return agk_shfl_from(mask, var, source < (lane & ~(w - 1)) + w ? source : lane);
}

/* Templates (N unused) on every target, so that the host compiles them only where used. */
template <int N = 0>
AG_DEVICE agk_lanes __ballot_sync(agk_lanes mask, int predicate) {
#ifdef AGK_TARGET_GPU
  return agk_ballot(mask, predicate != 0) & (mask | (agk_lanes)1 << agk_lane_id());
#else
  const agk_lanes* values = nullptr;
  agk_lanes result = 0;
  for (agk_lanes rest = agk_warp_exchange(mask, predicate != 0, &values); rest; rest &= rest - 1)
    if (values[__builtin_ctzll(rest)]) result |= rest & (~rest + 1);
  return result;
#endif
}
template <int N = 0>
AG_DEVICE int __any_sync(agk_lanes mask, int predicate) {
  return __ballot_sync<N>(mask, predicate) != 0;
}
template <int N = 0>
AG_DEVICE int __all_sync(agk_lanes mask, int predicate) {
  return __ballot_sync<N>(mask, !predicate) == 0;
}
/* On the CPU device: the lanes of the warp the block has (threads that exited included). */
template <int N = 0>
AG_DEVICE agk_lanes __activemask() {
#ifdef AGK_TARGET_GPU
  return agk_activemask();
#else
  return agk_warp_lanes_present<N>();
#endif
}
template <int N = 0>
AG_DEVICE void __syncwarp(agk_lanes mask = ~(agk_lanes)0) {
#ifdef AGK_TARGET_GPU
  agk_syncwarp(mask);
#else
  const agk_lanes* values = nullptr;
  (void)agk_warp_exchange<N>(mask, 0, &values);
#endif
}

/* The lanes of `mask` whose value equals this lane's (bit for bit). */
template <typename T>
AG_DEVICE agk_lanes __match_any_sync(agk_lanes mask, T value) {
  const agk_lanes bits = agk_to_lane_bits(value);
#if !defined(AGK_TARGET_GPU)
  const agk_lanes* values = nullptr;
  agk_lanes result = 0;
  for (agk_lanes rest = agk_warp_exchange(mask, bits, &values); rest; rest &= rest - 1)
    if (values[__builtin_ctzll(rest)] == bits) result |= rest & (~rest + 1);
  return result;
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 && AGK_PTX_ISA >= 60
  if (sizeof(T) > 4) return (unsigned)__nvvm_match_any_sync_i64((unsigned)mask, (long long)bits);
  return (unsigned)__nvvm_match_any_sync_i32((unsigned)mask, (int)bits);
#else
  /* One round per distinct value: the lowest waiting lane's value, and who shares it. */
  agk_lanes waiting = __ballot_sync(mask, 1), result = 0;
  while (waiting) {
    const unsigned leader = (unsigned)__builtin_ctzll(waiting);
    const agk_lanes same = __ballot_sync(mask, agk_shfl_from(mask, bits, leader) == bits) & waiting;
    if ((same >> agk_lane_id()) & 1) result = same;
    waiting &= ~same;
  }
  return result;
#endif
}
/* The lanes taking part when all of them hold the same value (*pred = 1), else 0. */
template <typename T>
AG_DEVICE agk_lanes __match_all_sync(agk_lanes mask, T value, int* pred) {
  const agk_lanes taking_part = __ballot_sync(mask, 1);
  const agk_lanes same = __match_any_sync(mask, value);
  *pred = same == taking_part;
  return same == taking_part ? taking_part : 0;
}

/* The values of the lanes taking part, combined: the same result in each lane. When the whole
 * warp takes part, pairwise as a butterfly (each lane with lane ^ k, k = warpSize / 2 ... 1), as
 * CUDA's cg::reduce does: log2(warpSize) steps, then lane 0's result to every lane, so every target
 * gives the same bits (on the host, the tree the butterfly makes of lane 0's values). Else in lane
 * order. */
template <typename T, typename Combine>
AG_DEVICE T agk_warp_fold(agk_lanes mask, T value, Combine combine) {
#ifdef AGK_TARGET_GPU
  agk_lanes rest = __ballot_sync(mask, 1);  // the same in every lane: the loop stays converged
  const unsigned width = agk_warp_width();
  if (rest == (width >= 64 ? ~(agk_lanes)0 : ((agk_lanes)1 << width) - 1)) {
    for (unsigned k = width / 2; k > 0; k /= 2)
      value = combine(value, agk_shfl_from(mask, value, agk_lane_id() ^ k));
    /* Lane 0's bits, the host's result: a combine whose result depends on the order of its
     * operands (a min of NaN, or of +0 and -0) may leave other lanes with others. */
    return agk_shfl_from(mask, value, 0u);
  }
  T result = agk_shfl_from(mask, value, (unsigned)__builtin_ctzll(rest));
  for (rest &= rest - 1; rest; rest &= rest - 1)
    result = combine(result, agk_shfl_from(mask, value, (unsigned)__builtin_ctzll(rest)));
#else
  const agk_lanes* values = nullptr;
  agk_lanes rest = agk_warp_exchange(mask, agk_to_lane_bits(value), &values);
  if (rest == 0xffffffffull) {  // the CPU device's whole warp of 32 lanes
    T partial[32];
    for (unsigned i = 0; i < 32; ++i) partial[i] = agk_from_lane_bits<T>(values[i]);
    for (unsigned k = 16; k > 0; k /= 2)
      for (unsigned i = 0; i < k; ++i) partial[i] = combine(partial[i], partial[i + k]);
    return partial[0];
  }
  T result = agk_from_lane_bits<T>(values[__builtin_ctzll(rest)]);
  for (rest &= rest - 1; rest; rest &= rest - 1)
    result = combine(result, agk_from_lane_bits<T>(values[__builtin_ctzll(rest)]));
#endif
  return result;
}
struct agk_fold_add {
  template <typename T>
  AGK_DEVICE_MEMBER T operator()(T a, T b) const {
    return a + b;
  }
};
struct agk_fold_min {
  template <typename T>
  AGK_DEVICE_MEMBER T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};
struct agk_fold_max {
  template <typename T>
  AGK_DEVICE_MEMBER T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};
struct agk_fold_and {
  template <typename T>
  AGK_DEVICE_MEMBER T operator()(T a, T b) const {
    return a & b;
  }
};
struct agk_fold_or {
  template <typename T>
  AGK_DEVICE_MEMBER T operator()(T a, T b) const {
    return a | b;
  }
};
struct agk_fold_xor {
  template <typename T>
  AGK_DEVICE_MEMBER T operator()(T a, T b) const {
    return a ^ b;
  }
};

/* __reduce_*_sync (CUDA 11, sm_80): int and unsigned; and/or/xor on unsigned. */
#define AGK_WARP_REDUCE(name, fold, types_allowed)                                   \
  template <typename T>                                                              \
  AG_DEVICE T name(agk_lanes mask, T value) {                                        \
    static_assert(types_allowed, #name " takes int or unsigned values, as in CUDA"); \
    return agk_warp_fold(mask, value, fold());                                       \
  }
#define AGK_INT_OR_UNSIGNED (__is_same(T, int) || __is_same(T, unsigned))
AGK_WARP_REDUCE(__reduce_add_sync, agk_fold_add, AGK_INT_OR_UNSIGNED)
AGK_WARP_REDUCE(__reduce_min_sync, agk_fold_min, AGK_INT_OR_UNSIGNED)
AGK_WARP_REDUCE(__reduce_max_sync, agk_fold_max, AGK_INT_OR_UNSIGNED)
AGK_WARP_REDUCE(__reduce_and_sync, agk_fold_and, __is_same(T, unsigned))
AGK_WARP_REDUCE(__reduce_or_sync, agk_fold_or, __is_same(T, unsigned))
AGK_WARP_REDUCE(__reduce_xor_sync, agk_fold_xor, __is_same(T, unsigned))
#undef AGK_INT_OR_UNSIGNED
#undef AGK_WARP_REDUCE

#endif /* ANYGPU_DETAIL_WARP_FUNCTIONS_H */
