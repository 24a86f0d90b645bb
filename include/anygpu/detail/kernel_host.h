/* kernel_host.h — the kernel dialect on the host target (code objects for the CPU backend).
 * Included by anygpu/kernel.h; do not include directly. */
#ifndef ANYGPU_DETAIL_KERNEL_HOST_H
#define ANYGPU_DETAIL_KERNEL_HOST_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "../kernel_host_abi.h"
#include "../vector_types.h"
#include "math_host.h"
#ifdef ANYGPU_WORKITEM_LOOPS
#include "math_host_vector.h"
#endif

/* ------------------------------------------------------------------------------------------------
 * Host target. The CUDA names expand to agk_* calls. Inside a C++ kernel (AG_KERNEL) they resolve
 * to members of the kernel's frame, which hold the indices as plain values the compiler keeps in
 * registers; elsewhere (AG_DEVICE helpers, C kernels) to functions that read the thread's context
 * through a per-source-file thread-local pointer, which the entry points set.
 * ---------------------------------------------------------------------------------------------- */
static __thread agk_thread_ctx* agk_current_ctx;

static inline void agk_set_context(agk_thread_ctx* ctx) {
  agk_current_ctx = ctx;
}

/* Shared memory: one instance per OS thread, and a CPU worker runs one block at a time. In C++
 * thread_local, which is static at block scope and may be extern (extern __shared__ arrays, which
 * the build defines, all at one address, as the launch's dynamic shared memory). */
#ifdef __cplusplus
#define __shared__ thread_local
#else
#define __shared__ static __thread
#endif
#define AG_DEVICE static inline
/* Pointers need no address space on the host. */
#define AG_GLOBAL
#define AG_LOCAL

#ifdef __cplusplus
extern "C" __attribute__((weak, visibility("default"))) uint32_t anygpu_host_abi(void) {
  return AGK_HOST_ABI_VERSION;
}
#else
__attribute__((weak, visibility("default"))) uint32_t anygpu_host_abi(void) {
  return AGK_HOST_ABI_VERSION;
}
#endif

#ifndef __cplusplus
/* ---------------------------------- C kernels (called via libffi) ------------------------------
 */
static inline agk_dim3 agk_thread_idx(void) {
  return agk_current_ctx->thread_idx;
}
static inline agk_dim3 agk_block_idx(void) {
  return agk_current_ctx->block_idx;
}
static inline agk_dim3 agk_block_dim(void) {
  return agk_current_ctx->block_dim;
}
static inline agk_dim3 agk_grid_dim(void) {
  return agk_current_ctx->grid_dim;
}
static inline void* agk_dynamic_shared(void) {
  return agk_current_ctx->dynamic_shared;
}
/* The runtime may run other threads of the block on this OS thread during the barrier; each of
 * them sets the pointer, so restore ours afterwards. */
static inline void agk_barrier(void) {
  agk_thread_ctx* ctx = agk_current_ctx;
  ctx->barrier(ctx);
  agk_current_ctx = ctx;
}

#define threadIdx agk_thread_idx()
#define blockIdx agk_block_idx()
#define blockDim agk_block_dim()
#define gridDim agk_grid_dim()
#define __syncthreads() agk_barrier()
#define AG_DYNAMIC_SHARED(type, name) type* name = (type*)agk_dynamic_shared()

#define AG_KERNEL_C(name, signature, params)                                                \
  static void name params;                                                                  \
  __attribute__((visibility("default"))) const agk_kernel_desc* anygpu_kernel_##name(void); \
  const agk_kernel_desc* anygpu_kernel_##name(void) {                                       \
    static const agk_kernel_desc desc = {                                                   \
        AGK_HOST_ABI_VERSION, sizeof(signature) - 1, #name, 0, 0, 0, signature,             \
        (void (*)(void))name, agk_set_context,       0};                                    \
    return &desc;                                                                           \
  }                                                                                         \
  static void name params

#else
/* ---------------------------------- C++ kernels ------------------------------------------------
 */
#include <tuple>
#include <type_traits>
#include <utility>

#ifdef ANYGPU_WORKITEM_LOOPS
/* Markers for the barrier pass (docs/cpu-barrier-pass.md), which the build defines
 * ANYGPU_WORKITEM_LOOPS for. In each kernel's block entry (agk_wi_block_NAME) the pass replaces
 * them with its loops' counters and region splits; elsewhere (the fiber path) they do what they
 * say. Weak, so that no optimisation before the pass looks inside them; the pass plugin also
 * marks every call that can reach agk_wi_barrier convergent before clang optimises anything. */
