/* The parameter record of AG_KERNEL on GPU targets. PTX cannot tell a pointer from a 64-bit
 * integer (.param .u64 for both), so AG_KERNEL also emits, before the kernel, a device global
 * `anygpu_params_<name>` (extern "C", used, constant-initialised) that records the layout of the
 * user's parameters, computed here from their types. Little-endian 32-bit words:
 *   magic 0x50475941 ('AYGP'), version 1, count,
 *   then per parameter: size, alignment, kind (AG_PARAM_* of anygpu.h).
 * Offsets are not stored: they follow C rules (each parameter aligned to its alignment).
 * shim/code_object/kernel_params.h reads it from PTX and ELF code objects; docs/kernel-dialect.md.
 *
 * One definition for every GPU compiler: the includer may define AGK_PARAM_KIND(T), the kind of
 * parameter type T as a constant expression (default: clang's type-trait builtins), and
 * AGK_PARAM_RECORD_FUNCTION, the qualifier make() needs (default none; __device__ under NVRTC).
 * uint32_t must be declared. */
#ifndef ANYGPU_DETAIL_KERNEL_PARAM_RECORD_H
#define ANYGPU_DETAIL_KERNEL_PARAM_RECORD_H

#define AGK_PARAMS_MAGIC 0x50475941u
#define AGK_PARAMS_VERSION 1u

#ifndef AGK_PARAM_KIND
/* Clang's type-trait builtins: no <type_traits> on GPU targets. A pointer in any address space
 * (AG_GLOBAL) is a pointer. */
template <typename T>
constexpr uint32_t agk_param_kind() {
  if (__is_integral(T) || __is_enum(T)) return 1u; /* AG_PARAM_INTEGER: bool and char too */
  if (__is_floating_point(T)) return 2u;           /* AG_PARAM_FLOAT */
  if (__is_pointer(T)) return 3u;                  /* AG_PARAM_POINTER */
  return 4u;                                       /* AG_PARAM_STRUCT */
}
#define AGK_PARAM_KIND(T) agk_param_kind<T>()
#endif
#ifndef AGK_PARAM_RECORD_FUNCTION
#define AGK_PARAM_RECORD_FUNCTION
#endif

struct agk_param_entry {
  uint32_t size, alignment, kind;
};
template <unsigned N>
struct agk_param_words {
  uint32_t magic, version, count;
  agk_param_entry params[N];
};
template <>
struct agk_param_words<0> {
  uint32_t magic, version, count;
};
/* F is the kernel's function type, `void params`: the types come adjusted as for a call. */
template <typename F>
struct agk_param_record;
template <typename... P>
struct agk_param_record<void(P...)> {
  typedef agk_param_words<sizeof...(P)> type;
  static constexpr AGK_PARAM_RECORD_FUNCTION type make() {
    return {AGK_PARAMS_MAGIC,
            AGK_PARAMS_VERSION,
            sizeof...(P),
            {{sizeof(P), alignof(P), AGK_PARAM_KIND(P)}...}};
  }
};
template <>
struct agk_param_record<void()> {
  typedef agk_param_words<0> type;
  static constexpr AGK_PARAM_RECORD_FUNCTION type make() {
    return {AGK_PARAMS_MAGIC, AGK_PARAMS_VERSION, 0};
  }
};

#endif /* ANYGPU_DETAIL_KERNEL_PARAM_RECORD_H */
