/* half_types.h — CUDA's __half, __half2 (cuda_fp16.h), __nv_bfloat16 and __nv_bfloat162
 * (cuda_bf16.h): the types, their conversions and operators. Included by anygpu/half.h; do not
 * include directly. The functions are in half_functions.h and half_math.h.
 *
 * Layouts are CUDA's: __half and __nv_bfloat16 hold their bits in one unsigned short (2 bytes,
 * align 2); the pairs are two of them, x the lower, 4 bytes aligned to 4. All are trivially
 * copyable, so host programs pass them as kernel arguments and copy buffers of them as they are. */
#ifndef ANYGPU_DETAIL_HALF_TYPES_H
#define ANYGPU_DETAIL_HALF_TYPES_H

#include "half_formats.h"

/* In C++ for OpenCL __half is OpenCL's own half (a keyword, or clang's macro for it); the name is
 * taken over for CUDA's. */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_CPP_VERSION__)
#undef __half
#define __half agh_cuda_half
#endif

struct __half_raw {
  unsigned short x;
};
struct __attribute__((aligned(4))) __half2_raw {
  unsigned short x, y;
};
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __attribute__((aligned(4))) __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __nv_bfloat16;

/* One 16-bit type: constructed from float, double and integers (rounded to nearest even, as
 * CUDA's), explicitly from the other 16-bit type (below), converted to float, and to and from its
 * raw form. RAW is its raw struct, FORMAT its agh_fp16 / agh_bf16, FRACTION and EXPONENT its field
 * widths, OTHER the other 16-bit type. */
#define AGH_SCALAR_MEMBERS(T, RAW, FORMAT, FRACTION, EXPONENT, OTHER)                           \
  unsigned short __x;                                                                           \
  T() = default;                                                                                \
  AGH_FUNCTION constexpr T(const RAW& raw) : __x(raw.x) {}                                      \
  AGH_FUNCTION explicit T(const OTHER& other);                                                  \
  AGH_FUNCTION T(float value) : __x(FORMAT::round(value)) {}                                    \
  AGH_FUNCTION T(double value) : __x(agh_double_to_bits<FRACTION, EXPONENT>(value)) {}          \
  AGH_FUNCTION T(short value) : T((int)value) {}                                                \
  AGH_FUNCTION T(unsigned short value) : T((unsigned int)value) {}                              \
  AGH_FUNCTION T(int value) : T((agh_i64)value) {}                                              \
  AGH_FUNCTION T(unsigned int value)                                                            \
      : __x(agh_integer_to_bits<FRACTION, EXPONENT>(false, value)) {}                           \
  AGH_FUNCTION T(agh_i64 value)                                                                 \
      : __x(agh_integer_to_bits<FRACTION, EXPONENT>(                                            \
            value < 0, value < 0 ? 0u - (agh_u64)value : (agh_u64)value)) {}                    \
  AGH_FUNCTION T(agh_u64 value) : __x(agh_integer_to_bits<FRACTION, EXPONENT>(false, value)) {} \
  AGH_FUNCTION operator float() const {                                                         \
    return FORMAT::to_float(__x);                                                               \
  }                                                                                             \
  AGH_FUNCTION constexpr operator RAW() const {                                                 \
    return RAW{__x};                                                                            \
  }                                                                                             \
  AGH_FUNCTION T& operator=(const RAW& raw) {                                                   \
    __x = raw.x;                                                                                \
    return *this;                                                                               \
  }                                                                                             \
  AGH_FUNCTION T& operator=(float value) {                                                      \
    return *this = T(value);                                                                    \
  }                                                                                             \
  AGH_FUNCTION T& operator=(double value) {                                                     \
    return *this = T(value);                                                                    \
  }                                                                                             \
  /* Zero (either sign) is false, anything else true, as CUDA's. */                             \
  AGH_FUNCTION constexpr explicit operator bool() const {                                       \
    return (__x & 0x7FFFu) != 0;                                                                \
  }

struct __half {
  AGH_SCALAR_MEMBERS(__half, __half_raw, agh_fp16, 10, 5, __nv_bfloat16)
};
struct __nv_bfloat16 {
  AGH_SCALAR_MEMBERS(__nv_bfloat16, __nv_bfloat16_raw, agh_bf16, 7, 8, __half)
};
#undef AGH_SCALAR_MEMBERS

/* Between the 16-bit types, as CUDA's explicit constructors: through float, which holds either
 * exactly, so the one rounding is to nearest even (what sm_90's cvt.rn.bf16.f16 gives). */
AGH_FUNCTION __half::__half(const __nv_bfloat16& other)
    : __x(agh_fp16::round(agh_bf16::to_float(other.__x))) {}
AGH_FUNCTION __nv_bfloat16::__nv_bfloat16(const __half& other)
    : __x(agh_bf16::round(agh_fp16::to_float(other.__x))) {}

/* A pair: x the lower half, y the upper. */
#define AGH_PAIR_MEMBERS(T2, T, RAW, RAW2)                                     \
  T x, y;                                                                      \
  T2() = default;                                                              \
  AGH_FUNCTION constexpr T2(const T& a, const T& b) : x(a), y(b) {}            \
  AGH_FUNCTION constexpr T2(const RAW2& raw) : x(RAW{raw.x}), y(RAW{raw.y}) {} \
  AGH_FUNCTION constexpr operator RAW2() const {                               \
    return RAW2{x.__x, y.__x};                                                 \
  }                                                                            \
  AGH_FUNCTION T2& operator=(const RAW2& raw) {                                \
    return *this = T2(raw);                                                    \
  }

struct __attribute__((aligned(4))) __half2 {
  AGH_PAIR_MEMBERS(__half2, __half, __half_raw, __half2_raw)
};
struct __attribute__((aligned(4))) __nv_bfloat162 {
  AGH_PAIR_MEMBERS(__nv_bfloat162, __nv_bfloat16, __nv_bfloat16_raw, __nv_bfloat162_raw)
};
#undef AGH_PAIR_MEMBERS

/* CUDA's other names. OpenCL has a built-in type `half`, so there the short names are left out. */
#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_CPP_VERSION__)
typedef __half half;
typedef __half2 half2;
#endif
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#endif /* ANYGPU_DETAIL_HALF_TYPES_H */
