/*
 * kernel.h — the portable kernel dialect.
 *
 * One kernel source, written with these macros, is compiled for every target. The dialect keeps
 * CUDA's names, so CUDA kernels port with few changes:
 *
 *   #include <anygpu/kernel.h>
 *
 *   AG_KERNEL(saxpy, (int n, float a, const float* x, float* y)) {
 *     int i = blockIdx.x * blockDim.x + threadIdx.x;
 *     if (i < n) y[i] = a * x[i] + y[i];
 *   }
 *
 * Offered: AG_KERNEL (C++; parameters by value), AG_KERNEL_C (C, with a signature string),
 * AG_DEVICE for helpers, threadIdx / blockIdx / blockDim / gridDim with .x .y .z, __syncthreads(),
 * __shared__ for static shared memory, AG_DYNAMIC_SHARED(type, name) for the launch's dynamic
 * shared memory, atomicAdd / atomicSub / atomicMin / atomicMax / atomicExch / atomicCAS (C++), and
 * the <math.h> functions.
 *
 * Rules, as on a GPU: every thread of a block reaches the same __syncthreads(); shared memory is
 * per block; device helpers that use threadIdx live in the kernel's source file or a header it
 * includes.
 *
 * Targets: this file currently implements the host target (the CPU backend's code objects). The
 * GPU targets (nvptx64, amdgcn, spir64) come with the bundle work.
 */
#ifndef ANYGPU_KERNEL_H
#define ANYGPU_KERNEL_H

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__OPENCL_VERSION__)
#error "anygpu/kernel.h: GPU targets are not implemented yet; only the host target is."
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_host_abi.h"

/* ------------------------------------------------------------------------------------------------
 * Host target: each kernel thread reads its indices through a per-source-file thread-local
 * pointer, set by the entry points that the macros below generate.
 * ---------------------------------------------------------------------------------------------- */
static __thread agk_thread_ctx* agk_current_ctx;

static void agk_set_context(agk_thread_ctx* ctx) { agk_current_ctx = ctx; }

#define threadIdx (agk_current_ctx->thread_idx)
#define blockIdx (agk_current_ctx->block_idx)
#define blockDim (agk_current_ctx->block_dim)
#define gridDim (agk_current_ctx->grid_dim)

/* The runtime may run other threads of the block on this OS thread during the barrier; each of
 * them sets the pointer, so restore ours afterwards. */
static inline void agk_barrier(void) {
  agk_thread_ctx* ctx = agk_current_ctx;
  ctx->barrier(ctx);
  agk_current_ctx = ctx;
}
#define __syncthreads() agk_barrier()

/* Static shared memory: one instance per OS thread, and a CPU worker runs one block at a time. */
#define __shared__ static __thread
#define AG_DYNAMIC_SHARED(type, name) type* name = (type*)agk_current_ctx->dynamic_shared
#define AG_DEVICE static inline

#ifdef __cplusplus
extern "C" __attribute__((weak, visibility("default"))) uint32_t anygpu_host_abi(void) {
  return AGK_HOST_ABI_VERSION;
}
#else
__attribute__((weak, visibility("default"))) uint32_t anygpu_host_abi(void) {
  return AGK_HOST_ABI_VERSION;
}
#endif

/* ---------------------------------- C kernels (called via libffi) ------------------------------ */
#define AG_KERNEL_C(name, signature, params)                                                     \
  static void name params;                                                                       \
  __attribute__((visibility("default"))) const agk_kernel_desc* anygpu_kernel_##name(void);      \
  const agk_kernel_desc* anygpu_kernel_##name(void) {                                            \
    static const agk_kernel_desc desc = {AGK_HOST_ABI_VERSION, sizeof(signature) - 1, #name, 0, \
                                         0, 0, signature, (void (*)(void))name,                  \
                                         agk_set_context};                                       \
    return &desc;                                                                                \
  }                                                                                              \
  static void name params

/* ---------------------------------- C++ kernels ------------------------------------------------ */
#ifdef __cplusplus
#include <tuple>
#include <type_traits>
#include <utility>

