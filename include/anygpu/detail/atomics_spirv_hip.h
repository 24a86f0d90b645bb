/* atomics_spirv_hip.h — the atomics of HIP-mode SPIR-V (.cu sources), by SPIR-V's own instruction
 * names, which llvm-spirv translates directly: device scope (1), relaxed (0), as CUDA's atomics.
 * Included by kernel_gpu.h; do not include directly. */
#ifndef ANYGPU_DETAIL_ATOMICS_SPIRV_HIP_H
#define ANYGPU_DETAIL_ATOMICS_SPIRV_HIP_H

#define AGK_SPIRV_DEVICE_SCOPE 1
#define AGK_SPIRV_RELAXED 0
#define AGK_SPIRV_DECLARE(T)                                                                  \
  __attribute__((device)) T __spirv_AtomicLoad(T*, int, int);                                 \
  __attribute__((device)) void __spirv_AtomicStore(T*, int, int, T);                          \
  __attribute__((device)) T __spirv_AtomicExchange(T*, int, int, T);                          \
  __attribute__((device)) T __spirv_AtomicCompareExchange(T*, int, int, int, T, T);           \
  __attribute__((device)) T __spirv_AtomicIAdd(T*, int, int, T);                              \
  __attribute__((device)) T __spirv_AtomicISub(T*, int, int, T);                              \
  __attribute__((device)) T __spirv_AtomicAnd(T*, int, int, T);                               \
  __attribute__((device)) T __spirv_AtomicOr(T*, int, int, T);                                \
  __attribute__((device)) T __spirv_AtomicXor(T*, int, int, T);                               \
  /* min and max take the signedness: AGK_SPIRV_MIN_MAX */                                    \
  AG_DEVICE T agk_spirv_load(T* p, int) {                                                     \
    return __spirv_AtomicLoad(p, AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_RELAXED);                  \
  }                                                                                           \
  AG_DEVICE void agk_spirv_store(T* p, T v, int) {                                            \
    __spirv_AtomicStore(p, AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_RELAXED, v);                     \
  }                                                                                           \
  AG_DEVICE T agk_spirv_exchange(T* p, T v, int) {                                            \
    return __spirv_AtomicExchange(p, AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_RELAXED, v);           \
  }                                                                                           \
  AG_DEVICE T agk_spirv_fetch_add(T* p, T v, int) {                                           \
    return __spirv_AtomicIAdd(p, AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_RELAXED, v);               \
  }                                                                                           \
  AG_DEVICE T agk_spirv_fetch_sub(T* p, T v, int) {                                           \
    return __spirv_AtomicISub(p, AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_RELAXED, v);               \
  }                                                                                           \
  AG_DEVICE bool agk_spirv_cas(T* p, T* expected, T desired) {                                \
    const T old = __spirv_AtomicCompareExchange(p, AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_RELAXED, \
                                                AGK_SPIRV_RELAXED, desired, *expected);       \
    const bool swapped = old == *expected;                                                    \
    *expected = old;                                                                          \
    return swapped;                                                                           \
  }
#define AGK_SPIRV_MIN_MAX(T, S)                                                     \
  __attribute__((device)) T __spirv_Atomic##S##Min(T*, int, int, T);                \
  __attribute__((device)) T __spirv_Atomic##S##Max(T*, int, int, T);                \
  AG_DEVICE T agk_spirv_fetch_min(T* p, T v, int) {                                 \
    return __spirv_Atomic##S##Min(p, AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_RELAXED, v); \
  }                                                                                 \
  AG_DEVICE T agk_spirv_fetch_max(T* p, T v, int) {                                 \
    return __spirv_Atomic##S##Max(p, AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_RELAXED, v); \
  }
#define AGK_SPIRV_INTEGER(T, S) AGK_SPIRV_DECLARE(T) AGK_SPIRV_MIN_MAX(T, S)
AGK_SPIRV_INTEGER(int, S)
AGK_SPIRV_INTEGER(unsigned int, U)
AGK_SPIRV_INTEGER(long, S)
AGK_SPIRV_INTEGER(unsigned long, U)
AGK_SPIRV_INTEGER(long long, S)
AGK_SPIRV_INTEGER(unsigned long long, U)
#undef AGK_SPIRV_INTEGER
#undef AGK_SPIRV_MIN_MAX
#undef AGK_SPIRV_DECLARE

#define AGK_ATOMIC_CALL(op, address, ...) agk_spirv_##op(address, __VA_ARGS__)
#define AGK_RELAXED 0
#define AGK_EXCHANGE exchange
#define AGK_LOAD load
#define AGK_STORE store
#define AGK_CAS(address, expected, desired) agk_spirv_cas(address, expected, desired)
/* OpMemoryBarrier, device scope: acquire 0x2 or release 0x4, on CrossWorkgroup memory 0x200. */
__attribute__((device)) void __spirv_MemoryBarrier(int, int);
#define AGK_FENCE(order) __spirv_MemoryBarrier(AGK_SPIRV_DEVICE_SCOPE, AGK_SPIRV_ORDER_##order)
#define AGK_SPIRV_ORDER_acquire 0x202
#define AGK_SPIRV_ORDER_release 0x204

/* Floats are added by a compare-and-swap loop on their bits, as in OpenCL mode. */
template <typename T>
struct agk_bits {
  using type = void;
};
template <>
struct agk_bits<float> {
  using type = unsigned int;
};
template <>
struct agk_bits<double> {
  using type = unsigned long;
};

#endif /* ANYGPU_DETAIL_ATOMICS_SPIRV_HIP_H */
