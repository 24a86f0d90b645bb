/* warp_host.h — the warp functions' primitives on the host target: every warp function is one
 * exchange among the lanes of a warp (agk_thread_ctx::warp_exchange), which the CPU backend runs
 * on fibers. Included by kernel_host.h (C++); warp_functions.h builds CUDA's functions on them. */
#ifndef ANYGPU_DETAIL_WARP_HOST_H
#define ANYGPU_DETAIL_WARP_HOST_H

#ifdef ANYGPU_WORKITEM_LOOPS
/* A marker as agk_wi_barrier: the barrier pass leaves a kernel that reaches it on fibers. */
extern "C" __attribute__((weak, visibility("hidden"), noinline)) unsigned long long
agk_wi_warp_exchange(agk_thread_ctx* ctx, unsigned long long mask, unsigned long long value,
                     const unsigned long long** values) {
  return ctx->warp_exchange(ctx, mask, value, values);
}
#endif

typedef unsigned long long agk_lanes;

/* Templates, so that only a source that uses a warp function marks its kernels as ones that may
 * switch to fibers (helper_marks, as __syncthreads() does). */
template <int N = 0>
static inline unsigned agk_warp_width() {
  return agk_current_ctx->warp_size;
}

template <int N = 0>
static inline unsigned agk_lane_id() {
  const agk_thread_ctx* ctx = agk_current_ctx;
  const agk_dim3 t = ctx->thread_idx, b = ctx->block_dim;
  return (t.x + b.x * (t.y + b.y * t.z)) % ctx->warp_size;
}

/* The lanes of this thread's warp that the block has: all but in a last, partial warp. */
template <int N = 0>
static inline agk_lanes agk_warp_lanes_present() {
  const agk_thread_ctx* ctx = agk_current_ctx;
  const agk_dim3 t = ctx->thread_idx, b = ctx->block_dim;
  const unsigned linear = t.x + b.x * (t.y + b.y * t.z), width = ctx->warp_size;
  const unsigned left = b.x * b.y * b.z - (linear - linear % width);
  const unsigned lanes = left < width ? left : width;
  return lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
}

/* Gives `value`, waits for the live lanes of `mask`; *values: their values by lane. */
template <int N = 0>
static inline agk_lanes agk_warp_exchange(agk_lanes mask, unsigned long long value,
                                          const unsigned long long** values) {
  (void)agk_detail::helper_marks<N>::barrier;
  agk_thread_ctx* ctx = agk_current_ctx;
#ifdef ANYGPU_WORKITEM_LOOPS
  const agk_lanes taking_part = agk_wi_warp_exchange(ctx, mask, value, values);
#else
  const agk_lanes taking_part = ctx->warp_exchange(ctx, mask, value, values);
#endif
  agk_current_ctx = ctx;  // other threads ran on this OS thread meanwhile
  return taking_part;
}

#endif /* ANYGPU_DETAIL_WARP_HOST_H */
