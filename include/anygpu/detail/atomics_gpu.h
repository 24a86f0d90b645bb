/* atomics_gpu.h — CUDA's atomic functions on GPU targets. Included by kernel_gpu.h; do not include
 * directly. Each target below defines agk_atomics' operations (atomics_overloads.h declares the
 * CUDA functions on top of them), relaxed as CUDA's, and the fences of atomicLoad/atomicStore:
 *   - nvptx64 and amdgcn (clang-19 CUDA/HIP mode): clang's scoped atomic builtins, and the
 *     targets' own wrap-around increment and decrement;
 *   - spir64 as C++ for OpenCL (clang-15): OpenCL's atomic_*_explicit functions, which take
 *     pointers to atomic types; 64-bit integers use the Int64Atomics capability;
 *   - SPIR-V from HIP mode (clang-15 -x hip --offload=spirv64, AGK_SPIRV_HIP): the __spirv_Atomic*
 *     functions, which llvm-spirv turns into SPIR-V instructions (clang's __atomic builtins would
 *     become library calls there).
 * SPIR-V has no float add (without an extension), no wrap-around counters and no 16-bit atomics:
 * those are compare-and-swap loops, on the value's bits and on the 32-bit word holding a 16-bit
 * value. Scopes: block = work-group (PTX .cta), device = device (AMD agent, PTX .gpu), system =
 * AMD's system scope, PTX .sys (atomics_nvptx_scopes.h). In SPIR-V, system is device-scoped: when
 * the two forms sit on the two arms of a branch, LLVM merges them into one call with a selected
 * scope, which llvm-spirv 15 can only translate through a helper function that spirv-val rejects;
 * the same calls with the same scope merge cleanly. A branch choosing between a _block and another
 * form of one function has the same problem on SPIR-V: write two statements. */
#ifndef ANYGPU_DETAIL_ATOMICS_GPU_H
#define ANYGPU_DETAIL_ATOMICS_GPU_H

#if !defined(AGK_SPIRV_HIP) && defined(__HIP__) && defined(__SPIRV__)
#define AGK_SPIRV_HIP 1
#endif

namespace agk_atomics {

enum scope { block, device, system };

/* The unsigned integer of a float's size, for compare-and-swap loops on its bits. */
template <typename T>
struct bits_of {
  using type = T;
};
template <>
struct bits_of<float> {
  using type = unsigned int;
};
template <>
struct bits_of<double> {
  using type = unsigned long;
};

}  // namespace agk_atomics

