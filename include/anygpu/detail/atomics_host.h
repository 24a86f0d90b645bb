/* atomics_host.h — CUDA's atomic functions on the host target (C++ kernels).
 * Included by kernel_host.h; do not include directly.
 *
 * Blocks run concurrently on several workers, so these are real atomics, relaxed as CUDA's, with
 * GCC's __atomic builtins (the host compiler may be GCC or clang). The three scopes are one: a
 * CPU atomic is coherent with every thread of the process (block and device included), and the
 * host's memory is the system's. Where the barrier pass runs a block as loops on one OS thread,
 * it makes atomics on the block's shared memory plain read-modify-writes
 * (loaders/cpu/barrier_pass/block_local_atomics.cpp): every form here compiles to an atomicrmw,
 * or to an atomic load and a cmpxchg loop, which it recognises. */
#ifndef ANYGPU_DETAIL_ATOMICS_HOST_H
#define ANYGPU_DETAIL_ATOMICS_HOST_H

#include <type_traits>

namespace agk_atomics {

enum scope { block, device, system };

template <typename T>
inline T load(T* address) {
  T value;
  __atomic_load(address, &value, __ATOMIC_RELAXED);  // GCC's __atomic_load_n takes no floats
  return value;
}

/* old = *address; *address = next(old) atomically; returns old. */
template <typename T, typename Next>
inline T update(T* address, Next next) {
  T old = load(address);
  T desired = next(old);
  while (
      !__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    desired = next(old);
  return old;
}

template <int Scope, typename T>
inline T add(T* address, T value) {
  if constexpr (std::is_floating_point<T>::value)
    return update(address, [value](T old) { return old + value; });
  else
    return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}
template <int Scope, typename T>
inline T sub(T* address, T value) {
  return __atomic_fetch_sub(address, value, __ATOMIC_RELAXED);
}
template <int Scope, typename T>
inline T exch(T* address, T value) {
  T old;
  __atomic_exchange(address, &value, &old, __ATOMIC_RELAXED);
  return old;
}
/* No store where the value would not change, as on a GPU. */
template <int Scope, typename T>
inline T fetch_min(T* address, T value) {
  T old = load(address);
  while (value < old && !__atomic_compare_exchange_n(address, &old, value, true, __ATOMIC_RELAXED,
                                                     __ATOMIC_RELAXED)) {
  }
  return old;
}
template <int Scope, typename T>
inline T fetch_max(T* address, T value) {
  T old = load(address);
  while (value > old && !__atomic_compare_exchange_n(address, &old, value, true, __ATOMIC_RELAXED,
                                                     __ATOMIC_RELAXED)) {
  }
  return old;
}
template <int Scope, typename T>
inline T fetch_and(T* address, T value) {
  return __atomic_fetch_and(address, value, __ATOMIC_RELAXED);
}
template <int Scope, typename T>
inline T fetch_or(T* address, T value) {
  return __atomic_fetch_or(address, value, __ATOMIC_RELAXED);
}
template <int Scope, typename T>
inline T fetch_xor(T* address, T value) {
  return __atomic_fetch_xor(address, value, __ATOMIC_RELAXED);
}
template <int Scope, typename T>
inline T inc(T* address, T limit) {
  return update(address, [limit](T old) { return old >= limit ? T(0) : T(old + 1); });
}
template <int Scope, typename T>
inline T dec(T* address, T limit) {
  return update(address, [limit](T old) { return old == 0 || old > limit ? limit : T(old - 1); });
}
template <int Scope, typename T>
inline T cas(T* address, T compare, T value) {
  __atomic_compare_exchange_n(address, &compare, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}

}  // namespace agk_atomics

#include "atomics_overloads.h"

/* Flags between blocks (or the host): an acquiring load and a releasing store. */
template <typename T>
AG_DEVICE T atomicLoad(const T* address) {
  return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}
template <typename T>
AG_DEVICE void atomicStore(T* address, std::remove_cv_t<T> value) {  // value not deduced
  __atomic_store_n(address, value, __ATOMIC_RELEASE);
}

#endif /* ANYGPU_DETAIL_ATOMICS_HOST_H */
