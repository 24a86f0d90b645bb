/* half_rounding.h — exact conversions between float/double and the 16-bit formats (IEEE binary16
 * for __half, bfloat16 for __nv_bfloat16), in portable C++ on integers: round to nearest even,
 * overflow to infinity, subnormals, signed zeros, NaN to the canonical NaN 0x7FFF as CUDA gives.
 * The host, SPIR-V and whatever lacks a native conversion use these; included by anygpu/half.h,
 * do not include directly. */
#ifndef ANYGPU_DETAIL_HALF_ROUNDING_H
#define ANYGPU_DETAIL_HALF_ROUNDING_H

#if defined(__CUDA__) || defined(__HIP__)
#define AGH_FUNCTION inline __attribute__((host, device))
#else
#define AGH_FUNCTION inline
#endif

/* 64-bit integers: in C++ for OpenCL long long is 128 bits and long is 64. */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_CPP_VERSION__)
typedef unsigned long agh_u64;
typedef long agh_i64;
#define AGH_CLZ64 __builtin_clzl
#else
typedef unsigned long long agh_u64;
typedef long long agh_i64;
#define AGH_CLZ64 __builtin_clzll
#endif

#define AGH_CANONICAL_NAN 0x7FFFu

/* (-1)^negative * significand * 2^exponent (significand > 0), rounded to nearest even into a format
 * of FractionBits and ExponentBits. `beyond` says where the exact value lies when the caller had to
 * round it already: 0 exactly there, +1 a little above, -1 a little below (less than one unit of
 * the significand's last place away). The bits of the result, sign included. */
template <int FractionBits, int ExponentBits>
AGH_FUNCTION unsigned short agh_round_bits(bool negative, agh_u64 significand, int exponent,
                                           int beyond) {
  const int bias = (1 << (ExponentBits - 1)) - 1;
  const unsigned infinity_bits = ((1u << ExponentBits) - 1u) << FractionBits;
  const unsigned sign = negative ? 1u << (FractionBits + ExponentBits) : 0u;
  const int beyond_magnitude = negative ? -beyond : beyond;
  const int top = 63 - AGH_CLZ64(significand);
  const int unbiased = top + exponent; /* the value is in [2^unbiased, 2^(unbiased + 1)) */
  if (unbiased > bias) return (unsigned short)(sign | infinity_bits);
  const int minimum = 1 - bias; /* below it, subnormal: the quantum stays 2^(minimum - F) */
  const int quantum = (unbiased >= minimum ? unbiased : minimum) - FractionBits;
  const int shift = quantum - exponent; /* the low bits of significand below the quantum */
  /* kept: the bits at and above the quantum; dropped against half: the bits below it against half
   * a quantum. Compared once, after the cases, with shift counts below 64: LLVM would otherwise
   * `freeze` a comparison it speculates, which llvm-spirv 15 cannot translate. */
  agh_u64 kept, dropped, half_quantum;
  if (shift <= 0) {
    kept = significand << (-shift & 63);
    dropped = 0;
    half_quantum = 1;
  } else if (shift < 64) {
    kept = significand >> shift;
    dropped = significand & (((agh_u64)1 << shift) - 1u);
    half_quantum = (agh_u64)1 << (shift - 1);
  } else { /* all of it dropped; exactly half only when shift is 64 and significand 2^63 */
    kept = 0;
    dropped = shift == 64 ? significand : 1u;
    half_quantum = shift == 64 ? (agh_u64)1 << 63 : 2u;
  }
  int above_half = (int)(dropped > half_quantum) - (int)(dropped < half_quantum);
  if (above_half == 0) above_half = beyond_magnitude;
  /* Bitwise, not ||: LLVM makes a `freeze` of the short-circuit form, which llvm-spirv 15 cannot
   * translate. */
  kept +=
      (agh_u64)((unsigned)(above_half > 0) | ((unsigned)(above_half == 0) & (unsigned)kept & 1u));
  /* A normal number's biased exponent goes above its fraction (the carry of a rounding that
   * reaches the next power of two moves it up); a subnormal that rounds up to 2^minimum comes
   * out as the smallest normal number by itself. */
  const agh_u64 bits =
      unbiased >= minimum ? ((agh_u64)(unbiased + bias - 1) << FractionBits) + kept : kept;
  return (unsigned short)(sign | (bits >= infinity_bits ? infinity_bits : (unsigned)bits));
}

