/* atomics_nvptx_scopes.h — the block and system forms of CUDA's atomics on nvptx64. Included by
 * atomics_gpu.h inside namespace agk_atomics; do not include directly.
 *
 * LLVM 19 drops the scope of nvptx atomic instructions (clang's scoped builtins all become .gpu
 * atomics), so the block and system forms call the NVVM builtins that carry it (atom.cta.*,
 * atom.sys.*; sm_60 and later). They are typed by size, and by signedness for min and max:
 * nv_<op><Scope>(address, ...) is the one for the pointer's type. */
#ifndef ANYGPU_DETAIL_ATOMICS_NVPTX_SCOPES_H
#define ANYGPU_DETAIL_ATOMICS_NVPTX_SCOPES_H

#define AGK_NV_TYPE_i int
#define AGK_NV_TYPE_l long
#define AGK_NV_TYPE_ll long long
#define AGK_NV_TYPE_f float
#define AGK_NV_TYPE_d double
#define AGK_NV_CALL(op, suffix, ...)                                                   \
  if constexpr (Scope == block)                                                        \
    return (T)__nvvm_atom_cta_##op##_gen_##suffix((AGK_NV_TYPE_##suffix*)__VA_ARGS__); \
  else                                                                                 \
    return (T)__nvvm_atom_sys_##op##_gen_##suffix((AGK_NV_TYPE_##suffix*)__VA_ARGS__);
#define AGK_NV(op, T0, suffix)                                    \
  template <int Scope, typename T = T0>                           \
  AG_DEVICE T nv_##op(T0* address, T0 value) {                    \
    AGK_NV_CALL(op, suffix, address, (AGK_NV_TYPE_##suffix)value) \
  }
#define AGK_NV_CAS(T0, suffix)                                                                    \
  template <int Scope, typename T = T0>                                                           \
  AG_DEVICE T nv_cas(T0* address, T0 compare, T0 value) {                                         \
    AGK_NV_CALL(cas, suffix, address, (AGK_NV_TYPE_##suffix)compare, (AGK_NV_TYPE_##suffix)value) \
  }
/* Operations on bits: signed and unsigned alike. */
#define AGK_NV_BITS(op)        \
  AGK_NV(op, int, i)           \
  AGK_NV(op, unsigned int, i)  \
  AGK_NV(op, long, l)          \
  AGK_NV(op, unsigned long, l) \
  AGK_NV(op, long long, ll)    \
  AGK_NV(op, unsigned long long, ll)
/* Clang 19 lowers the unsigned min/max builtins (_gen_ui, _gen_ull) to signed instructions: the
 * unsigned forms are written in PTX. */
#define AGK_NV_UNSIGNED(op, T0, width, constraint)              \
  template <int Scope, typename T = T0>                         \
  AG_DEVICE T nv_##op(T0* address, T0 value) {                  \
    T old;                                                      \
    if constexpr (Scope == block)                               \
      asm volatile("atom.cta." #op ".u" #width " %0, [%1], %2;" \
                   : "=" constraint(old)                        \
                   : "l"(address), constraint(value)            \
                   : "memory");                                 \
    else                                                        \
      asm volatile("atom.sys." #op ".u" #width " %0, [%1], %2;" \
                   : "=" constraint(old)                        \
                   : "l"(address), constraint(value)            \
                   : "memory");                                 \
    return old;                                                 \
  }
#define AGK_NV_ORDERED(op)                    \
  AGK_NV(op, int, i)                          \
  AGK_NV_UNSIGNED(op, unsigned int, 32, "r")  \
  AGK_NV(op, long, l)                         \
  AGK_NV_UNSIGNED(op, unsigned long, 64, "l") \
  AGK_NV(op, long long, ll)                   \
  AGK_NV_UNSIGNED(op, unsigned long long, 64, "l")
AGK_NV_BITS(add)
AGK_NV(add, float, f)
AGK_NV(add, double, d)
AGK_NV_BITS(xchg)
AGK_NV_BITS(and)
AGK_NV_BITS(or)
AGK_NV_BITS(xor)
AGK_NV_ORDERED(min)
AGK_NV_ORDERED(max)
AGK_NV_CAS(int, i)
AGK_NV_CAS(unsigned int, i)
AGK_NV_CAS(long, l)
AGK_NV_CAS(unsigned long, l)
AGK_NV_CAS(long long, ll)
AGK_NV_CAS(unsigned long long, ll)

#endif /* ANYGPU_DETAIL_ATOMICS_NVPTX_SCOPES_H */