/* Internal linkage on purpose: each kernel source file has its own context pointer. */
namespace {
namespace agk_detail {

template <typename T>
constexpr uint32_t param_kind() {
  if (std::is_pointer<T>::value) return 3;
  if (std::is_integral<T>::value || std::is_enum<T>::value) return 1;
  if (std::is_floating_point<T>::value) return 2;
  return 4;
}

template <typename Signature>
struct kernel_traits;

template <typename... Args>
struct kernel_traits<void (*)(Args...)> {
  static_assert(
      (std::is_trivially_copyable<Args>::value && ...),
      "anygpu kernels take trivially copyable parameters by value (pointers, numbers, PODs)");
  using values = std::tuple<std::decay_t<Args>...>;
  static constexpr agk_param_desc params[sizeof...(Args) > 0 ? sizeof...(Args) : 1] = {
      {param_kind<std::decay_t<Args>>(), (uint32_t)sizeof(Args), (uint32_t)alignof(Args)}...};

  template <size_t... I>
  static values unpack(void** p, std::index_sequence<I...>) {
    return values(*static_cast<std::decay_t<Args>*>(p[I])...);
  }

  template <void (*Kernel)(Args...)>
  static void run_blocks(void** p, agk_thread_ctx* ctx, uint32_t block_begin, uint32_t block_end) {
    const values args = unpack(p, std::index_sequence_for<Args...>{});
    agk_current_ctx = ctx;
    const agk_dim3 grid = ctx->grid_dim, block = ctx->block_dim;
    for (uint32_t b = block_begin; b < block_end; ++b) {
      ctx->block_idx.x = b % grid.x;
      ctx->block_idx.y = (b / grid.x) % grid.y;
      ctx->block_idx.z = b / (grid.x * grid.y);
      for (unsigned z = 0; z < block.z; ++z)
        for (unsigned y = 0; y < block.y; ++y)
          for (unsigned x = 0; x < block.x; ++x) {
            ctx->thread_idx.x = x;
            ctx->thread_idx.y = y;
            ctx->thread_idx.z = z;
            std::apply(Kernel, args);
            if (__builtin_expect(ctx->converted != 0, 0)) {
              ctx->finish_block(ctx);  // the other threads ran on fibers
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
};

template <typename Signature, Signature Kernel>
const agk_kernel_desc* describe(const char* name) {
  using traits = kernel_traits<Signature>;
  static const agk_kernel_desc desc = {AGK_HOST_ABI_VERSION,
                                       (uint32_t)std::tuple_size<typename traits::values>::value,
                                       name,
                                       traits::params,
                                       &traits::template run_blocks<Kernel>,
                                       &traits::template run_thread<Kernel>,
                                       nullptr,
                                       nullptr,
                                       agk_set_context};
  return &desc;
}

}  // namespace agk_detail
}  // namespace

#define AG_KERNEL(name, params)                                                              \
  static void name params;                                                                   \
  extern "C" __attribute__((visibility("default"))) const agk_kernel_desc*                   \
      anygpu_kernel_##name(void) {                                                           \
    return agk_detail::describe<decltype(&name), &name>(#name);                              \
  }                                                                                          \
  static void name params

/* Atomics: blocks run concurrently on several workers, so these are real atomics. */
template <typename T>
AG_DEVICE T atomicAdd(T* address, T value) {
  if constexpr (std::is_floating_point<T>::value) {
    T old = __atomic_load_n(address, __ATOMIC_RELAXED);
    T desired;
    do {
      desired = old + value;
    } while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED));
    return old;
  } else {
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
  }
}
template <typename T>
AG_DEVICE T atomicSub(T* address, T value) {
  return __atomic_fetch_sub(address, value, __ATOMIC_RELAXED);
}
template <typename T>
AG_DEVICE T atomicExch(T* address, T value) {
  return __atomic_exchange_n(address, value, __ATOMIC_RELAXED);
}
template <typename T>
AG_DEVICE T atomicCAS(T* address, T compare, T value) {
  __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return compare;
}
template <typename T>
AG_DEVICE T atomicMin(T* address, T value) {
  T old = __atomic_load_n(address, __ATOMIC_RELAXED);
  while (value < old && !__atomic_compare_exchange_n(address, &old, value, true, __ATOMIC_RELAXED,
                                                     __ATOMIC_RELAXED)) {
  }
  return old;
}
template <typename T>
AG_DEVICE T atomicMax(T* address, T value) {
  T old = __atomic_load_n(address, __ATOMIC_RELAXED);
  while (value > old && !__atomic_compare_exchange_n(address, &old, value, true, __ATOMIC_RELAXED,
                                                     __ATOMIC_RELAXED)) {
  }
  return old;
}
#endif /* __cplusplus */

#endif /* ANYGPU_KERNEL_H */