/* float -> 16 bits, `beyond` as for agh_round_bits. */
template <int FractionBits, int ExponentBits>
AGH_FUNCTION unsigned short agh_float_to_bits(float value, int beyond) {
  const unsigned bits = __builtin_bit_cast(unsigned, value);
  const bool negative = (bits >> 31) != 0;
  const unsigned field = (bits >> 23) & 0xFFu, fraction = bits & 0x7FFFFFu;
  const unsigned sign = negative ? 1u << (FractionBits + ExponentBits) : 0u;
  if (field == 0xFFu) /* infinity, or NaN */
    return (unsigned short)(fraction ? AGH_CANONICAL_NAN
                                     : sign | (((1u << ExponentBits) - 1u) << FractionBits));
  if (field == 0 && fraction == 0) return (unsigned short)sign;
  const agh_u64 significand = field ? fraction | 0x800000u : fraction;
  return agh_round_bits<FractionBits, ExponentBits>(negative, significand,
                                                    (field ? (int)field : 1) - 127 - 23, beyond);
}

template <int FractionBits, int ExponentBits>
AGH_FUNCTION unsigned short agh_double_to_bits(double value) {
  const agh_u64 bits = __builtin_bit_cast(agh_u64, value);
  const bool negative = (bits >> 63) != 0;
  const unsigned field = (unsigned)(bits >> 52) & 0x7FFu;
  const agh_u64 fraction = bits & 0xFFFFFFFFFFFFFull;
  const unsigned sign = negative ? 1u << (FractionBits + ExponentBits) : 0u;
  if (field == 0x7FFu)
    return (unsigned short)(fraction ? AGH_CANONICAL_NAN
                                     : sign | (((1u << ExponentBits) - 1u) << FractionBits));
  if (field == 0 && fraction == 0) return (unsigned short)sign;
  const agh_u64 significand = field ? fraction | 0x10000000000000ull : fraction;
  return agh_round_bits<FractionBits, ExponentBits>(negative, significand,
                                                    (field ? (int)field : 1) - 1023 - 52, 0);
}

/* An integer, to nearest even (CUDA's __int2half_rn & co). */
template <int FractionBits, int ExponentBits>
AGH_FUNCTION unsigned short agh_integer_to_bits(bool negative, agh_u64 magnitude) {
  if (magnitude == 0) return 0;
  return agh_round_bits<FractionBits, ExponentBits>(negative, magnitude, 0, 0);
}

/* binary16 -> float, exact; a NaN keeps its payload and comes out quiet. Range tests on the
 * magnitude's bits, not the exponent field: LLVM turns tests of a 5-bit field into a switch on an
 * i5, which SPIR-V cannot hold. */
AGH_FUNCTION float agh_half_bits_to_float(unsigned short bits) {
  const unsigned sign = (unsigned)(bits & 0x8000u) << 16;
  const unsigned magnitude = bits & 0x7FFFu;
  if (magnitude >= 0x7C00u) /* infinity, or NaN */
    return __builtin_bit_cast(float, sign | 0x7F800000u | (magnitude > 0x7C00u ? 0x400000u : 0u) |
                                         ((magnitude & 0x3FFu) << 13));
  if (magnitude < 0x400u) { /* zero or subnormal: magnitude * 2^-24, exact in float */
    const float value = (float)magnitude * 5.9604644775390625e-8f;
    return sign ? -value : value;
  }
  /* Rebias the exponent from 15 to 127: add 112 to it. */
  return __builtin_bit_cast(float, sign | ((magnitude << 13) + (112u << 23)));
}

/* bfloat16 -> float: the upper half of the float's bits. */
AGH_FUNCTION float agh_bf16_bits_to_float(unsigned short bf16) {
  return __builtin_bit_cast(float, (unsigned)bf16 << 16);
}

#endif /* ANYGPU_DETAIL_HALF_ROUNDING_H */