extern "C" __attribute__((weak, visibility("hidden"), noinline)) unsigned agk_wi_local_id(
    agk_thread_ctx* ctx, unsigned dim) {
  return dim == 0 ? ctx->thread_idx.x : dim == 1 ? ctx->thread_idx.y : ctx->thread_idx.z;
}
extern "C" __attribute__((weak, visibility("hidden"), noinline)) void agk_wi_barrier(
    agk_thread_ctx* ctx, unsigned x, unsigned y, unsigned z, agk_thread_ctx** current) {
  ctx->thread_idx = agk_dim3{x, y, z};  // the runtime tells the threads apart by it
  ctx->barrier(ctx);
  *current = ctx;  // other threads run on this OS thread meanwhile, and set it
}
/* Threads of one block left a region for different barriers: the runtime's barrier callback, in
 * a block run as loops, says so and stops the program. */
extern "C" __attribute__((weak, visibility("hidden"), noinline, cold)) void agk_wi_divergent(
    agk_thread_ctx* ctx) {
  ctx->barrier(ctx);
  __builtin_trap();
}
#endif

/* Internal linkage on purpose: each kernel source file has its own context pointer and flags.
 *
 * What a kernel can do is found when its code object is loaded: __syncthreads() and the index
 * names are templates, and the first use of one in a kernel body (or in a helper of this source
 * file) instantiates a marker whose initializer raises a flag. A kernel that can never reach a
 * barrier, and whose helpers never read the context, gets a block loop with nothing in it but the
 * kernel body. */
namespace {
namespace agk_detail {

bool helpers_use_barrier;
bool helpers_read_context;

template <int N>
struct helper_marks {
  static inline const bool barrier = (helpers_use_barrier = true);
  static inline const bool context = (helpers_read_context = true);
};

template <typename Kernel>
struct kernel_flags {
  static inline bool uses_barrier = false;
};

template <typename Kernel, int N>
struct kernel_marks {
  static inline const bool barrier = (kernel_flags<Kernel>::uses_barrier = true);
};

}  // namespace agk_detail
}  // namespace

template <int N = 0>
static inline agk_dim3 agk_thread_idx() {
  (void)agk_detail::helper_marks<N>::context;
#ifdef ANYGPU_WORKITEM_LOOPS
  agk_thread_ctx* ctx = agk_current_ctx;
  return agk_dim3{agk_wi_local_id(ctx, 0), agk_wi_local_id(ctx, 1), agk_wi_local_id(ctx, 2)};
#else
  return agk_current_ctx->thread_idx;
#endif
}
template <int N = 0>
static inline agk_dim3 agk_block_idx() {
  (void)agk_detail::helper_marks<N>::context;
  return agk_current_ctx->block_idx;
}
template <int N = 0>
static inline agk_dim3 agk_block_dim() {
  return agk_current_ctx->block_dim;
}
template <int N = 0>
static inline agk_dim3 agk_grid_dim() {
  return agk_current_ctx->grid_dim;
}
template <int N = 0>
static inline void* agk_dynamic_shared() {
  return agk_current_ctx->dynamic_shared;
}
template <int N = 0>
static inline void agk_barrier() {
  (void)agk_detail::helper_marks<N>::barrier;
  agk_thread_ctx* ctx = agk_current_ctx;
#ifdef ANYGPU_WORKITEM_LOOPS
  agk_wi_barrier(ctx, ctx->thread_idx.x, ctx->thread_idx.y, ctx->thread_idx.z, &agk_current_ctx);
#else
  ctx->barrier(ctx);
  agk_current_ctx = ctx;
#endif
}

#define threadIdx agk_thread_idx<>()
#define blockIdx agk_block_idx<>()
#define blockDim agk_block_dim<>()
#define gridDim agk_grid_dim<>()
#define __syncthreads() agk_barrier<>()
#define AG_DYNAMIC_SHARED(type, name) type* name = (type*)agk_dynamic_shared<>()

namespace {
namespace agk_detail {

/* Blocks by linear id, x fastest, then y, then z: the block of id `linear`, and the one after. */
inline agk_dim3 block_at(uint32_t linear, const agk_dim3& grid) {
  return agk_dim3{linear % grid.x, (linear / grid.x) % grid.y, linear / (grid.x * grid.y)};
}
inline void advance_block(agk_dim3& block, const agk_dim3& grid) {
  if (++block.x == grid.x) {
    block.x = 0;
    if (++block.y == grid.y) {
      block.y = 0;
      ++block.z;
    }
  }
}

/* What a kernel body sees; AG_KERNEL makes the body a member function of a frame. */
template <typename Kernel>
struct kernel_frame {
  agk_dim3 agk_thread, agk_block, agk_block_size, agk_grid_size;
  agk_thread_ctx* agk_ctx;

