/* atomics_overloads.h — CUDA's atomic functions with CUDA's overload sets, on every target.
 * Included by atomics_host.h and atomics_gpu.h, which define, for their target, AG_DEVICE and the
 * operations agk_atomics::{add, sub, exch, fetch_min, fetch_max, fetch_and, fetch_or, fetch_xor,
 * inc, dec, cas} as templates <scope, T> over the scopes agk_atomics::block, device and system.
 *
 * Plain overloads, one per pointer type, as CUDA declares them: the value argument is never
 * deduced, so atomicAdd(&unsigned_counter, 1) adds an unsigned 1 and atomicAdd(&ull, 1) a 64-bit
 * one. Each function has CUDA's three forms: name (the device), name_block (the block) and
 * name_system (the device, its peers and the host). Beyond CUDA's sets, every integer function
 * also takes long and unsigned long (the dialect's int64_t and uint64_t on LP64 targets), and
 * atomicExch a double, as the dialect always offered. */
#ifndef ANYGPU_DETAIL_ATOMICS_OVERLOADS_H
#define ANYGPU_DETAIL_ATOMICS_OVERLOADS_H

#define AGK_ATOMIC_FORMS(T, name, op, params, args)      \
  AG_DEVICE T name params {                              \
    return agk_atomics::op<agk_atomics::device, T> args; \
  }                                                      \
  AG_DEVICE T name##_block params {                      \
    return agk_atomics::op<agk_atomics::block, T> args;  \
  }                                                      \
  AG_DEVICE T name##_system params {                     \
    return agk_atomics::op<agk_atomics::system, T> args; \
  }

#if defined(AGK_OPENCL)
/* C++ for OpenCL makes long long 128 bits wide, which SPIR-V cannot hold: a call on a long long
 * pointer stops the build with this message instead of an opaque translator error. */
#define AGK_ATOMIC_LONG_LONG_FORM(T, name, params)                                            \
  template <int N = 0>                                                                        \
  AG_DEVICE T name params {                                                                   \
    static_assert(N != 0,                                                                     \
                  "anygpu: on spir64 (C++ for OpenCL) long long is 128 bits: use int64_t or " \
                  "uint64_t (64 bits, as CUDA's long long), or a CUDA-syntax (.cu) source");  \
    return (T)0;                                                                              \
  }
#define AGK_ATOMIC_LONG_LONG(T, name, op, params, args) \
  AGK_ATOMIC_LONG_LONG_FORM(T, name, params)            \
  AGK_ATOMIC_LONG_LONG_FORM(T, name##_block, params)    \
  AGK_ATOMIC_LONG_LONG_FORM(T, name##_system, params)
#else
#define AGK_ATOMIC_LONG_LONG AGK_ATOMIC_FORMS
#endif

#define AGK_ATOMIC_VALUE(FORMS, name, op, T) \
  FORMS(T, name, op, (T * address, T value), (address, value))
#define AGK_ATOMIC_INTEGERS(name, op)                         \
  AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, name, op, int)           \
  AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, name, op, unsigned int)  \
  AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, name, op, long)          \
  AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, name, op, unsigned long) \
  AGK_ATOMIC_VALUE(AGK_ATOMIC_LONG_LONG, name, op, long long) \
  AGK_ATOMIC_VALUE(AGK_ATOMIC_LONG_LONG, name, op, unsigned long long)

AGK_ATOMIC_INTEGERS(atomicAdd, add)
AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, atomicAdd, add, float)
AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, atomicAdd, add, double)
AGK_ATOMIC_INTEGERS(atomicSub, sub)
AGK_ATOMIC_INTEGERS(atomicExch, exch)
AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, atomicExch, exch, float)
AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, atomicExch, exch, double)
AGK_ATOMIC_INTEGERS(atomicMin, fetch_min)
AGK_ATOMIC_INTEGERS(atomicMax, fetch_max)
AGK_ATOMIC_INTEGERS(atomicAnd, fetch_and)
AGK_ATOMIC_INTEGERS(atomicOr, fetch_or)
AGK_ATOMIC_INTEGERS(atomicXor, fetch_xor)
/* CUDA's wrap-around counters: atomicInc stores (old >= limit) ? 0 : old + 1, atomicDec
 * (old == 0 || old > limit) ? limit : old - 1. */
AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, atomicInc, inc, unsigned int)
AGK_ATOMIC_VALUE(AGK_ATOMIC_FORMS, atomicDec, dec, unsigned int)

#define AGK_ATOMIC_CAS(FORMS, T) \
  FORMS(T, atomicCAS, cas, (T * address, T compare, T value), (address, compare, value))
AGK_ATOMIC_CAS(AGK_ATOMIC_FORMS, unsigned short)
AGK_ATOMIC_CAS(AGK_ATOMIC_FORMS, int)
AGK_ATOMIC_CAS(AGK_ATOMIC_FORMS, unsigned int)
AGK_ATOMIC_CAS(AGK_ATOMIC_FORMS, long)
AGK_ATOMIC_CAS(AGK_ATOMIC_FORMS, unsigned long)
AGK_ATOMIC_CAS(AGK_ATOMIC_LONG_LONG, long long)
AGK_ATOMIC_CAS(AGK_ATOMIC_LONG_LONG, unsigned long long)

#endif /* ANYGPU_DETAIL_ATOMICS_OVERLOADS_H */