#if defined(AGK_OPENCL)
/* ------------------------------------------ spir64, OpenCL ------------------------------------ */
namespace agk_atomics {

/* The atomic type OpenCL's functions take for T, and the value type they take with it. */
template <typename T>
struct cl_atomic;
#define AGK_CL_ATOMIC(T, A, V) \
  template <>                  \
  struct cl_atomic<T> {        \
    using type = volatile A;   \
    using value = V;           \
  };
AGK_CL_ATOMIC(int, atomic_int, int)
AGK_CL_ATOMIC(unsigned int, atomic_uint, unsigned int)
AGK_CL_ATOMIC(long, atomic_long, long)
AGK_CL_ATOMIC(unsigned long, atomic_ulong, unsigned long)
AGK_CL_ATOMIC(float, atomic_float, float)
AGK_CL_ATOMIC(double, atomic_double, double)
template <typename T>
AG_DEVICE typename cl_atomic<T>::type* as_atomic(T* address) {
  return (typename cl_atomic<T>::type*)address;
}
/* The system form is device-scoped here (see the top of this file). */
template <int Scope>
constexpr memory_scope cl_scope() {
  return Scope == block ? memory_scope_work_group : memory_scope_device;
}
#define AGK_CL_FETCH(name, function)                                            \
  template <int Scope, typename T>                                              \
  AG_DEVICE T name(T* address, T value) {                                       \
    return function(as_atomic<T>(address), (typename cl_atomic<T>::value)value, \
                    memory_order_relaxed, cl_scope<Scope>());                   \
  }
AGK_CL_FETCH(fetch_add_integer, atomic_fetch_add_explicit)
AGK_CL_FETCH(sub, atomic_fetch_sub_explicit)
AGK_CL_FETCH(exch, atomic_exchange_explicit)
AGK_CL_FETCH(fetch_min, atomic_fetch_min_explicit)
AGK_CL_FETCH(fetch_max, atomic_fetch_max_explicit)
AGK_CL_FETCH(fetch_and, atomic_fetch_and_explicit)
AGK_CL_FETCH(fetch_or, atomic_fetch_or_explicit)
AGK_CL_FETCH(fetch_xor, atomic_fetch_xor_explicit)
template <int Scope, typename T>
AG_DEVICE T load_relaxed(T* address) {
  return atomic_load_explicit(as_atomic<T>(address), memory_order_relaxed, cl_scope<Scope>());
}
template <int Scope, typename T>
AG_DEVICE void store_relaxed(T* address, T value) {
  atomic_store_explicit(as_atomic<T>(address), (typename cl_atomic<T>::value)value,
                        memory_order_relaxed, cl_scope<Scope>());
}
/* Replaces *address by desired if it holds expected; expected receives the old value. */
template <int Scope, typename T>
AG_DEVICE bool try_replace(T* address, T& expected, T desired) {
  typename cl_atomic<T>::value old = expected;
  const bool replaced = atomic_compare_exchange_strong_explicit(
      as_atomic<T>(address), &old, (typename cl_atomic<T>::value)desired, memory_order_relaxed,
      memory_order_relaxed, cl_scope<Scope>());
  expected = (T)old;
  return replaced;
}
#define AGK_ACQUIRE_FENCE() \
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device)
#define AGK_RELEASE_FENCE() \
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device)

}  // namespace agk_atomics

#elif defined(AGK_SPIRV_HIP)
/* --------------------------------- SPIR-V from HIP mode --------------------------------------- */
/* llvm-spirv translates calls to these (C++-mangled) names into the SPIR-V instructions. The
 * arguments after the pointer: scope (0 CrossDevice, 1 Device, 2 Workgroup), memory semantics
 * (0 relaxed), then the values. */
#define AGK_SPIRV_DECLARE(T)                                         \
  __attribute__((device)) T __spirv_AtomicLoad(T*, int, int);        \
  __attribute__((device)) void __spirv_AtomicStore(T*, int, int, T); \
  __attribute__((device)) T __spirv_AtomicExchange(T*, int, int, T); \
  __attribute__((device)) T __spirv_AtomicCompareExchange(T*, int, int, int, T, T);
#define AGK_SPIRV_DECLARE_INTEGER(T, S)                                     \
  AGK_SPIRV_DECLARE(T)                                                      \
  __attribute__((device)) T __spirv_AtomicIAdd(T*, int, int, T);            \
  __attribute__((device)) T __spirv_AtomicISub(T*, int, int, T);            \
  __attribute__((device)) T __spirv_Atomic##S##Min(T*, int, int, T);        \
  __attribute__((device)) T __spirv_Atomic##S##Max(T*, int, int, T);        \
  __attribute__((device)) T __spirv_AtomicAnd(T*, int, int, T);             \
  __attribute__((device)) T __spirv_AtomicOr(T*, int, int, T);              \
  __attribute__((device)) T __spirv_AtomicXor(T*, int, int, T);             \
  namespace agk_atomics {                                                   \
  template <int Scope>                                                      \
  AG_DEVICE T spirv_min(T* address, T value) {                              \
    return __spirv_Atomic##S##Min(address, spirv_scope<Scope>(), 0, value); \
  }                                                                         \
  template <int Scope>                                                      \
  AG_DEVICE T spirv_max(T* address, T value) {                              \
    return __spirv_Atomic##S##Max(address, spirv_scope<Scope>(), 0, value); \
  }                                                                         \
  }