  void agk_enter(agk_thread_ctx* ctx) {
    agk_ctx = ctx;
    agk_block_size = ctx->block_dim;
    agk_grid_size = ctx->grid_dim;
  }
  template <int N = 0>
  agk_dim3 agk_thread_idx() const {
    return agk_thread;
  }
  template <int N = 0>
  agk_dim3 agk_block_idx() const {
    return agk_block;
  }
  template <int N = 0>
  agk_dim3 agk_block_dim() const {
    return agk_block_size;
  }
  template <int N = 0>
  agk_dim3 agk_grid_dim() const {
    return agk_grid_size;
  }
  template <int N = 0>
  void* agk_dynamic_shared() const {
    return agk_ctx->dynamic_shared;
  }
  template <int N = 0>
  void agk_barrier() {
    (void)kernel_marks<Kernel, N>::barrier;
#ifdef ANYGPU_WORKITEM_LOOPS
    agk_wi_barrier(agk_ctx, agk_thread.x, agk_thread.y, agk_thread.z, &agk_current_ctx);
#else
    agk_ctx->thread_idx = agk_thread;  // the runtime tells the threads apart by it
    agk_ctx->barrier(agk_ctx);
    if (helpers_read_context || helpers_use_barrier) agk_current_ctx = agk_ctx;
#endif
  }
};

template <typename T>
constexpr uint32_t param_kind() {
  if (std::is_pointer<T>::value) return 3;
  if (std::is_integral<T>::value || std::is_enum<T>::value) return 1;
  if (std::is_floating_point<T>::value) return 2;
  return 4;
}

template <typename Body>
struct kernel_traits;

template <typename Frame, typename... Args>
struct kernel_traits<void (Frame::*)(Args...)> {
  static_assert(
      (std::is_trivially_copyable<Args>::value && ...),
      "anygpu kernels take trivially copyable parameters by value (pointers, numbers, PODs)");
  using frame = Frame;
  using values = std::tuple<std::decay_t<Args>...>;
  static constexpr agk_param_desc params[sizeof...(Args) > 0 ? sizeof...(Args) : 1] = {
      {param_kind<std::decay_t<Args> >(), (uint32_t)sizeof(Args), (uint32_t)alignof(Args)}...};

  template <size_t... I>
  static values unpack(void** p, std::index_sequence<I...>) {
    return values(*static_cast<std::decay_t<Args>*>(p[I])...);
  }

  /* MayConvert: the kernel can reach a barrier, so after each thread the loop checks whether the
   * block went over to fibers. ShareIndices: helpers read the indices from the context. */
  template <void (Frame::*Body)(Args...), bool MayConvert, bool ShareIndices>
  static void run_blocks(void** p, agk_thread_ctx* ctx, uint32_t block_begin, uint32_t block_end) {
    const values args = unpack(p, std::index_sequence_for<Args...>{});
    agk_current_ctx = ctx;
    Frame frame;
    frame.agk_enter(ctx);
    const agk_dim3 grid = ctx->grid_dim, block = ctx->block_dim;
    agk_dim3 next = block_at(block_begin, grid);
    for (uint32_t b = block_begin; b < block_end; ++b) {
      frame.agk_block = next;
      ctx->block_idx = next;
      advance_block(next, grid);
      for (unsigned z = 0; z < block.z; ++z)
        for (unsigned y = 0; y < block.y; ++y)
#pragma GCC unroll 4
          for (unsigned x = 0; x < block.x; ++x) {
            frame.agk_thread = agk_dim3{x, y, z};
            if (ShareIndices) ctx->thread_idx = frame.agk_thread;
            std::apply([&frame](const auto&... a) { (frame.*Body)(a...); }, args);
            if (MayConvert && __builtin_expect(ctx->converted != 0, 0)) {
              ctx->finish_block(ctx);  // the block's later threads ran on fibers
              agk_current_ctx = ctx;
              goto next_block;
            }
          }
    next_block:;
    }
  }

