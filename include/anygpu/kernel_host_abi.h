/*
 * kernel_host_abi.h — the contract between anygpu's CPU backend and a host code object.
 *
 * A host code object is a shared object built from kernel sources written with anygpu/kernel.h.
 * For every kernel NAME it exports `const agk_kernel_desc* anygpu_kernel_NAME(void)`, and once
 * `uint32_t anygpu_host_abi(void)`, which returns AGK_HOST_ABI_VERSION. Users never include this
 * file directly.
 */
#ifndef ANYGPU_KERNEL_HOST_ABI_H
#define ANYGPU_KERNEL_HOST_ABI_H

#include <stdint.h>

/* Outside extern "C": C++ gives it a conversion template. CUDA's `uint3 t = threadIdx;` and
 * `dim3 b = blockDim;` (anygpu/vector_types.h) convert it to any type built from exactly three
 * unsigned ints: a 12-byte struct (uint3, dim3), or a 3-element vector (OpenCL's uint3). */
typedef struct agk_dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  template <typename V, typename = decltype(V{x, y, z}),
            typename = char[!__is_class(V) || sizeof(V) == 3 * sizeof(unsigned int) ? 1 : -1]>
  constexpr operator V() const {
    return V{x, y, z};
  }
#endif
} agk_dim3;

#ifdef __cplusplus
extern "C" {
#endif

/* 2 appended agk_kernel_desc::run_blocks_wi; 3 appended agk_thread_ctx::warp_exchange and
 * warp_size (the runtime fills them for every code object; only a 3 reads them). The runtime
 * takes 1 to 3. */
#define AGK_HOST_ABI_VERSION 3u
#define AGK_HOST_ABI_MIN_VERSION 1u
#define AGK_HOST_ABI_SYMBOL "anygpu_host_abi"
#define AGK_KERNEL_SYMBOL_PREFIX "anygpu_kernel_"

/* What one kernel thread sees. The runtime owns it; the code object reads it through a
 * thread-local pointer that the entry points set. */
typedef struct agk_thread_ctx {
  agk_dim3 thread_idx;
  agk_dim3 block_idx;
  agk_dim3 block_dim;
  agk_dim3 grid_dim;
  void* dynamic_shared;
  /* Called by __syncthreads(). May switch to another thread of the block (a fiber). */
  void (*barrier)(struct agk_thread_ctx* ctx);
  /* Called by the block loop when `converted` is set: the block switched to fibers at a barrier
   * and the loop must let the runtime finish the block's other threads. */
  void (*finish_block)(struct agk_thread_ctx* ctx);
  unsigned int converted;
  void* runtime; /* runtime-private */
  /* ABI 3: the warp functions' one primitive. The thread gives `value` and waits until every live
   * lane of its warp named in `mask` (bit i: lane i; the caller's own bit is implied) has called
   * it too; then *values points at the values those lanes gave, indexed by lane, valid until the
   * thread's next call. Returns the lanes that took part: `mask` less the lanes that have exited.
   * May switch to other threads of the block, as `barrier` does. */
  unsigned long long (*warp_exchange)(struct agk_thread_ctx* ctx, unsigned long long mask,
                                      unsigned long long value, const unsigned long long** values);
  /* Lanes per warp: threads with linear ids [k * warp_size, (k + 1) * warp_size) of a block.
   * Always AGK_HOST_WARP_SIZE. */
  unsigned int warp_size;
} agk_thread_ctx;

/* The CPU device's warp width, which host code objects are built for: a constant, so that lane
 * and warp numbers are shifts and masks (the runtime checks it is its own). */
#define AGK_HOST_WARP_SIZE 32u

/* AG_PARAM_* values of anygpu.h */
typedef struct agk_param_desc {
  uint32_t kind;
  uint32_t size;
  uint32_t alignment;
} agk_param_desc;

/* Runs blocks [block_begin, block_end) (linear ids, x fastest), each as a loop over its threads. */
typedef void (*agk_run_blocks_fn)(void** params, agk_thread_ctx* ctx, uint32_t block_begin,
                                  uint32_t block_end);
/* Runs one thread, the one `ctx` describes (used on a fiber). */
typedef void (*agk_run_thread_fn)(void** params, agk_thread_ctx* ctx);

typedef struct agk_kernel_desc {
  uint32_t abi_version;
  uint32_t param_count;
  const char* name;
  /* C++ kernels: the layout and generated entries. */
  const agk_param_desc* params;
  agk_run_blocks_fn run_blocks;
  agk_run_thread_fn run_thread;
  /* C kernels: no generated entry. The runtime calls `c_function` through libffi using
   * `signature`, one character per parameter: b int8, h int16, i int32, l int64, f float,
   * d double, p pointer. */
  const char* signature;
  void (*c_function)(void);
  /* Sets the code object's thread-local context pointer for this kernel's source file. */
  void (*set_context)(agk_thread_ctx* ctx);
  /* ABI 2: runs blocks as loops over their threads, split at barriers by the barrier pass
   * (docs/cpu-barrier-pass.md), with no fiber; it never calls ctx->barrier. NULL where the kernel
   * was built without the pass or the pass left it on fibers. */
  agk_run_blocks_fn run_blocks_wi;
} agk_kernel_desc;

#ifdef __cplusplus
}
#endif

#endif /* ANYGPU_KERNEL_HOST_ABI_H */
