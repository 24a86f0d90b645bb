/* half_atomics.h — atomicAdd on __half, __half2, __nv_bfloat16 and __nv_bfloat162 (cuda_fp16.h's
 * and cuda_bf16.h's: CUDA has no _block or _system forms of them), on every target: a
 * compare-and-swap loop on the aligned 32-bit word that holds the value, the sum rounded as
 * __hadd rounds it. A pair is updated as one word (CUDA promises atomicity per lane only; one word
 * is more). A scalar leaves the other half of its word as it finds it, so neighbours in an array
 * are updated independently. Each returns the value it replaced.
 *
 * Included by anygpu/kernel.h and anygpu/half.h, whichever comes second (it needs both the
 * 16-bit types and atomicCAS); do not include directly. Under NVRTC the toolkit's headers have
 * their own. */
#ifndef ANYGPU_DETAIL_HALF_ATOMICS_H
#define ANYGPU_DETAIL_HALF_ATOMICS_H

/* The 32-bit word holding the 16 bits at `address`, and where they sit in it. */
#define AGH_WORD_OF(address) \
  ((unsigned int*)((char*)(address) - ((__UINTPTR_TYPE__)(address) & 2u)))
#define AGH_SHIFT_OF(address) (((__UINTPTR_TYPE__)(address) & 2u) ? 16u : 0u)

/* One scalar: T the type, F its format (half_formats.h), CAS the compare-and-swap. */
#define AGH_SCALAR_ATOMIC_ADD(name, CAS, T, F)                                                  \
  AG_DEVICE T name(T* address, T value) {                                                       \
    unsigned int* const word = AGH_WORD_OF(address);                                            \
    const unsigned int shift = AGH_SHIFT_OF(address);                                           \
    unsigned int old = atomicLoad(word), assumed;                                               \
    do {                                                                                        \
      assumed = old;                                                                            \
      const unsigned short sum = F::add((unsigned short)(assumed >> shift), value.__x);         \
      old = CAS(word, assumed, (assumed & ~(0xFFFFu << shift)) | ((unsigned int)sum << shift)); \
    } while (old != assumed);                                                                   \
    T previous;                                                                                 \
    previous.__x = (unsigned short)(old >> shift);                                              \
    return previous;                                                                            \
  }
/* One pair: both lanes in the one word. */
#define AGH_PAIR_ATOMIC_ADD(name, CAS, T2, F)                                         \
  AG_DEVICE T2 name(T2* address, T2 value) {                                          \
    unsigned int* const word = (unsigned int*)address;                                \
    unsigned int old = atomicLoad(word), assumed;                                     \
    do {                                                                              \
      assumed = old;                                                                  \
      const unsigned int low = F::add((unsigned short)assumed, value.x.__x);          \
      const unsigned int high = F::add((unsigned short)(assumed >> 16), value.y.__x); \
      old = CAS(word, assumed, low | high << 16);                                     \
    } while (old != assumed);                                                         \
    T2 previous;                                                                      \
    previous.x.__x = (unsigned short)old;                                             \
    previous.y.__x = (unsigned short)(old >> 16);                                     \
    return previous;                                                                  \
  }
AGH_SCALAR_ATOMIC_ADD(atomicAdd, atomicCAS, __half, agh_fp16)
AGH_SCALAR_ATOMIC_ADD(atomicAdd, atomicCAS, __nv_bfloat16, agh_bf16)
AGH_PAIR_ATOMIC_ADD(atomicAdd, atomicCAS, __half2, agh_fp16)
AGH_PAIR_ATOMIC_ADD(atomicAdd, atomicCAS, __nv_bfloat162, agh_bf16)
#undef AGH_PAIR_ATOMIC_ADD
#undef AGH_SCALAR_ATOMIC_ADD
#undef AGH_SHIFT_OF
#undef AGH_WORD_OF

#endif /* ANYGPU_DETAIL_HALF_ATOMICS_H */