  template <void (Frame::*Body)(Args...)>
  static void run_thread(void** p, agk_thread_ctx* ctx) {
    const values args = unpack(p, std::index_sequence_for<Args...>{});
    agk_current_ctx = ctx;
    Frame frame;
    frame.agk_enter(ctx);
    frame.agk_block = ctx->block_idx;
    frame.agk_thread = ctx->thread_idx;
    std::apply([&frame](const auto&... a) { (frame.*Body)(a...); }, args);
  }

#ifdef ANYGPU_WORKITEM_LOOPS
  /* Every thread of the block ctx->block_idx names, as the body of one thread: the barrier pass
   * makes it loops over the threads. */
  template <void (Frame::*Body)(Args...)>
  static inline void wi_block(void** p, agk_thread_ctx* ctx) {
    const values args = unpack(p, std::index_sequence_for<Args...>{});
    Frame frame;
    frame.agk_enter(ctx);
    frame.agk_block = ctx->block_idx;
    frame.agk_thread =
        agk_dim3{agk_wi_local_id(ctx, 0), agk_wi_local_id(ctx, 1), agk_wi_local_id(ctx, 2)};
    std::apply([&frame](const auto&... a) { (frame.*Body)(a...); }, args);
  }
#endif

  template <void (Frame::*Body)(Args...)>
  static agk_run_blocks_fn block_loop() {
    const bool may_convert = kernel_flags<Frame>::uses_barrier || helpers_use_barrier;
    const bool share_indices = may_convert || helpers_read_context;
    if (may_convert) return &run_blocks<Body, true, true>;
    return share_indices ? &run_blocks<Body, false, true> : &run_blocks<Body, false, false>;
  }
};

/* Blocks [block_begin, block_end), each by one call of the block entry the barrier pass made. */
template <void (*Block)(void**, agk_thread_ctx*)>
void run_blocks_wi(void** p, agk_thread_ctx* ctx, uint32_t block_begin, uint32_t block_end) {
  agk_current_ctx = ctx;
  const agk_dim3 grid = ctx->grid_dim;
  agk_dim3 next = block_at(block_begin, grid);
  for (uint32_t b = block_begin; b < block_end; ++b) {
    ctx->block_idx = next;
    advance_block(next, grid);
    Block(p, ctx);
  }
}

template <typename Body, Body body>
const agk_kernel_desc* describe(const char* name, agk_run_blocks_fn run_blocks_wi) {
  using traits = kernel_traits<Body>;
  static const agk_kernel_desc desc = {AGK_HOST_ABI_VERSION,
                                       (uint32_t)std::tuple_size<typename traits::values>::value,
                                       name,
                                       traits::params,
                                       traits::template block_loop<body>(),
                                       &traits::template run_thread<body>,
                                       nullptr,
                                       nullptr,
                                       agk_set_context,
                                       run_blocks_wi};
  return &desc;
}

/* A CUDA-syntax kernel: a plain function, registered by the file the build generates
 * (cuda_syntax.h). Its body reads the indices from the thread's context, as helpers do, so every
 * loop keeps the context's thread index current. */
template <typename F>
struct function_traits;

template <typename... Args>
struct function_traits<void (*)(Args...)> {
  static_assert(
      (std::is_trivially_copyable<Args>::value && ...),
      "anygpu kernels take trivially copyable parameters by value (pointers, numbers, PODs)");
  using values = std::tuple<std::decay_t<Args>...>;
  static constexpr agk_param_desc params[sizeof...(Args) > 0 ? sizeof...(Args) : 1] = {
      {param_kind<std::decay_t<Args> >(), (uint32_t)sizeof(Args), (uint32_t)alignof(Args)}...};

  template <size_t... I>
  static values unpack(void** p, std::index_sequence<I...>) {
    return values(*static_cast<std::decay_t<Args>*>(p[I])...);
  }

  /* MayConvert: as kernel_traits::run_blocks. */
  template <void (*Kernel)(Args...), bool MayConvert>
  static void run_blocks(void** p, agk_thread_ctx* ctx, uint32_t block_begin, uint32_t block_end) {
    const values args = unpack(p, std::index_sequence_for<Args...>{});
    agk_current_ctx = ctx;
    const agk_dim3 grid = ctx->grid_dim, block = ctx->block_dim;
    agk_dim3 next = block_at(block_begin, grid);
    for (uint32_t b = block_begin; b < block_end; ++b) {
      ctx->block_idx = next;
      advance_block(next, grid);
      for (unsigned z = 0; z < block.z; ++z)
        for (unsigned y = 0; y < block.y; ++y)
          for (unsigned x = 0; x < block.x; ++x) {
            ctx->thread_idx = agk_dim3{x, y, z};
            std::apply(Kernel, args);
            if (MayConvert && __builtin_expect(ctx->converted != 0, 0)) {
              ctx->finish_block(ctx);
              agk_current_ctx = ctx;
              goto next_block;
            }
          }
    next_block:;
    }
  }

