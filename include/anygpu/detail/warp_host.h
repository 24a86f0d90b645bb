/* warp_host.h — the warp functions' primitives on the host target: every warp function is one
 * exchange among the lanes of a warp (agk_thread_ctx::warp_exchange on fibers, a split point of
 * the barrier pass's loops). Included by kernel_host.h (C++); warp_functions.h builds CUDA's
 * functions on them. */
#ifndef ANYGPU_DETAIL_WARP_HOST_H
#define ANYGPU_DETAIL_WARP_HOST_H

#ifdef ANYGPU_WORKITEM_LOOPS
/* A marker as agk_wi_barrier: the barrier pass makes each call a barrier among the block's
 * threads, with the values passed through per-thread memory (docs/cpu-barrier-pass.md). */
extern "C" __attribute__((weak, visibility("hidden"), noinline)) unsigned long long
agk_wi_warp_exchange(agk_thread_ctx* ctx, unsigned long long mask, unsigned long long value,
                     const unsigned long long** values) {
  return ctx->warp_exchange(ctx, mask, value, values);
}

/* The barrier pass's choice of what a block runs next, where some of its threads may wait at a
 * warp function while others wait at another one or at a barrier (docs/cpu-barrier-pass.md).
 * wait_at[t]: 0 once thread t returned, r + 1 (at most 255) while it waits for region r;
 * masks[t]: the mask of the warp function it waits in; after_exchange[r + 1]: whether region r
 * follows one. Returns the place every live thread waits at (0: all returned); else a region
 * after a warp function where every thread waiting is ready (the live lanes of its mask wait
 * there too), since the region runs them all; else -1: the threads wait for each other. */
extern "C" __attribute__((weak, visibility("hidden"), noinline)) int agk_wi_schedule(
    const unsigned char* wait_at, const unsigned long long* masks,
    const unsigned char* after_exchange, unsigned threads, unsigned warp_size) {
  unsigned first = 0;
  bool mixed = false;
  for (unsigned t = 0; t < threads; ++t) {
    if (wait_at[t] == 0) continue;
    if (first == 0) first = wait_at[t];
    mixed = mixed || wait_at[t] != first;
  }
  if (!mixed) return (int)first;
  unsigned char blocked[256] = {};  // by place: a thread waiting there is not ready
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned place = wait_at[t];
    if (place == 0 || !after_exchange[place] || blocked[place]) continue;
    const unsigned warp = t - t % warp_size;
    for (unsigned lane = 0; lane < warp_size && warp + lane < threads; ++lane) {
      const unsigned there = wait_at[warp + lane];
      if (((masks[t] >> lane) & 1) && there != 0 && there != place) {
        blocked[place] = 1;
        break;
      }
    }
  }
  for (unsigned t = 0; t < threads; ++t)
    if (wait_at[t] != 0 && after_exchange[wait_at[t]] && !blocked[wait_at[t]]) return wait_at[t];
  return -1;
}
#endif

typedef unsigned long long agk_lanes;

/* Templates, so that only a source that uses a warp function marks its kernels as ones that may
 * switch to fibers (helper_marks, as __syncthreads() does). */
template <int N = 0>
static inline unsigned agk_warp_width() {
  return AGK_HOST_WARP_SIZE;  // what the runtime's ctx->warp_size holds
}

/* The thread index through agk_thread_idx, which the barrier pass turns into its loops' counters
 * (ctx->thread_idx is not kept up to date there). */
template <int N = 0>
static inline unsigned agk_lane_id() {
  const agk_thread_ctx* ctx = agk_current_ctx;
  const agk_dim3 t = agk_thread_idx<N>(), b = ctx->block_dim;
  return (t.x + b.x * (t.y + b.y * t.z)) % AGK_HOST_WARP_SIZE;
}

/* The lanes of this thread's warp that the block has: all but in a last, partial warp. */
template <int N = 0>
static inline agk_lanes agk_warp_lanes_present() {
  const agk_thread_ctx* ctx = agk_current_ctx;
  const agk_dim3 t = agk_thread_idx<N>(), b = ctx->block_dim;
  const unsigned linear = t.x + b.x * (t.y + b.y * t.z), width = AGK_HOST_WARP_SIZE;
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