namespace agk_atomics {
/* The system form is device-scoped here (see the top of this file). */
template <int Scope>
constexpr int spirv_scope() {
  return Scope == block ? 2 : 1;
}
}  // namespace agk_atomics
AGK_SPIRV_DECLARE_INTEGER(int, S)
AGK_SPIRV_DECLARE_INTEGER(unsigned int, U)
AGK_SPIRV_DECLARE_INTEGER(long, S)
AGK_SPIRV_DECLARE_INTEGER(unsigned long, U)
AGK_SPIRV_DECLARE_INTEGER(long long, S)
AGK_SPIRV_DECLARE_INTEGER(unsigned long long, U)
AGK_SPIRV_DECLARE(float)
AGK_SPIRV_DECLARE(double)
__attribute__((device)) void __spirv_MemoryBarrier(int, int);

namespace agk_atomics {
#define AGK_SPIRV_FETCH(name, instruction)                                 \
  template <int Scope, typename T>                                         \
  AG_DEVICE T name(T* address, T value) {                                  \
    return __spirv_##instruction(address, spirv_scope<Scope>(), 0, value); \
  }
AGK_SPIRV_FETCH(fetch_add_integer, AtomicIAdd)
AGK_SPIRV_FETCH(sub, AtomicISub)
AGK_SPIRV_FETCH(exch, AtomicExchange)
AGK_SPIRV_FETCH(fetch_and, AtomicAnd)
AGK_SPIRV_FETCH(fetch_or, AtomicOr)
AGK_SPIRV_FETCH(fetch_xor, AtomicXor)
/* SPIR-V's minimum and maximum say whether they compare signed or unsigned. */
template <int Scope, typename T>
AG_DEVICE T fetch_min(T* address, T value) {
  return spirv_min<Scope>(address, value);
}
template <int Scope, typename T>
AG_DEVICE T fetch_max(T* address, T value) {
  return spirv_max<Scope>(address, value);
}
template <int Scope, typename T>
AG_DEVICE T load_relaxed(T* address) {
  return __spirv_AtomicLoad(address, spirv_scope<Scope>(), 0);
}
template <int Scope, typename T>
AG_DEVICE void store_relaxed(T* address, T value) {
  __spirv_AtomicStore(address, spirv_scope<Scope>(), 0, value);
}
template <int Scope, typename T>
AG_DEVICE bool try_replace(T* address, T& expected, T desired) {
  const T old =
      __spirv_AtomicCompareExchange(address, spirv_scope<Scope>(), 0, 0, desired, expected);
  const bool replaced = old == expected;
  expected = old;
  return replaced;
}
/* Device-scope fences over workgroup and cross-workgroup memory (semantics 0x300 | order). */
#define AGK_ACQUIRE_FENCE() __spirv_MemoryBarrier(1, 0x302)
#define AGK_RELEASE_FENCE() __spirv_MemoryBarrier(1, 0x304)
}  // namespace agk_atomics