  template <void (*Kernel)(Args...)>
  static void run_thread(void** p, agk_thread_ctx* ctx) {
    const values args = unpack(p, std::index_sequence_for<Args...>{});
    agk_current_ctx = ctx;
    std::apply(Kernel, args);
  }

#ifdef ANYGPU_WORKITEM_LOOPS
  template <void (*Kernel)(Args...)>
  static inline void wi_block(void** p, agk_thread_ctx* ctx) {
    const values args = unpack(p, std::index_sequence_for<Args...>{});
    agk_current_ctx = ctx;
    std::apply(Kernel, args);
  }
#endif

  template <void (*Kernel)(Args...)>
  static agk_run_blocks_fn block_loop() {
    return helpers_use_barrier ? &run_blocks<Kernel, true> : &run_blocks<Kernel, false>;
  }
};

template <typename F, F kernel>
const agk_kernel_desc* describe_function(const char* name, agk_run_blocks_fn run_blocks_wi) {
  using traits = function_traits<F>;
  static const agk_kernel_desc desc = {AGK_HOST_ABI_VERSION,
                                       (uint32_t)std::tuple_size<typename traits::values>::value,
                                       name,
                                       traits::params,
                                       traits::template block_loop<kernel>(),
                                       &traits::template run_thread<kernel>,
                                       nullptr,
                                       nullptr,
                                       agk_set_context,
                                       run_blocks_wi};
  return &desc;
}

}  // namespace agk_detail
}  // namespace

#ifdef ANYGPU_WORKITEM_LOOPS
/* The block entry the barrier pass rewrites, and its state: 1 once rewritten. On x86-64 the entry
 * is built for AVX-512 (with VL: masked 256-bit accesses, where AVX512F alone masks a 512-bit one
 * that overlaps the next iteration's and stalls its loads), AVX2 and the baseline, and the loader
 * picks the best the processor has (an ifunc), as PoCL compiles for the processor it runs on. The
 * build passes -fvisibility=hidden (target_clones takes no visibility attribute). */
#if defined(__x86_64__) && defined(__clang__)
#define AGK_WI_TARGETS __attribute__((target_clones("avx512vl", "avx2", "default")))
#else
#define AGK_WI_TARGETS __attribute__((noinline))
#endif
#define AGK_WI_ENTRY(name)                                                                \
  extern "C" __attribute__((visibility("hidden"))) unsigned char agk_wi_state_##name = 0; \
  extern "C" AGK_WI_TARGETS void agk_wi_block_##name(void** p, agk_thread_ctx* ctx) {     \
    agk_detail::kernel_traits<decltype(&agk_kernel_##name::run)>::wi_block<               \
        &agk_kernel_##name::run>(p, ctx);                                                 \
  }
#define AGK_WI_FUNCTION_ENTRY(symbol, kernel_type, kernel)                                  \
  extern "C" __attribute__((visibility("hidden"))) unsigned char agk_wi_state_##symbol = 0; \
  extern "C" AGK_WI_TARGETS void agk_wi_block_##symbol(void** p, agk_thread_ctx* ctx) {     \
    agk_detail::function_traits<kernel_type*>::wi_block<kernel>(p, ctx);                    \
  }
#define AGK_WI_RUN(name) \
  (agk_wi_state_##name ? &agk_detail::run_blocks_wi<&agk_wi_block_##name> : nullptr)
#else
#define AGK_WI_ENTRY(name)
#define AGK_WI_FUNCTION_ENTRY(symbol, kernel_type, kernel)
#define AGK_WI_RUN(name) nullptr
#endif

#define AG_KERNEL(name, params)                                                              \
  namespace {                                                                                \
  struct agk_kernel_##name : agk_detail::kernel_frame<agk_kernel_##name> {                   \
    void run params;                                                                         \
  };                                                                                         \
  }                                                                                          \
  AGK_WI_ENTRY(name)                                                                         \
  extern "C" __attribute__((visibility("default")))                                          \
  const agk_kernel_desc* anygpu_kernel_##name(void) {                                        \
    return agk_detail::describe<decltype(&agk_kernel_##name::run), &agk_kernel_##name::run>( \
        #name, AGK_WI_RUN(name));                                                            \
  }                                                                                          \
  void agk_kernel_##name::run params

#include "atomics_host.h"
#include "warp_host.h"
#endif /* __cplusplus */

#endif /* ANYGPU_DETAIL_KERNEL_HOST_H */
