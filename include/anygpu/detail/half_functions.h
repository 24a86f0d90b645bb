/* half_functions.h — the functions and operators of cuda_fp16.h and cuda_bf16.h over the types of
 * half_types.h: conversions (the directed roundings __float2half_rz, _rd, _ru too), arithmetic
 * (__hadd ... __hfma, their _rn and _sat forms, the pair forms __hadd2 ...), comparisons (__heq
 * ... __hgtu, __hmax, __hmin, the pair forms returning a pair or a bool), and the C++ operators.
 * Included by anygpu/half.h; do not include directly. __hadd & co are overloaded for __half and
 * __nv_bfloat16 as in CUDA; the integer __hadd(int, int) is in bit_intrinsics.h. The math
 * functions (hsqrt, hexp, ...) are in half_math.h. */
#ifndef ANYGPU_DETAIL_HALF_FUNCTIONS_H
#define ANYGPU_DETAIL_HALF_FUNCTIONS_H

#include "../vector_types.h"
#include "half_types.h"

template <typename T>
AGH_FUNCTION T agh_from_bits(unsigned short bits) {
  T value;
  value.__x = bits;
  return value;
}

/* ---------------------------------- conversions ------------------------------------------------
 */
AGH_FUNCTION __half __float2half(float a) {
  return __half(a);
}
AGH_FUNCTION __half __float2half_rn(float a) {
  return __half(a);
}
AGH_FUNCTION __half __double2half(double a) {
  return __half(a);
}
AGH_FUNCTION float __half2float(__half a) {
  return agh_fp16::to_float(a.__x);
}
AGH_FUNCTION __half __int2half_rn(int a) {
  return __half(a);
}
AGH_FUNCTION __half __uint2half_rn(unsigned int a) {
  return __half(a);
}
AGH_FUNCTION __half __short2half_rn(short a) {
  return __half(a);
}
AGH_FUNCTION __half __ushort2half_rn(unsigned short a) {
  return __half(a);
}
AGH_FUNCTION __half __ll2half_rn(agh_i64 a) {
  return __half(a);
}
AGH_FUNCTION __half __ull2half_rn(agh_u64 a) {
  return __half(a);
}
AGH_FUNCTION __half2 __float2half2_rn(float a) {
  return __half2(__half(a), __half(a));
}
AGH_FUNCTION __half2 __floats2half2_rn(float a, float b) {
  return __half2(__half(a), __half(b));
}
AGH_FUNCTION __half2 __float22half2_rn(float2 a) {
  return __half2(__half(a.x), __half(a.y));
}
AGH_FUNCTION float2 __half22float2(__half2 a) {
  return make_float2(__half2float(a.x), __half2float(a.y));
}
AGH_FUNCTION __half2 make_half2(__half x, __half y) {
  return __half2(x, y);
}
AGH_FUNCTION __half2 __halves2half2(__half a, __half b) {
  return __half2(a, b);
}
AGH_FUNCTION __half2 __half2half2(__half a) {
  return __half2(a, a);
}
AGH_FUNCTION short __half_as_short(__half h) {
  return (short)h.__x;
}
AGH_FUNCTION unsigned short __half_as_ushort(__half h) {
  return h.__x;
}
AGH_FUNCTION __half __short_as_half(short i) {
  return agh_from_bits<__half>((unsigned short)i);
}
AGH_FUNCTION __half __ushort_as_half(unsigned short i) {
  return agh_from_bits<__half>(i);
}

