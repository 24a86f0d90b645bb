/* kernel_hiprtc.h — the kernel dialect under hiprtc (__HIPCC_RTC__: run-time compilation for the
 * HIP backend, loaders/hip/hiprtc_compiler.cpp). hiprtc compiles HIP itself and always includes
 * its runtime header first (hiprtc_runtime.h): threadIdx and the other index variables, dim3,
 * the vector types, __syncthreads(), the atomic functions (and their _system forms), __shfl and
 * the other warp functions without _sync, __half and __half2, the integer intrinsics and the
 * whole math library (ROCm's ocml, linked by hiprtc) are its own, and the C library's <stdint.h>
 * is not to be included (its int64_t differs from the runtime's). This header adds only what the
 * dialect has beyond that: AG_KERNEL (with its parameter record), AG_DEVICE, AG_GLOBAL, AG_LOCAL,
 * AG_DYNAMIC_SHARED, the atomics' _block forms, atomicLoad / atomicStore, CUDA's _sync warp
 * functions (warp_functions.h), intptr_t / uintptr_t and INFINITY / NAN.
 * Included by anygpu/kernel.h; do not include directly. */
#ifndef ANYGPU_DETAIL_KERNEL_HIPRTC_H
#define ANYGPU_DETAIL_KERNEL_HIPRTC_H

#define AG_GLOBAL
#define AG_LOCAL
#define AG_DEVICE static inline __attribute__((device))

typedef long intptr_t;
typedef unsigned long uintptr_t;
#ifndef INFINITY
#define INFINITY __builtin_inff()
#endif
#ifndef NAN
#define NAN __builtin_nanf("")
#endif

/* The launch's dynamic shared memory. */
extern __attribute__((shared, aligned(16))) unsigned char agk_dynamic_shared_memory[];
#define AG_DYNAMIC_SHARED(type, name) type* name = (type*)agk_dynamic_shared_memory

/* The parameter record of kernel_gpu.h: the same words (shim/code_object/kernel_params.h). */
#include "cache_hints.h"
#include "kernel_param_record.h"

/* The entry's name is the kernel's name (extern "C"), as in the ahead-of-time builds. */
#define AG_KERNEL(name, params)                                    \
  extern "C" __attribute__((device, used))                         \
  const agk_param_record<void params>::type anygpu_params_##name = \
      agk_param_record<void params>::make();                       \
  extern "C" __attribute__((global)) void name params

#define AG_KERNEL_C(name, signature, params) \
  static_assert(false, "AG_KERNEL_C kernels are host-only: write AG_KERNEL for GPU targets")

/* The _block forms: HIP 5's atomics are device-wide, which a block-wide atomic may be. */
#define AGK_HIPRTC_BLOCK_ATOMIC(name)                    \
  template <typename T, typename... V>                   \
  AG_DEVICE auto name##_block(T* address, V... values) { \
    return name(address, values...);                     \
  }
AGK_HIPRTC_BLOCK_ATOMIC(atomicAdd)
AGK_HIPRTC_BLOCK_ATOMIC(atomicSub)
AGK_HIPRTC_BLOCK_ATOMIC(atomicExch)
AGK_HIPRTC_BLOCK_ATOMIC(atomicMin)
AGK_HIPRTC_BLOCK_ATOMIC(atomicMax)
AGK_HIPRTC_BLOCK_ATOMIC(atomicInc)
AGK_HIPRTC_BLOCK_ATOMIC(atomicDec)
AGK_HIPRTC_BLOCK_ATOMIC(atomicCAS)
AGK_HIPRTC_BLOCK_ATOMIC(atomicAnd)
AGK_HIPRTC_BLOCK_ATOMIC(atomicOr)
AGK_HIPRTC_BLOCK_ATOMIC(atomicXor)
#undef AGK_HIPRTC_BLOCK_ATOMIC

/* Flags between blocks (or the host): an acquiring load and a releasing store, device-wide. */
template <typename T>
AG_DEVICE T atomicLoad(const T* address) {
  return __hip_atomic_load(address, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
}
template <typename T, typename V>
AG_DEVICE void atomicStore(T* address, V value) {
  __hip_atomic_store(address, (T)value, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
}

/* The primitives warp_functions.h builds CUDA's _sync warp functions on (warp_gpu.h's amdgcn
 * ones, through HIP's functions: hiprtc 5.2's clang lacks __builtin_amdgcn_wavefrontsize and
 * __builtin_amdgcn_ballot_w64). */
typedef unsigned long long agk_lanes;
AG_DEVICE unsigned agk_warp_width() {
  return (unsigned)warpSize;
}
AG_DEVICE unsigned agk_lane_id() {
  return __lane_id();
}
AG_DEVICE unsigned agk_shfl_word(agk_lanes, unsigned value, unsigned lane) {
  return (unsigned)__builtin_amdgcn_ds_bpermute((int)(lane << 2), (int)value);
}
AG_DEVICE agk_lanes agk_ballot(agk_lanes, bool predicate) {
  return __ballot(predicate);
}
AG_DEVICE void agk_syncwarp(agk_lanes) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
AG_DEVICE agk_lanes agk_activemask() {
  return __builtin_amdgcn_read_exec();
}

#endif /* ANYGPU_DETAIL_KERNEL_HIPRTC_H */