#else
/* ----------------------------- nvptx64 and amdgcn (clang-19) ---------------------------------- */
namespace agk_atomics {

template <int Scope>
constexpr int clang_scope() {
  return Scope == block    ? __MEMORY_SCOPE_WRKGRP
         : Scope == system ? __MEMORY_SCOPE_SYSTEM
                           : __MEMORY_SCOPE_DEVICE;
}
#if defined(__CUDA_ARCH__)
#include "atomics_nvptx_scopes.h"
/* The block and system forms of `call` on nvptx (atomics_nvptx_scopes.h). */
#define AGK_NV_SCOPED(call) \
  if constexpr (Scope != device) return call;
#else
#define AGK_NV_SCOPED(call)
#endif
#define AGK_CLANG_FETCH(name, builtin, nv_op)                               \
  template <int Scope, typename T>                                          \
  AG_DEVICE T name(T* address, T value) {                                   \
    AGK_NV_SCOPED(nv_op<Scope>(address, value))                             \
    return builtin(address, value, __ATOMIC_RELAXED, clang_scope<Scope>()); \
  }
AGK_CLANG_FETCH(add, __scoped_atomic_fetch_add, nv_add)
AGK_CLANG_FETCH(fetch_min, __scoped_atomic_fetch_min, nv_min)
AGK_CLANG_FETCH(fetch_max, __scoped_atomic_fetch_max, nv_max)
AGK_CLANG_FETCH(fetch_and, __scoped_atomic_fetch_and, nv_and)
AGK_CLANG_FETCH(fetch_or, __scoped_atomic_fetch_or, nv_or)
AGK_CLANG_FETCH(fetch_xor, __scoped_atomic_fetch_xor, nv_xor)
template <int Scope, typename T>
AG_DEVICE T sub(T* address, T value) {
  T negated;  // wraps as the subtraction does
  __builtin_sub_overflow((T)0, value, &negated);
  AGK_NV_SCOPED(nv_add<Scope>(address, negated))
  return __scoped_atomic_fetch_sub(address, value, __ATOMIC_RELAXED, clang_scope<Scope>());
}
template <int Scope, typename T>
AG_DEVICE T exch(T* address, T value) {
  using bits [[maybe_unused]] = typename bits_of<T>::type;  // used on nvptx only
  AGK_NV_SCOPED(
      __builtin_bit_cast(T, nv_xchg<Scope>((bits*)address, __builtin_bit_cast(bits, value))))
  T old;
  __scoped_atomic_exchange(address, &value, &old, __ATOMIC_RELAXED, clang_scope<Scope>());
  return old;
}
/* 16-bit values too: LLVM widens them to a loop on the 32-bit word (on nvptx a .gpu one). */
template <int Scope, typename T>
AG_DEVICE T cas(T* address, T compare, T value) {
  if constexpr (sizeof(T) >= 4) {
    AGK_NV_SCOPED(nv_cas<Scope>(address, compare, value))
  }
  __scoped_atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED, clang_scope<Scope>());
  return compare;
}
/* The wrap-around counters are instructions on both (atom.inc/dec, *_atomic_inc/dec). */
#if defined(__CUDA_ARCH__)
#define AGK_WRAP(name, op)                                                               \
  template <int Scope, typename T>                                                       \
  AG_DEVICE T name(T* address, T limit) {                                                \
    if constexpr (Scope == block) return __nvvm_atom_cta_##op##_gen_ui(address, limit);  \
    if constexpr (Scope == system) return __nvvm_atom_sys_##op##_gen_ui(address, limit); \
    return __nvvm_atom_##op##_gen_ui(address, limit);                                    \
  }
#else
#define AGK_WRAP(name, op)                                                                    \
  template <int Scope, typename T>                                                            \
  AG_DEVICE T name(T* address, T limit) {                                                     \
    if constexpr (Scope == block)                                                             \
      return __builtin_amdgcn_atomic_##op##32(address, limit, __ATOMIC_RELAXED, "workgroup"); \
    if constexpr (Scope == system)                                                            \
      return __builtin_amdgcn_atomic_##op##32(address, limit, __ATOMIC_RELAXED, "");          \
    return __builtin_amdgcn_atomic_##op##32(address, limit, __ATOMIC_RELAXED, "agent");       \
  }
#endif
AGK_WRAP(inc, inc)
AGK_WRAP(dec, dec)