AGH_FUNCTION __nv_bfloat16 __float2bfloat16(float a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION __nv_bfloat16 __float2bfloat16_rn(float a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION __nv_bfloat16 __double2bfloat16(double a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION float __bfloat162float(__nv_bfloat16 a) {
  return agh_bf16::to_float(a.__x);
}
AGH_FUNCTION __nv_bfloat16 __int2bfloat16_rn(int a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION __nv_bfloat16 __uint2bfloat16_rn(unsigned int a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION __nv_bfloat16 __short2bfloat16_rn(short a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION __nv_bfloat16 __ushort2bfloat16_rn(unsigned short a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION __nv_bfloat16 __ll2bfloat16_rn(agh_i64 a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION __nv_bfloat16 __ull2bfloat16_rn(agh_u64 a) {
  return __nv_bfloat16(a);
}
AGH_FUNCTION __nv_bfloat162 __float2bfloat162_rn(float a) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(a));
}
AGH_FUNCTION __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
AGH_FUNCTION __nv_bfloat162 __float22bfloat162_rn(float2 a) {
  return __nv_bfloat162(__nv_bfloat16(a.x), __nv_bfloat16(a.y));
}
AGH_FUNCTION float2 __bfloat1622float2(__nv_bfloat162 a) {
  return make_float2(__bfloat162float(a.x), __bfloat162float(a.y));
}
AGH_FUNCTION __nv_bfloat162 make_bfloat162(__nv_bfloat16 x, __nv_bfloat16 y) {
  return __nv_bfloat162(x, y);
}
AGH_FUNCTION __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
AGH_FUNCTION __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) {
  return __nv_bfloat162(a, a);
}
AGH_FUNCTION short __bfloat16_as_short(__nv_bfloat16 h) {
  return (short)h.__x;
}
AGH_FUNCTION unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
  return h.__x;
}
AGH_FUNCTION __nv_bfloat16 __short_as_bfloat16(short i) {
  return agh_from_bits<__nv_bfloat16>((unsigned short)i);
}
AGH_FUNCTION __nv_bfloat16 __ushort_as_bfloat16(unsigned short i) {
  return agh_from_bits<__nv_bfloat16>(i);
}

/* Functions the inliner may leave out of line are internal to each module (static): the SPIR-V
 * image links C++ for OpenCL modules (AG_KERNEL sources) with HIP-mode ones (CUDA sources), where
 * one name returning these structs has two signatures (the result's pointer is private in one,
 * generic in the other); llvm-link would make one a cast of the other, which llvm-spirv cannot
 * translate. */
#define AGH_LOCAL_FUNCTION static AGH_FUNCTION

/* float to 16 bits rounded toward zero (direction 0), down (-1) or up (+1), as CUDA's _rz, _rd and
 * _ru conversions: the nearest value, moved one step where it lies on the wrong side of the float
 * (the comparison is exact: both are floats). The bits are ordered as the magnitudes, so a step is
 * +-1 on them, and the ends come out as IEEE's directed roundings give them: toward zero 1e5f is
 * 65504, not infinity (one step down from it); up, 1e-30f is the smallest subnormal (one step up
 * from +0); a NaN compares false and stays the canonical NaN. */
template <typename Format>
AGH_LOCAL_FUNCTION unsigned short agh_round_directed(float value, int direction) {
  const unsigned short nearest = Format::round(value);
  const float back = Format::to_float(nearest);
  const int toward_plus = (nearest & 0x8000u) ? -1 : 1; /* the step on the bits that moves up */
  if (direction > 0 && back < value) return (unsigned short)(nearest + toward_plus);
  if (direction < 0 && back > value) return (unsigned short)(nearest - toward_plus);
  if (direction == 0 && __builtin_fabsf(back) > __builtin_fabsf(value))
    return (unsigned short)(nearest - 1); /* a smaller magnitude, the same sign */
  return nearest;
}
AGH_LOCAL_FUNCTION __half __float2half_rz(float a) {
  return agh_from_bits<__half>(agh_round_directed<agh_fp16>(a, 0));
}
AGH_LOCAL_FUNCTION __half __float2half_rd(float a) {
  return agh_from_bits<__half>(agh_round_directed<agh_fp16>(a, -1));
}
AGH_LOCAL_FUNCTION __half __float2half_ru(float a) {
  return agh_from_bits<__half>(agh_round_directed<agh_fp16>(a, 1));
}
AGH_LOCAL_FUNCTION __nv_bfloat16 __float2bfloat16_rz(float a) {
  return agh_from_bits<__nv_bfloat16>(agh_round_directed<agh_bf16>(a, 0));
}
AGH_LOCAL_FUNCTION __nv_bfloat16 __float2bfloat16_rd(float a) {
  return agh_from_bits<__nv_bfloat16>(agh_round_directed<agh_bf16>(a, -1));
}
AGH_LOCAL_FUNCTION __nv_bfloat16 __float2bfloat16_ru(float a) {
  return agh_from_bits<__nv_bfloat16>(agh_round_directed<agh_bf16>(a, 1));
}

/* To an integer in CUDA's roundings (_rn to nearest even, _rz toward zero, _rd down, _ru up): the
 * float rounded to an integer (exact: it holds every 16-bit value), then NaN gives 0
 * (0x8000000000000000 for the 64-bit ones, as CUDA documents) and a value beyond the integer's
 * range the range's nearest end. */
#define AGH_TO_INTEGER(name, T, F, R, lowest, highest, nan_result, round) \
  AGH_FUNCTION R name(T h) {                                              \
    const float f = round(F::to_float(h.__x));                            \
    if (f != f) return nan_result;                                        \
    if (f <= (float)(lowest)) return lowest;                              \
    if (f >= (float)(highest)) return highest;                            \
    return (R)f;                                                          \
  }
#define AGH_TO_INTEGER_ROUNDINGS(prefix, T, F, R, lowest, highest, nan_result)        \
  AGH_TO_INTEGER(prefix##_rn, T, F, R, lowest, highest, nan_result, __builtin_rintf)  \
  AGH_TO_INTEGER(prefix##_rz, T, F, R, lowest, highest, nan_result, __builtin_truncf) \
  AGH_TO_INTEGER(prefix##_rd, T, F, R, lowest, highest, nan_result, __builtin_floorf) \
  AGH_TO_INTEGER(prefix##_ru, T, F, R, lowest, highest, nan_result, __builtin_ceilf)
#define AGH_TO_INTEGERS(T, F, int_, uint_, short_, ushort_, ll_, ull_, char_, uchar_)           \
  AGH_TO_INTEGER_ROUNDINGS(int_, T, F, int, -2147483647 - 1, 2147483647, 0)                     \
  AGH_TO_INTEGER_ROUNDINGS(uint_, T, F, unsigned int, 0u, 4294967295u, 0u)                      \
  AGH_TO_INTEGER_ROUNDINGS(short_, T, F, short, (short)-32768, (short)32767, (short)0)          \
  AGH_TO_INTEGER_ROUNDINGS(ushort_, T, F, unsigned short, (unsigned short)0,                    \
                           (unsigned short)65535, (unsigned short)0)                            \
  AGH_TO_INTEGER_ROUNDINGS(ll_, T, F, agh_i64, (agh_i64)(-9223372036854775807 - 1),             \
                           (agh_i64)9223372036854775807, (agh_i64)(-9223372036854775807 - 1))   \
  AGH_TO_INTEGER_ROUNDINGS(ull_, T, F, agh_u64, (agh_u64)0, (agh_u64)18446744073709551615u,     \
                           (agh_u64)0x8000000000000000u)                                        \
  AGH_TO_INTEGER(char_, T, F, signed char, (signed char)-128, (signed char)127, (signed char)0, \
                 __builtin_truncf)                                                              \
  AGH_TO_INTEGER(uchar_, T, F, unsigned char, (unsigned char)0, (unsigned char)255,             \
                 (unsigned char)0, __builtin_truncf)
AGH_TO_INTEGERS(__half, agh_fp16, __half2int, __half2uint, __half2short, __half2ushort, __half2ll,
                __half2ull, __half2char_rz, __half2uchar_rz)
AGH_TO_INTEGERS(__nv_bfloat16, agh_bf16, __bfloat162int, __bfloat162uint, __bfloat162short,
                __bfloat162ushort, __bfloat162ll, __bfloat162ull, __bfloat162char_rz,
                __bfloat162uchar_rz)
#undef AGH_TO_INTEGERS
#undef AGH_TO_INTEGER_ROUNDINGS
#undef AGH_TO_INTEGER

/* An integer to 16 bits rounded toward zero (direction 0), down (-1) or up (+1), as CUDA's
 * __int2half_rz & co: the nearest value, moved one step where it lies on the wrong side of the
 * integer. The comparison is exact: the nearest value of an integer is an integer (below 2^11 the
 * formats hold every integer, above it their spacing is 2 or more), or at least 2^64, or infinity.
 * A step of +1 on the bits moves away from zero. */
template <typename Format>
AGH_LOCAL_FUNCTION unsigned short agh_integer_directed(unsigned short nearest, bool negative,
                                                       agh_u64 magnitude, int direction) {
  const float back = __builtin_fabsf(Format::to_float(nearest));
  const int above = back >= 0x1p64f             ? 1
                    : (agh_u64)back > magnitude ? 1
                    : (agh_u64)back < magnitude ? -1
                                                : 0;
  const bool away_from_zero = direction != 0 && (direction > 0) != negative;
  if (away_from_zero && above < 0) return (unsigned short)(nearest + 1);
  if (!away_from_zero && above > 0) return (unsigned short)(nearest - 1);
  return nearest;
}
/* The sign and magnitude of an integer, for agh_integer_directed. */
struct agh_integer_parts {
  bool negative;
  agh_u64 magnitude;
};
AGH_FUNCTION agh_integer_parts agh_parts_of(agh_i64 value) {
  return agh_integer_parts{value < 0, value < 0 ? 0u - (agh_u64)value : (agh_u64)value};
}
AGH_FUNCTION agh_integer_parts agh_parts_of(agh_u64 value) {
  return agh_integer_parts{false, value};
}

/* name: the conversion from integer type A (through W, agh_i64 or agh_u64, which holds it) to T
 * in `direction` (0 toward zero, -1 down, +1 up). */
#define AGH_FROM_INTEGER(name, T, F, A, W, direction)                                      \
  AGH_LOCAL_FUNCTION T name(A a) {                                                         \
    const agh_integer_parts parts = agh_parts_of((W)a);                                    \
    return agh_from_bits<T>(                                                               \
        agh_integer_directed<F>(T((W)a).__x, parts.negative, parts.magnitude, direction)); \
  }
#define AGH_FROM_INTEGER_DIRECTED(prefix, T, F, A, W) \
  AGH_FROM_INTEGER(prefix##_rz, T, F, A, W, 0)        \
  AGH_FROM_INTEGER(prefix##_rd, T, F, A, W, -1)       \
  AGH_FROM_INTEGER(prefix##_ru, T, F, A, W, 1)
#define AGH_FROM_INTEGERS(T, F, int_, uint_, short_, ushort_, ll_, ull_) \
  AGH_FROM_INTEGER_DIRECTED(int_, T, F, int, agh_i64)                    \
  AGH_FROM_INTEGER_DIRECTED(uint_, T, F, unsigned int, agh_u64)          \
  AGH_FROM_INTEGER_DIRECTED(short_, T, F, short, agh_i64)                \
  AGH_FROM_INTEGER_DIRECTED(ushort_, T, F, unsigned short, agh_u64)      \
  AGH_FROM_INTEGER_DIRECTED(ll_, T, F, agh_i64, agh_i64)                 \
  AGH_FROM_INTEGER_DIRECTED(ull_, T, F, agh_u64, agh_u64)
AGH_FROM_INTEGERS(__half, agh_fp16, __int2half, __uint2half, __short2half, __ushort2half, __ll2half,
                  __ull2half)
AGH_FROM_INTEGERS(__nv_bfloat16, agh_bf16, __int2bfloat16, __uint2bfloat16, __short2bfloat16,
                  __ushort2bfloat16, __ll2bfloat16, __ull2bfloat16)
#undef AGH_FROM_INTEGERS
#undef AGH_FROM_INTEGER_DIRECTED
#undef AGH_FROM_INTEGER

/* ---------------------------------- per type: __half and __nv_bfloat16 -------------------------
 * T the scalar, T2 the pair, F the format; the names are CUDA's, overloaded on the type. */
#define AGH_ONE_TYPE(T, T2, F)                                                                   \
  /* the lanes of a pair */                                                                      \
  AGH_FUNCTION float __low2float(T2 a) {                                                         \
    return F::to_float(a.x.__x);                                                                 \
  }                                                                                              \
  AGH_FUNCTION float __high2float(T2 a) {                                                        \
    return F::to_float(a.y.__x);                                                                 \
  }                                                                                              \
  AGH_FUNCTION T __low2half(T2 a) {                                                              \
    return a.x;                                                                                  \
  }                                                                                              \
  AGH_FUNCTION T __high2half(T2 a) {                                                             \
    return a.y;                                                                                  \
  }                                                                                              \
  AGH_FUNCTION T2 __lows2half2(T2 a, T2 b) {                                                     \
    return T2(a.x, b.x);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T2 __highs2half2(T2 a, T2 b) {                                                    \
    return T2(a.y, b.y);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T2 __low2half2(T2 a) {                                                            \
    return T2(a.x, a.x);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T2 __high2half2(T2 a) {                                                           \
    return T2(a.y, a.y);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T2 __lowhigh2highlow(T2 a) {                                                      \
    return T2(a.y, a.x);                                                                         \
  }                                                                                              \
  /* arithmetic; with no contraction anywhere the _rn forms are the same */                      \
  AGH_FUNCTION T __hadd(T a, T b) {                                                              \
    return agh_from_bits<T>(F::add(a.__x, b.__x));                                               \
  }                                                                                              \
  AGH_FUNCTION T __hsub(T a, T b) {                                                              \
    return agh_from_bits<T>(F::sub(a.__x, b.__x));                                               \
  }                                                                                              \
  AGH_FUNCTION T __hmul(T a, T b) {                                                              \
    return agh_from_bits<T>(F::mul(a.__x, b.__x));                                               \
  }                                                                                              \
  AGH_FUNCTION T __hdiv(T a, T b) {                                                              \
    return agh_from_bits<T>(F::div(a.__x, b.__x));                                               \
  }                                                                                              \
  AGH_FUNCTION T __hfma(T a, T b, T c) {                                                         \
    return agh_from_bits<T>(F::fma(a.__x, b.__x, c.__x));                                        \
  }                                                                                              \
  AGH_FUNCTION T __hadd_rn(T a, T b) {                                                           \
    return __hadd(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T __hsub_rn(T a, T b) {                                                           \
    return __hsub(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T __hmul_rn(T a, T b) {                                                           \
    return __hmul(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T __hneg(T a) {                                                                   \
    return agh_from_bits<T>((unsigned short)(a.__x ^ 0x8000u));                                  \
  }                                                                                              \
  AGH_FUNCTION T __habs(T a) {                                                                   \
    return agh_from_bits<T>((unsigned short)(a.__x & 0x7FFFu));                                  \
  }                                                                                              \
  /* _sat: clamped to [0, 1], NaN to +0 */                                                       \
  AGH_FUNCTION T agh_saturate(T a) {                                                             \
    const float f = F::to_float(a.__x);                                                          \
    if (!(f > 0.0f)) return agh_from_bits<T>(0);                                                 \
    return f < 1.0f ? a : agh_from_bits<T>(F::one);                                              \
  }                                                                                              \
  AGH_FUNCTION T __hadd_sat(T a, T b) {                                                          \
    return agh_saturate(__hadd(a, b));                                                           \
  }                                                                                              \
  AGH_FUNCTION T __hsub_sat(T a, T b) {                                                          \
    return agh_saturate(__hsub(a, b));                                                           \
  }                                                                                              \
  AGH_FUNCTION T __hmul_sat(T a, T b) {                                                          \
    return agh_saturate(__hmul(a, b));                                                           \
  }                                                                                              \
  AGH_FUNCTION T __hfma_sat(T a, T b, T c) {                                                     \
    return agh_saturate(__hfma(a, b, c));                                                        \
  }                                                                                              \
  /* comparisons: ordered (false with a NaN) and unordered (u: true with a NaN) */               \
  AGH_FUNCTION bool __hisnan(T a) {                                                              \
    return (a.__x & 0x7FFFu) > F::infinity;                                                      \
  }                                                                                              \
  AGH_FUNCTION int __hisinf(T a) {                                                               \
    return a.__x == F::infinity ? 1 : a.__x == (F::infinity | 0x8000u) ? -1 : 0;                 \
  }                                                                                              \
  AGH_FUNCTION bool __heq(T a, T b) {                                                            \
    return F::to_float(a.__x) == F::to_float(b.__x);                                             \
  }                                                                                              \
  AGH_FUNCTION bool __hne(T a, T b) {                                                            \
    return F::to_float(a.__x) < F::to_float(b.__x) || F::to_float(a.__x) > F::to_float(b.__x);   \
  }                                                                                              \
  AGH_FUNCTION bool __hlt(T a, T b) {                                                            \
    return F::to_float(a.__x) < F::to_float(b.__x);                                              \
  }                                                                                              \
  AGH_FUNCTION bool __hle(T a, T b) {                                                            \
    return F::to_float(a.__x) <= F::to_float(b.__x);                                             \
  }                                                                                              \
  AGH_FUNCTION bool __hgt(T a, T b) {                                                            \
    return F::to_float(a.__x) > F::to_float(b.__x);                                              \
  }                                                                                              \
  AGH_FUNCTION bool __hge(T a, T b) {                                                            \
    return F::to_float(a.__x) >= F::to_float(b.__x);                                             \
  }                                                                                              \
  AGH_FUNCTION bool __hequ(T a, T b) {                                                           \
    return !__hne(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION bool __hneu(T a, T b) {                                                           \
    return !__heq(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION bool __hltu(T a, T b) {                                                           \
    return !__hge(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION bool __hleu(T a, T b) {                                                           \
    return !__hgt(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION bool __hgtu(T a, T b) {                                                           \
    return !__hle(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION bool __hgeu(T a, T b) {                                                           \
    return !__hlt(a, b);                                                                         \
  }                                                                                              \
  /* max and min: a NaN loses to a number (both NaN: the canonical NaN); +0 > -0. The _nan forms \
   * give the canonical NaN when either is one. */                                               \
  AGH_FUNCTION T agh_max_min(T a, T b, bool max, bool nan_wins) {                                \
    const bool a_nan = __hisnan(a), b_nan = __hisnan(b);                                         \
    if (a_nan || b_nan) {                                                                        \
      if (nan_wins || (a_nan && b_nan)) return agh_from_bits<T>(AGH_CANONICAL_NAN);              \
      return a_nan ? b : a;                                                                      \
    }                                                                                            \
    const float fa = F::to_float(a.__x), fb = F::to_float(b.__x);                                \
    if (fa == fb) /* equal, or zeros of either sign */                                           \
      return (((a.__x & 0x8000u) != 0) == max) ? b : a;                                          \
    return (fa > fb) == max ? a : b;                                                             \
  }                                                                                              \
  AGH_FUNCTION T __hmax(T a, T b) {                                                              \
    return agh_max_min(a, b, true, false);                                                       \
  }                                                                                              \
  AGH_FUNCTION T __hmin(T a, T b) {                                                              \
    return agh_max_min(a, b, false, false);                                                      \
  }                                                                                              \
  AGH_FUNCTION T __hmax_nan(T a, T b) {                                                          \
    return agh_max_min(a, b, true, true);                                                        \
  }                                                                                              \
  AGH_FUNCTION T __hmin_nan(T a, T b) {                                                          \
    return agh_max_min(a, b, false, true);                                                       \
  }                                                                                              \
  /* pairs, lane by lane */                                                                      \
  AGH_FUNCTION T2 __hadd2(T2 a, T2 b) {                                                          \
    return T2(__hadd(a.x, b.x), __hadd(a.y, b.y));                                               \
  }                                                                                              \
  AGH_FUNCTION T2 __hsub2(T2 a, T2 b) {                                                          \
    return T2(__hsub(a.x, b.x), __hsub(a.y, b.y));                                               \
  }                                                                                              \
  AGH_FUNCTION T2 __hmul2(T2 a, T2 b) {                                                          \
    return T2(__hmul(a.x, b.x), __hmul(a.y, b.y));                                               \
  }                                                                                              \
  AGH_FUNCTION T2 __h2div(T2 a, T2 b) {                                                          \
    return T2(__hdiv(a.x, b.x), __hdiv(a.y, b.y));                                               \
  }                                                                                              \
  AGH_FUNCTION T2 __hfma2(T2 a, T2 b, T2 c) {                                                    \
    return T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));                                     \
  }                                                                                              \
  AGH_FUNCTION T2 __hadd2_rn(T2 a, T2 b) {                                                       \
    return __hadd2(a, b);                                                                        \
  }                                                                                              \
  AGH_FUNCTION T2 __hsub2_rn(T2 a, T2 b) {                                                       \
    return __hsub2(a, b);                                                                        \
  }                                                                                              \
  AGH_FUNCTION T2 __hmul2_rn(T2 a, T2 b) {                                                       \
    return __hmul2(a, b);                                                                        \
  }                                                                                              \
  AGH_FUNCTION T2 __hadd2_sat(T2 a, T2 b) {                                                      \
    return T2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y));                                       \
  }                                                                                              \
  AGH_FUNCTION T2 __hsub2_sat(T2 a, T2 b) {                                                      \
    return T2(__hsub_sat(a.x, b.x), __hsub_sat(a.y, b.y));                                       \
  }                                                                                              \
  AGH_FUNCTION T2 __hmul2_sat(T2 a, T2 b) {                                                      \
    return T2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y));                                       \
  }                                                                                              \
  AGH_FUNCTION T2 __hfma2_sat(T2 a, T2 b, T2 c) {                                                \
    return T2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));                             \
  }                                                                                              \
  AGH_FUNCTION T2 __hneg2(T2 a) {                                                                \
    return T2(__hneg(a.x), __hneg(a.y));                                                         \
  }                                                                                              \
  AGH_FUNCTION T2 __habs2(T2 a) {                                                                \
    return T2(__habs(a.x), __habs(a.y));                                                         \
  }                                                                                              \
  AGH_FUNCTION T2 __hmax2(T2 a, T2 b) {                                                          \
    return T2(__hmax(a.x, b.x), __hmax(a.y, b.y));                                               \
  }                                                                                              \
  AGH_FUNCTION T2 __hmin2(T2 a, T2 b) {                                                          \
    return T2(__hmin(a.x, b.x), __hmin(a.y, b.y));                                               \
  }                                                                                              \
  AGH_FUNCTION T2 __hmax2_nan(T2 a, T2 b) {                                                      \
    return T2(__hmax_nan(a.x, b.x), __hmax_nan(a.y, b.y));                                       \
  }                                                                                              \
  AGH_FUNCTION T2 __hmin2_nan(T2 a, T2 b) {                                                      \
    return T2(__hmin_nan(a.x, b.x), __hmin_nan(a.y, b.y));                                       \
  }                                                                                              \
  AGH_FUNCTION T2 __hisnan2(T2 a) {                                                              \
    return T2(agh_from_bits<T>(__hisnan(a.x) ? F::one : 0),                                      \
              agh_from_bits<T>(__hisnan(a.y) ? F::one : 0));                                     \
  }                                                                                              \
  /* operators, as CUDA's: != is unordered, the others ordered */                                \
  AGH_FUNCTION T operator+(const T& a, const T& b) {                                             \
    return __hadd(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T operator-(const T& a, const T& b) {                                             \
    return __hsub(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T operator*(const T& a, const T& b) {                                             \
    return __hmul(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T operator/(const T& a, const T& b) {                                             \
    return __hdiv(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION T& operator+=(T& a, const T& b) {                                                 \
    return a = __hadd(a, b);                                                                     \
  }                                                                                              \
  AGH_FUNCTION T& operator-=(T& a, const T& b) {                                                 \
    return a = __hsub(a, b);                                                                     \
  }                                                                                              \
  AGH_FUNCTION T& operator*=(T& a, const T& b) {                                                 \
    return a = __hmul(a, b);                                                                     \
  }                                                                                              \
  AGH_FUNCTION T& operator/=(T& a, const T& b) {                                                 \
    return a = __hdiv(a, b);                                                                     \
  }                                                                                              \
  AGH_FUNCTION T operator+(const T& a) {                                                         \
    return a;                                                                                    \
  }                                                                                              \
  AGH_FUNCTION T operator-(const T& a) {                                                         \
    return __hneg(a);                                                                            \
  }                                                                                              \
  AGH_FUNCTION T& operator++(T& a) {                                                             \
    return a = __hadd(a, agh_from_bits<T>(F::one));                                              \
  }                                                                                              \
  AGH_FUNCTION T& operator--(T& a) {                                                             \
    return a = __hsub(a, agh_from_bits<T>(F::one));                                              \
  }                                                                                              \
  AGH_FUNCTION T operator++(T& a, int) {                                                         \
    const T old = a;                                                                             \
    ++a;                                                                                         \
    return old;                                                                                  \
  }                                                                                              \
  AGH_FUNCTION T operator--(T& a, int) {                                                         \
    const T old = a;                                                                             \
    --a;                                                                                         \
    return old;                                                                                  \
  }                                                                                              \
  AGH_FUNCTION bool operator==(const T& a, const T& b) {                                         \
    return __heq(a, b);                                                                          \
  }                                                                                              \
  AGH_FUNCTION bool operator!=(const T& a, const T& b) {                                         \
    return __hneu(a, b);                                                                         \
  }                                                                                              \
  AGH_FUNCTION bool operator<(const T& a, const T& b) {                                          \
    return __hlt(a, b);                                                                          \
  }                                                                                              \
  AGH_FUNCTION bool operator<=(const T& a, const T& b) {                                         \
    return __hle(a, b);                                                                          \
  }                                                                                              \
  AGH_FUNCTION bool operator>(const T& a, const T& b) {                                          \
    return __hgt(a, b);                                                                          \
  }                                                                                              \
  AGH_FUNCTION bool operator>=(const T& a, const T& b) {                                         \
    return __hge(a, b);                                                                          \
  }                                                                                              \
  AGH_FUNCTION T2 operator+(const T2& a, const T2& b) {                                          \
    return __hadd2(a, b);                                                                        \
  }                                                                                              \
  AGH_FUNCTION T2 operator-(const T2& a, const T2& b) {                                          \
    return __hsub2(a, b);                                                                        \
  }                                                                                              \
  AGH_FUNCTION T2 operator*(const T2& a, const T2& b) {                                          \
    return __hmul2(a, b);                                                                        \
  }                                                                                              \
  AGH_FUNCTION T2 operator/(const T2& a, const T2& b) {                                          \
    return __h2div(a, b);                                                                        \
  }                                                                                              \
  AGH_FUNCTION T2& operator+=(T2& a, const T2& b) {                                              \
    return a = __hadd2(a, b);                                                                    \
  }                                                                                              \
  AGH_FUNCTION T2& operator-=(T2& a, const T2& b) {                                              \
    return a = __hsub2(a, b);                                                                    \
  }                                                                                              \
  AGH_FUNCTION T2& operator*=(T2& a, const T2& b) {                                              \
    return a = __hmul2(a, b);                                                                    \
  }                                                                                              \
  AGH_FUNCTION T2& operator/=(T2& a, const T2& b) {                                              \
    return a = __h2div(a, b);                                                                    \
  }                                                                                              \
  AGH_FUNCTION T2 operator+(const T2& a) {                                                       \
    return a;                                                                                    \
  }                                                                                              \
  AGH_FUNCTION T2 operator-(const T2& a) {                                                       \
    return __hneg2(a);                                                                           \
  }                                                                                              \
  AGH_FUNCTION bool operator==(const T2& a, const T2& b) {                                       \
    return a.x == b.x && a.y == b.y;                                                             \
  }                                                                                              \
  AGH_FUNCTION bool operator!=(const T2& a, const T2& b) {                                       \
    return a.x != b.x && a.y != b.y;                                                             \
  }                                                                                              \
  AGH_FUNCTION bool operator<(const T2& a, const T2& b) {                                        \
    return a.x < b.x && a.y < b.y;                                                               \
  }                                                                                              \
  AGH_FUNCTION bool operator<=(const T2& a, const T2& b) {                                       \
    return a.x <= b.x && a.y <= b.y;                                                             \
  }                                                                                              \
  AGH_FUNCTION bool operator>(const T2& a, const T2& b) {                                        \
    return a.x > b.x && a.y > b.y;                                                               \
  }                                                                                              \
  AGH_FUNCTION bool operator>=(const T2& a, const T2& b) {                                       \
    return a.x >= b.x && a.y >= b.y;                                                             \
  }

AGH_ONE_TYPE(__half, __half2, agh_fp16)
AGH_ONE_TYPE(__nv_bfloat16, __nv_bfloat162, agh_bf16)
#undef AGH_ONE_TYPE

/* The pair comparisons: __heq2 & co give 1.0 or 0.0 per lane, __heq2_mask & co 0xFFFF per lane
 * that holds (x in the low half of the unsigned), __hbeq2 & co whether both lanes hold. */
#define AGH_PAIR_COMPARISON(name, T, T2, F)                                       \
  AGH_FUNCTION T2 name##2(T2 a, T2 b) {                                           \
    return T2(agh_from_bits<T>(name(a.x, b.x) ? F::one : 0),                      \
              agh_from_bits<T>(name(a.y, b.y) ? F::one : 0));                     \
  }                                                                               \
  AGH_FUNCTION unsigned name##2_mask(T2 a, T2 b) {                                \
    return (name(a.x, b.x) ? 0xFFFFu : 0u) | (name(a.y, b.y) ? 0xFFFF0000u : 0u); \
  }
#define AGH_PAIR_BOOL_COMPARISON(pair_name, name, T2) \
  AGH_FUNCTION bool pair_name(T2 a, T2 b) {           \
    return name(a.x, b.x) && name(a.y, b.y);          \
  }
#define AGH_PAIR_COMPARISONS(T, T2, F)           \
  AGH_PAIR_COMPARISON(__heq, T, T2, F)           \
  AGH_PAIR_COMPARISON(__hne, T, T2, F)           \
  AGH_PAIR_COMPARISON(__hlt, T, T2, F)           \
  AGH_PAIR_COMPARISON(__hle, T, T2, F)           \
  AGH_PAIR_COMPARISON(__hgt, T, T2, F)           \
  AGH_PAIR_COMPARISON(__hge, T, T2, F)           \
  AGH_PAIR_COMPARISON(__hequ, T, T2, F)          \
  AGH_PAIR_COMPARISON(__hneu, T, T2, F)          \
  AGH_PAIR_COMPARISON(__hltu, T, T2, F)          \
  AGH_PAIR_COMPARISON(__hleu, T, T2, F)          \
  AGH_PAIR_COMPARISON(__hgtu, T, T2, F)          \
  AGH_PAIR_COMPARISON(__hgeu, T, T2, F)          \
  AGH_PAIR_BOOL_COMPARISON(__hbeq2, __heq, T2)   \
  AGH_PAIR_BOOL_COMPARISON(__hbne2, __hne, T2)   \
  AGH_PAIR_BOOL_COMPARISON(__hblt2, __hlt, T2)   \
  AGH_PAIR_BOOL_COMPARISON(__hble2, __hle, T2)   \
  AGH_PAIR_BOOL_COMPARISON(__hbgt2, __hgt, T2)   \
  AGH_PAIR_BOOL_COMPARISON(__hbge2, __hge, T2)   \
  AGH_PAIR_BOOL_COMPARISON(__hbequ2, __hequ, T2) \
  AGH_PAIR_BOOL_COMPARISON(__hbneu2, __hneu, T2) \
  AGH_PAIR_BOOL_COMPARISON(__hbltu2, __hltu, T2) \
  AGH_PAIR_BOOL_COMPARISON(__hbleu2, __hleu, T2) \
  AGH_PAIR_BOOL_COMPARISON(__hbgtu2, __hgtu, T2) \
  AGH_PAIR_BOOL_COMPARISON(__hbgeu2, __hgeu, T2)
AGH_PAIR_COMPARISONS(__half, __half2, agh_fp16)
AGH_PAIR_COMPARISONS(__nv_bfloat16, __nv_bfloat162, agh_bf16)
#undef AGH_PAIR_COMPARISONS
#undef AGH_PAIR_BOOL_COMPARISON
#undef AGH_PAIR_COMPARISON

/* cuda_bf16.h's names for the lanes of a __nv_bfloat162. */
AGH_FUNCTION __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) {
  return a.x;
}
AGH_FUNCTION __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) {
  return a.y;
}
AGH_FUNCTION __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
AGH_FUNCTION __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}

AGH_FUNCTION __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a) {
  return __nv_bfloat162(a.x, a.x);
}
AGH_FUNCTION __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a) {
  return __nv_bfloat162(a.y, a.y);
}

/* The fused multiply-add with relu: a negative result (-0 too) becomes +0, a NaN the canonical
 * NaN. And the complex multiply-add of pairs read as x + iy, CUDA's order of fmas:
 * ((a.x b.x + c.x) - a.y b.y) + i ((a.x b.y + c.y) + a.y b.x). */
#define AGH_RELU_AND_COMPLEX(T, T2)                                    \
  AGH_FUNCTION T __hfma_relu(T a, T b, T c) {                          \
    const T r = __hfma(a, b, c);                                       \
    if (__hisnan(r)) return agh_from_bits<T>(AGH_CANONICAL_NAN);       \
    return (r.__x & 0x8000u) ? agh_from_bits<T>(0) : r;                \
  }                                                                    \
  AGH_FUNCTION T2 __hfma2_relu(T2 a, T2 b, T2 c) {                     \
    return T2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)); \
  }                                                                    \
  AGH_FUNCTION T2 __hcmadd(T2 a, T2 b, T2 c) {                         \
    return T2(__hfma(__hneg(a.y), b.y, __hfma(a.x, b.x, c.x)),         \
              __hfma(a.y, b.x, __hfma(a.x, b.y, c.y)));                \
  }
AGH_RELU_AND_COMPLEX(__half, __half2)
AGH_RELU_AND_COMPLEX(__nv_bfloat16, __nv_bfloat162)
#undef AGH_RELU_AND_COMPLEX

#endif /* ANYGPU_DETAIL_HALF_FUNCTIONS_H */
