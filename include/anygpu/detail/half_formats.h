/* half_formats.h — arithmetic on the bits of the 16-bit formats, correctly rounded on every
 * target: agh_fp16 (binary16, __half) and agh_bf16 (bfloat16, __nv_bfloat16), each with to_float,
 * from_float, add, sub, mul, div and fma. Included by anygpu/half.h; do not include directly.
 *
 * How, per target:
 * - nvptx64 and amdgcn: binary16 in clang's _Float16, the hardware's own conversions and
 *   half-precision instructions (add.f16, fma.rn.f16; v_add_f16, v_fma_f16).
 * - Everything else (the host, SPIR-V) and bfloat16 everywhere: the operation in float, then the
 *   portable rounding of half_rounding.h. For + - * the float result rounded again is the correctly
 *   rounded 16-bit result (float has more than twice the bits plus two); for / and fma the
 *   rounding is told on which side of the float result the exact one lies (a residual, or the
 *   error of a float addition), so ties are never double-rounded. bfloat16 has float's exponent
 *   range: where a product or quotient falls below float's normal range (|x| < 2^-126, subnormal
 *   bfloat16 results) the float step itself rounds and the result may differ in the last place.
 * No operation is contracted with another (#pragma clang fp contract(off)): a __hmul followed by a
 * __hadd gives the same bits on every target, as the host computes them. */
#ifndef ANYGPU_DETAIL_HALF_FORMATS_H
#define ANYGPU_DETAIL_HALF_FORMATS_H

#include "half_rounding.h"

#if defined(__clang__)
#define AGH_NO_CONTRACT _Pragma("clang fp contract(off)")
#else
#define AGH_NO_CONTRACT
#endif

#if defined(__CUDA_ARCH__) || (defined(__HIP_DEVICE_COMPILE__) && defined(__AMDGCN__))
#define AGH_NATIVE_FP16 1
#endif

/* What lies beyond a float result: the sign of err, as agh_round_bits wants it. */
AGH_FUNCTION int agh_sign(float err) {
  return err > 0.0f ? 1 : err < 0.0f ? -1 : 0;
}

/* The operations in float, then rounded; Format supplies to_float, round and round_beyond. */
template <typename Format>
struct agh_float_arithmetic {
  static AGH_FUNCTION unsigned short add(unsigned short a, unsigned short b) {
    AGH_NO_CONTRACT
    return Format::round(Format::to_float(a) + Format::to_float(b));
  }
  static AGH_FUNCTION unsigned short sub(unsigned short a, unsigned short b) {
    AGH_NO_CONTRACT
    return Format::round(Format::to_float(a) - Format::to_float(b));
  }
  static AGH_FUNCTION unsigned short mul(unsigned short a, unsigned short b) {
    AGH_NO_CONTRACT
    return Format::round(Format::to_float(a) * Format::to_float(b));
  }
  /* The float quotient made faithful by one correction (OpenCL lets a device's float division be
   * 2.5 ulp off), then rounded with the sign of the exact residual x - q*y. */
  static AGH_FUNCTION unsigned short div(unsigned short a, unsigned short b) {
    AGH_NO_CONTRACT
    const float x = Format::to_float(a), y = Format::to_float(b);
    float q = x / y;
    if (q == 0.0f || !__builtin_isfinite(q)) return Format::round(q);
    q += __builtin_fmaf(-q, y, x) / y;
    const float residual = __builtin_fmaf(-q, y, x); /* exact: q is within an ulp of x / y */
    return Format::round_beyond(q, y > 0.0f ? agh_sign(residual) : -agh_sign(residual));
  }
  /* x*y is exact in float (11 + 11 bits, 8 + 8 for bfloat16); the sum's rounding error, found
   * exactly by Knuth's two-sum, says where the exact result lies. */
  static AGH_FUNCTION unsigned short fma(unsigned short a, unsigned short b, unsigned short c) {
    AGH_NO_CONTRACT
    const float product = Format::to_float(a) * Format::to_float(b), z = Format::to_float(c);
    const float sum = product + z;
    if (!__builtin_isfinite(sum)) return Format::round(sum);
    const float z_part = sum - product;
    const float err = (product - (sum - z_part)) + (z - z_part);
    return Format::round_beyond(sum, agh_sign(err));
  }
};

struct agh_fp16 : agh_float_arithmetic<agh_fp16> {
  enum : unsigned short { one = 0x3C00u, infinity = 0x7C00u };
  static AGH_FUNCTION float to_float(unsigned short bits) {
#if defined(AGH_NATIVE_FP16)
    return (float)__builtin_bit_cast(_Float16, bits);
#else
    return agh_half_bits_to_float(bits);
#endif
  }
  static AGH_FUNCTION unsigned short round(float value) {
#if defined(AGH_NATIVE_FP16)
    if (value != value) return AGH_CANONICAL_NAN;
    return __builtin_bit_cast(unsigned short, (_Float16)value);
#else
    return agh_float_to_bits<10, 5>(value, 0);
#endif
  }
  static AGH_FUNCTION unsigned short round_beyond(float value, int beyond) {
    return agh_float_to_bits<10, 5>(value, beyond);
  }
#if defined(AGH_NATIVE_FP16)
  static AGH_FUNCTION _Float16 native(unsigned short bits) {
    return __builtin_bit_cast(_Float16, bits);
  }
  static AGH_FUNCTION unsigned short bits(_Float16 value) {
    return value != value ? (unsigned short)AGH_CANONICAL_NAN
                          : __builtin_bit_cast(unsigned short, value);
  }
  static AGH_FUNCTION unsigned short add(unsigned short a, unsigned short b) {
    AGH_NO_CONTRACT
    return bits(native(a) + native(b));
  }
  static AGH_FUNCTION unsigned short sub(unsigned short a, unsigned short b) {
    AGH_NO_CONTRACT
    return bits(native(a) - native(b));
  }
  static AGH_FUNCTION unsigned short mul(unsigned short a, unsigned short b) {
    AGH_NO_CONTRACT
    return bits(native(a) * native(b));
  }
#if !(defined(AGK_FAST_MATH) && AGK_FAST_MATH)
  /* Division in float (correctly rounded there), rounded once more: exact, as for + - *. In a
   * FAST_MATH image float division is approximate: the corrected division of
   * agh_float_arithmetic then. */
  static AGH_FUNCTION unsigned short div(unsigned short a, unsigned short b) {
    return round(to_float(a) / to_float(b));
  }
#endif
  static AGH_FUNCTION unsigned short fma(unsigned short a, unsigned short b, unsigned short c) {
    return bits(__builtin_fmaf16(native(a), native(b), native(c)));
  }
#endif
};

struct agh_bf16 : agh_float_arithmetic<agh_bf16> {
  enum : unsigned short { one = 0x3F80u, infinity = 0x7F80u };
  static AGH_FUNCTION float to_float(unsigned short bits) { return agh_bf16_bits_to_float(bits); }
  static AGH_FUNCTION unsigned short round(float value) {
    return agh_float_to_bits<7, 8>(value, 0);
  }
  static AGH_FUNCTION unsigned short round_beyond(float value, int beyond) {
    return agh_float_to_bits<7, 8>(value, beyond);
  }
};

#endif /* ANYGPU_DETAIL_HALF_FORMATS_H */