template <int Scope, typename T>
AG_DEVICE T load_relaxed(T* address) {
  return __scoped_atomic_load_n(address, __ATOMIC_RELAXED, clang_scope<Scope>());
}
template <int Scope, typename T>
AG_DEVICE void store_relaxed(T* address, T value) {
  __scoped_atomic_store_n(address, value, __ATOMIC_RELAXED, clang_scope<Scope>());
}
#if defined(__CUDA_ARCH__)
/* LLVM 19 selects no acquire or release on nvptx: CUDA's __threadfence() (membar.gl) instead. */
#define AGK_ACQUIRE_FENCE() __nvvm_membar_gl()
#define AGK_RELEASE_FENCE() __nvvm_membar_gl()
#else
#define AGK_ACQUIRE_FENCE() __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent")
#define AGK_RELEASE_FENCE() __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent")
#endif

}  // namespace agk_atomics
#endif

#if defined(AGK_OPENCL) || defined(AGK_SPIRV_HIP)
/* ------------------------ SPIR-V: compare-and-swap loops on top of try_replace ---------------- */
namespace agk_atomics {

/* old = *address; *address = next(old) atomically; returns old. */
template <int Scope, typename T, typename Next>
AG_DEVICE T update(T* address, Next next) {
  T old = load_relaxed<Scope, T>(address);
  while (!try_replace<Scope, T>(address, old, next(old))) {
  }
  return old;
}
template <int Scope, typename T>
AG_DEVICE T add(T* address, T value) {
  using bits = typename bits_of<T>::type;
  if constexpr (__is_same(bits, T)) {
    return fetch_add_integer<Scope, T>(address, value);
  } else {
    const bits old = update<Scope, bits>((bits*)address, [value](bits old_bits) {
      return __builtin_bit_cast(bits, __builtin_bit_cast(T, old_bits) + value);
    });
    return __builtin_bit_cast(T, old);
  }
}
template <int Scope, typename T>
AG_DEVICE T inc(T* address, T limit) {
  return update<Scope, T>(address, [limit](T old) { return old >= limit ? T(0) : T(old + 1); });
}
template <int Scope, typename T>
AG_DEVICE T dec(T* address, T limit) {
  return update<Scope, T>(address,
                          [limit](T old) { return old == 0 || old > limit ? limit : T(old - 1); });
}
template <int Scope, typename T>
AG_DEVICE T cas(T* address, T compare, T value) {
  if constexpr (sizeof(T) >= 4) {
    try_replace<Scope, T>(address, compare, value);
    return compare;
  } else {
    /* A 16-bit value: compare-and-swap the aligned 32-bit word that holds it (little-endian). */
    const unsigned long offset = (unsigned long)address & 3ul;
    unsigned int* word = (unsigned int*)((unsigned long)address - offset);
    const unsigned int shift = (unsigned int)offset * 8u, mask = 0xffffu << shift;
    unsigned int old = load_relaxed<Scope, unsigned int>(word);
    for (;;) {
      const T current = (T)((old & mask) >> shift);
      if (current != compare) return current;
      if (try_replace<Scope, unsigned int>(word, old,
                                           (old & ~mask) | ((unsigned int)value << shift)))
        return current;
    }
  }
}

}  // namespace agk_atomics
#endif

#include "atomics_overloads.h"

/* Flags between threads of different blocks (or the host): an acquiring load and a releasing
 * store, device-wide. The value type is the pointer's, without its address space. */
#if defined(AGK_OPENCL)
template <typename P>
using agk_value = typename __remove_address_space<P>::type;
#else
template <typename P>
using agk_value = P;
#endif
template <typename P>
AG_DEVICE agk_value<P> atomicLoad(const P* address) {
  agk_value<P> value =
      agk_atomics::load_relaxed<agk_atomics::device, agk_value<P> >((agk_value<P>*)address);
  AGK_ACQUIRE_FENCE();
  return value;
}
template <typename P>
AG_DEVICE void atomicStore(P* address, agk_value<P> value) {
  AGK_RELEASE_FENCE();
  agk_atomics::store_relaxed<agk_atomics::device, agk_value<P> >((agk_value<P>*)address, value);
}

#endif /* ANYGPU_DETAIL_ATOMICS_GPU_H */
