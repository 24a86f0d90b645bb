/* math_directed.h — CUDA's intrinsics named by a directed rounding, on every target:
 *   arithmetic  __fadd_r{z,u,d} __fsub_ __fmul_ __fdiv_ __frcp_ __fsqrt_ __fmaf_, and for double
 *               __dadd_ __dsub_ __dmul_ __ddiv_ __drcp_ __dsqrt_ __fma_ (rz toward zero, ru up,
 *               rd down; the _rn forms are math_rounded.h's);
 *   conversions __float2int_r{n,z,u,d} and uint, ll, ull; __double2int_ & co; __int2float_ and
 *               uint, ll, ull; __ll2double_, __ull2double_; __double2float_; __int2double_rn,
 *               __uint2double_rn;
 *   bit casts   __float_as_int, __int_as_float, __float_as_uint, __uint_as_float,
 *               __double_as_longlong, __longlong_as_double, __double2hiint, __double2loint,
 *               __hiloint2double.
 * nvptx64: libdevice's own functions (__nv_fadd_rz & co: the PTX instructions with the rounding),
 * and PTX's cvt for the conversions toward zero (below).
 * Every other target (host, amdgcn, spir64) computes in round-to-nearest and never reads or sets
 * the floating-point environment (docs/math.md, "Directed rounding and conversions"):
 *   - the result rounded to nearest, r, and the sign of the exact result minus r, from an
 *     error-free transformation: Fast2Sum from the larger operand for a sum (exact, where
 *     two-sum's s - a can overflow); fma(a, b, -r) for a product; the remainder
 *     fma(-q, b, a) for a quotient and fma(-s, s, x) for a square root. Where a product, quotient
 *     or root is so small that the fma's result could underflow and lose that sign, the sign comes
 *     from the exact integer computation below instead;
 *   - r moved one step (to the next float) toward the exact result where the direction asks:
 *     toward zero when the exact result is nearer to zero than r, up when above, down when below;
 *   - a quotient or root is bracketed: r and its neighbour on the exact result's side are both
 *     checked, so a division or square root that is not correctly rounded (OpenCL allows 2.5 and
 *     3 ulp for float) still gives the right result;
 *   - fma: the exact a*b + c as an integer (the 106-bit product and c aligned in 128 bits, bits
 *     shifted out kept as a sticky bit), rounded once in the direction asked, subnormals and
 *     overflow included;
 *   - the specials as IEEE 754 has them: a finite result too large is the largest finite value
 *     toward zero (rz, and ru of a negative, rd of a positive) or infinity; an exact zero sum is -0
 *     under rd, +0 otherwise.
 * Included by math_rounded.h; do not include directly. */
#ifndef ANYGPU_DETAIL_MATH_DIRECTED_H
#define ANYGPU_DETAIL_MATH_DIRECTED_H

#include "integer_64.h" /* agk_ll, agk_ull: CUDA's long long */
#define AGK_U64(x) ((agk_ull)(x))

/* ---- bit casts: every target ---- */
#define AGK_BIT_CAST(name, From, To)     \
  AGK_ROUNDED_FUNCTION To name(From x) { \
    union {                              \
      From from;                         \
      To to;                             \
    } bits;                              \
    bits.from = x;                       \
    return bits.to;                      \
  }
AGK_BIT_CAST(__float_as_int, float, int)
AGK_BIT_CAST(__int_as_float, int, float)
AGK_BIT_CAST(__float_as_uint, float, unsigned int)
AGK_BIT_CAST(__uint_as_float, unsigned int, float)
AGK_BIT_CAST(__double_as_longlong, double, agk_ll)
AGK_BIT_CAST(__longlong_as_double, agk_ll, double)
AGK_ROUNDED_FUNCTION int __double2hiint(double x) {
  return (int)(unsigned int)((agk_ull)__double_as_longlong(x) >> 32);
}
AGK_ROUNDED_FUNCTION int __double2loint(double x) {
  return (int)(unsigned int)(agk_ull)__double_as_longlong(x);
}
AGK_ROUNDED_FUNCTION double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((agk_ll)(((agk_ull)(unsigned int)hi << 32) | (unsigned int)lo));
}

#if defined(__CUDA_ARCH__)
/* ---- nvptx64: libdevice ---- */
#define AGK_LIBDEVICE(name, R, params, args) \
  AGK_VENDOR R __nv_##name params;           \
  AGK_ROUNDED_FUNCTION R __##name params {   \
    return __nv_##name args;                 \
  }
#define AGK_ARITHMETIC_1(name, T, r) AGK_LIBDEVICE(name##_##r, T, (T x), (x))
#define AGK_ARITHMETIC_2(name, T, r) AGK_LIBDEVICE(name##_##r, T, (T x, T y), (x, y))
#define AGK_ARITHMETIC_3(name, T, r) AGK_LIBDEVICE(name##_##r, T, (T x, T y, T z), (x, y, z))
/* The conversions toward zero are PTX's cvt itself, not libdevice's: LLVM 19 folds libdevice's
 * llvm.nvvm.i2f.rz & co into sitofp and uitofp, which round to nearest, and the float-to-integer
 * ones into fptosi and fptoui, which give poison where cvt saturates. */
#define AGK_CONVERSION(name, From, To, r) AGK_CONVERSION_##r(name, From, To)
#define AGK_CONVERSION_rn(name, From, To) AGK_LIBDEVICE(name##_rn, To, (From x), (x))
#define AGK_CONVERSION_ru(name, From, To) AGK_LIBDEVICE(name##_ru, To, (From x), (x))
#define AGK_CONVERSION_rd(name, From, To) AGK_LIBDEVICE(name##_rd, To, (From x), (x))
#define AGK_CONVERSION_rz(name, From, To) AGK_PTX_RZ_EXPANDED(name, From, To, AGK_PTX_RZ_##name)
#define AGK_PTX_RZ_EXPANDED(...) AGK_PTX_RZ(__VA_ARGS__)
#define AGK_PTX_RZ(name, From, To, instruction, out, in) \
  AGK_ROUNDED_FUNCTION To __##name##_rz(From x) {        \
    To result;                                           \
    asm(instruction " %0, %1;" : out(result) : in(x));   \
    return result;                                       \
  }
#define AGK_PTX_RZ_float2int "cvt.rzi.s32.f32", "=r", "f"
#define AGK_PTX_RZ_float2uint "cvt.rzi.u32.f32", "=r", "f"
#define AGK_PTX_RZ_float2ll "cvt.rzi.s64.f32", "=l", "f"
#define AGK_PTX_RZ_float2ull "cvt.rzi.u64.f32", "=l", "f"
#define AGK_PTX_RZ_double2int "cvt.rzi.s32.f64", "=r", "d"
#define AGK_PTX_RZ_double2uint "cvt.rzi.u32.f64", "=r", "d"
#define AGK_PTX_RZ_double2ll "cvt.rzi.s64.f64", "=l", "d"
#define AGK_PTX_RZ_double2ull "cvt.rzi.u64.f64", "=l", "d"
#define AGK_PTX_RZ_int2float "cvt.rz.f32.s32", "=f", "r"
#define AGK_PTX_RZ_uint2float "cvt.rz.f32.u32", "=f", "r"
#define AGK_PTX_RZ_ll2float "cvt.rz.f32.s64", "=f", "l"
#define AGK_PTX_RZ_ull2float "cvt.rz.f32.u64", "=f", "l"
#define AGK_PTX_RZ_ll2double "cvt.rz.f64.s64", "=d", "l"
#define AGK_PTX_RZ_ull2double "cvt.rz.f64.u64", "=d", "l"
#define AGK_PTX_RZ_double2float "cvt.rz.f32.f64", "=f", "d"

#else
/* ---- host, amdgcn, spir64: round to nearest, then a step (above) ---- */
#define AGK_TOWARD_ZERO 0
#define AGK_UPWARD 1
#define AGK_DOWNWARD 2
#define AGK_TO_NEAREST 3
#define AGK_DIRECTION_rz AGK_TOWARD_ZERO
#define AGK_DIRECTION_ru AGK_UPWARD
#define AGK_DIRECTION_rd AGK_DOWNWARD
#define AGK_DIRECTION_rn AGK_TO_NEAREST

/* A value as its bits, widened to 64 (W: the format's width, P: its precision, with the hidden
 * bit). The formats' bits are ordered as the magnitudes: a step is +-1 on them. */
typedef agk_ull agk_bits64;

/* The next value up (toward +infinity) or down from a finite x, as bits: +-0 go to the smallest
 * subnormal of the step's sign, the largest finite value to infinity. */
AGK_ROUNDED_FUNCTION agk_bits64 agk_step_bits(agk_bits64 x, int width, int upward) {
  const agk_bits64 sign = AGK_U64(1) << (width - 1);
  if ((x & (sign - 1)) == 0) return upward ? AGK_U64(1) : sign | AGK_U64(1);
  const int negative = (x & sign) != 0;
  return negative == !upward ? x + 1 : x - 1; /* +1: away from zero */
}

/* The largest finite value or infinity, by the direction, for a result too large. */
AGK_ROUNDED_FUNCTION agk_bits64 agk_overflow_bits(int negative, int width, int precision,
                                                  int direction) {
  const agk_bits64 infinity = ((AGK_U64(1) << (width - precision)) - 1) << (precision - 1);
  const agk_bits64 sign = negative ? AGK_U64(1) << (width - 1) : 0;
  const int away = direction == AGK_TO_NEAREST || (direction == AGK_UPWARD && !negative) ||
                   (direction == AGK_DOWNWARD && negative);
  return sign | (away ? infinity : infinity - 1);
}

/* y rounded to nearest (finite), moved by the direction: `side` is the sign of (exact - y). */
AGK_ROUNDED_FUNCTION agk_bits64 agk_pick_bits(agk_bits64 y, int side, int width, int direction) {
  const agk_bits64 sign = AGK_U64(1) << (width - 1);
  if (side == 0 || direction == AGK_TO_NEAREST) return y;
  if (direction == AGK_UPWARD) return side > 0 ? agk_step_bits(y, width, 1) : y;
  if (direction == AGK_DOWNWARD) return side < 0 ? agk_step_bits(y, width, 0) : y;
  if ((y & (sign - 1)) == 0) return y; /* a zero has the exact result's sign already */
  if (!(y & sign) && side < 0) return agk_step_bits(y, width, 0);
  if ((y & sign) && side > 0) return agk_step_bits(y, width, 1);
  return y;
}

/* ---- exact a*b + c in integers ---- */
typedef struct {
  agk_ull hi, lo;
} agk_u128;
/* (-1)^negative * m * 2^e */
typedef struct {
  int negative;
  agk_ull m;
  int e;
} agk_unpacked;
/* (-1)^negative * m * 2^e, m < 2^127; `zero` where the sum cancelled exactly */
typedef struct {
  int negative, zero;
  agk_u128 m;
  int e;
} agk_exact;

AGK_ROUNDED_FUNCTION agk_unpacked agk_unpack_bits(agk_bits64 x, int width, int precision) {
  const int exponent_bits = width - precision, bias = (1 << (exponent_bits - 1)) - 1;
  const int biased = (int)((x >> (precision - 1)) & ((AGK_U64(1) << exponent_bits) - 1));
  agk_unpacked u;
  u.negative = (int)(x >> (width - 1)) & 1;
  u.m = x & ((AGK_U64(1) << (precision - 1)) - 1);
  if (biased == 0) {
    u.e = 1 - bias - (precision - 1);
  } else {
    u.m |= AGK_U64(1) << (precision - 1);
    u.e = biased - bias - (precision - 1);
  }
  return u;
}

AGK_ROUNDED_FUNCTION int agk_clz128(agk_u128 x) {
  if (x.hi) return AGK_BUILTIN_64(clz)(x.hi);
  return x.lo ? 64 + AGK_BUILTIN_64(clz)(x.lo) : 128;
}
AGK_ROUNDED_FUNCTION agk_u128 agk_shift_left(agk_u128 x, int n) { /* 0 <= n < 128 */
  agk_u128 r;
  if (n == 0) return x;
  if (n >= 64) {
    r.hi = x.lo << (n - 64);
    r.lo = 0;
  } else {
    r.hi = (x.hi << n) | (x.lo >> (64 - n));
    r.lo = x.lo << n;
  }
  return r;
}
/* x >> n, n >= 0; with `jam` the bits shifted out are or-ed into the last bit (a sticky bit). */
AGK_ROUNDED_FUNCTION agk_u128 agk_shift_right(agk_u128 x, int n, int jam) {
  agk_u128 r;
  agk_ull lost;
  if (n <= 0) return x;
  if (n >= 128) {
    r.hi = 0;
    r.lo = jam && (x.hi | x.lo) != 0;
    return r;
  }
  if (n >= 64) {
    const int k = n - 64;
    lost = x.lo | (k ? x.hi << (64 - k) : 0);
    r.hi = 0;
    r.lo = k ? x.hi >> k : x.hi;
  } else {
    lost = x.lo << (64 - n);
    r.hi = x.hi >> n;
    r.lo = (x.lo >> n) | (x.hi << (64 - n));
  }
  if (jam && lost) r.lo |= 1;
  return r;
}
/* Whether x has a bit set below bit n (0 <= n <= 128). */
AGK_ROUNDED_FUNCTION int agk_low_bits_set(agk_u128 x, int n) {
  if (n >= 128) return (x.hi | x.lo) != 0;
  if (n >= 64) return x.lo != 0 || (n > 64 && (x.hi << (128 - n)) != 0);
  return n > 0 && (x.lo << (64 - n)) != 0;
}
AGK_ROUNDED_FUNCTION int agk_bit(agk_u128 x, int n) { /* 0 <= n < 128 */
  return (int)((n >= 64 ? x.hi >> (n - 64) : x.lo >> n) & 1);
}
AGK_ROUNDED_FUNCTION agk_u128 agk_multiply(agk_ull a, agk_ull b) {
  const agk_ull mask = AGK_U64(0xffffffff), a0 = a & mask, a1 = a >> 32, b0 = b & mask,
                b1 = b >> 32;
  const agk_ull p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const agk_ull middle = (p00 >> 32) + (p01 & mask) + (p10 & mask);
  agk_u128 r;
  r.lo = (middle << 32) | (p00 & mask);
  r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
  return r;
}

/* a*b + c exactly (a, b nonzero; c may be zero), both terms aligned with their top bit at bit 125
 * of 128: the product has at most 106 bits, so at least its lowest 19 bits are zero, and c's 73.
 * Bits of the smaller term shifted out (only past those zeros, so the sum keeps its top bit at 124
 * or above) are jammed into a sticky last bit: the result is then rounded at bit 72 or above,
 * where that bit decides the direction and ties exactly. */
AGK_ROUNDED_FUNCTION agk_exact agk_exact_fma(agk_unpacked a, agk_unpacked b, agk_unpacked c) {
  agk_exact r;
  agk_u128 product = agk_multiply(a.m, b.m), addend, big, small;
  int product_e = a.e + b.e, shift = agk_clz128(product) - 2;
  const int product_negative = a.negative ^ b.negative;
  product = agk_shift_left(product, shift);
  product_e -= shift;
  r.negative = product_negative;
  r.zero = 0;
  r.m = product;
  r.e = product_e;
  if (c.m == 0) return r;
  addend.hi = 0;
  addend.lo = c.m;
  shift = agk_clz128(addend) - 2;
  addend = agk_shift_left(addend, shift);
  const int addend_e = c.e - shift;
  /* Bitwise, not short-circuit: LLVM would freeze the comparisons for its selects, and SPIR-V has
   * no freeze. */
  const int addend_larger =
      (addend_e > product_e) |
      ((addend_e == product_e) &
       ((addend.hi > product.hi) | ((addend.hi == product.hi) & (addend.lo > product.lo))));
  big = addend_larger ? addend : product;
  small = addend_larger ? product : addend;
  r.e = addend_larger ? addend_e : product_e;
  r.negative = addend_larger ? c.negative : product_negative;
  small = agk_shift_right(small, r.e - (addend_larger ? product_e : addend_e), 1);
  if (c.negative == product_negative) {
    r.m.lo = big.lo + small.lo;
    r.m.hi = big.hi + small.hi + (r.m.lo < big.lo);
  } else {
    r.m.lo = big.lo - small.lo;
    r.m.hi = big.hi - small.hi - (big.lo < small.lo);
  }
  r.zero = (r.m.hi | r.m.lo) == 0;
  return r;
}

/* A nonzero exact value rounded to the format in the direction, as bits (subnormals, overflow). */
AGK_ROUNDED_FUNCTION agk_bits64 agk_round_exact(agk_exact x, int width, int precision,
                                                int direction) {
  const int exponent_bits = width - precision, emax = (1 << (exponent_bits - 1)) - 1;
  const int emin = 1 - emax, lowest = emin - (precision - 1); /* the last bit of a subnormal */
  const int top = x.e + 127 - agk_clz128(x.m);                /* exponent of the leading bit */
  const agk_bits64 sign = x.negative ? AGK_U64(1) << (width - 1) : 0;
  const int away =
      (direction == AGK_UPWARD && !x.negative) || (direction == AGK_DOWNWARD && x.negative);
  if (top > emax) return agk_overflow_bits(x.negative, width, precision, direction);
  int last = top - (precision - 1); /* exponent of the result's last bit */
  if (last < lowest) last = lowest;
  const int shift = last - x.e;
  agk_ull kept;
  int round_bit = 0, below = 0;
  if (shift <= 0) {
    kept = x.m.lo << -shift; /* x has at most `precision` bits here: exact */
  } else {
    kept = agk_shift_right(x.m, shift, 0).lo;
    round_bit = shift <= 128 ? agk_bit(x.m, shift - 1) : 0;
    below = agk_low_bits_set(x.m, shift - 1 < 128 ? shift - 1 : 128);
  }
  int increment = (round_bit || below) && away;
  if (direction == AGK_TO_NEAREST) increment = round_bit && (below || (kept & 1));
  /* The exponent field follows from `last` (a subnormal's is 0); a carry out of the significand
   * moves into it, up to infinity. */
  const agk_bits64 bits =
      ((agk_bits64)(last - lowest) << (precision - 1)) + kept + (agk_bits64)increment;
  const agk_bits64 infinity = ((AGK_U64(1) << exponent_bits) - 1) << (precision - 1);
  if (bits >= infinity) return agk_overflow_bits(x.negative, width, precision, direction);
  return sign | bits;
}

/* Per format: T, its name S, the unsigned integer of its width, width, precision, and the
 * thresholds above which fma-based errors keep their sign: a product of at least `products`
 * (2^(emin + 2p)), a dividend or radicand of at least `quotients` (2^(emin - p + 1 + 2p + 2)), a
 * quotient of at least `normal` (2^emin). */
#define AGK_DIRECTED_FORMAT(T, S, U, W, P, products, quotients, normal, FMA, SQRT, TRUNC)        \
  AGK_ROUNDED_FUNCTION agk_bits64 agk_bits_##S(T x) {                                            \
    union {                                                                                      \
      T value;                                                                                   \
      U bits;                                                                                    \
    } c;                                                                                         \
    c.value = x;                                                                                 \
    return c.bits;                                                                               \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_value_##S(agk_bits64 x) {                                           \
    union {                                                                                      \
      T value;                                                                                   \
      U bits;                                                                                    \
    } c;                                                                                         \
    c.bits = (U)x;                                                                               \
    return c.value;                                                                              \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_step_##S(T x, int upward) {                                         \
    return agk_value_##S(agk_step_bits(agk_bits_##S(x), W, upward));                             \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_pick_##S(T y, int side, int direction) {                            \
    return agk_value_##S(agk_pick_bits(agk_bits_##S(y), side, W, direction));                    \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_overflow_##S(int negative, int direction) {                         \
    return agk_value_##S(agk_overflow_bits(negative, W, P, direction));                          \
  }                                                                                              \
  /* The sign of the exact a*b + c (a, b finite and nonzero, c finite). */                       \
  AGK_ROUNDED_FUNCTION int agk_exact_sign_##S(T a, T b, T c) {                                   \
    const agk_exact x = agk_exact_fma(agk_unpack_bits(agk_bits_##S(a), W, P),                    \
                                      agk_unpack_bits(agk_bits_##S(b), W, P),                    \
                                      agk_unpack_bits(agk_bits_##S(c), W, P));                   \
    return x.zero ? 0 : x.negative ? -1 : 1;                                                     \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION int agk_sign_##S(T x) {                                                   \
    return (x > 0) - (x < 0);                                                                    \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_add_##S(T a, T b, int direction) {                                  \
    AGK_NO_CONTRACTION                                                                           \
    const T s = a + b;                                                                           \
    if (!__builtin_isfinite(s)) {                                                                \
      if (__builtin_isfinite(a) && __builtin_isfinite(b))                                        \
        return agk_overflow_##S(s < 0, direction);                                               \
      return s;                                                                                  \
    }                                                                                            \
    if (s == 0) /* exact: -0 under rd unless both are +0 */                                      \
      return direction == AGK_DOWNWARD ? -((-a) + (-b)) : s;                                     \
    /* Fast2Sum from the larger: s - big is exact and no larger than small (two-sum's s - a      \
     * could overflow near the largest values). */                                               \
    const int a_larger = (a < 0 ? -a : a) >= (b < 0 ? -b : b);                                   \
    const T error = (a_larger ? b : a) - (s - (a_larger ? a : b));                               \
    return agk_pick_##S(s, agk_sign_##S(error), direction);                                      \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_mul_##S(T a, T b, int direction) {                                  \
    AGK_NO_CONTRACTION                                                                           \
    const T p = a * b;                                                                           \
    if (!__builtin_isfinite(p)) {                                                                \
      if (__builtin_isfinite(a) && __builtin_isfinite(b))                                        \
        return agk_overflow_##S(p < 0, direction);                                               \
      return p;                                                                                  \
    }                                                                                            \
    if (a == 0 || b == 0) return p;                                                              \
    const int side = (p >= products || p <= -(products)) ? agk_sign_##S(FMA(a, b, -p))           \
                                                         : agk_exact_sign_##S(a, b, -p);         \
    return agk_pick_##S(p, side, direction);                                                     \
  }                                                                                              \
  /* The sign of (a / b - y), or with `root` of (sqrt(a) - y) (a > 0, y >= 0): a, b, y finite,   \
   * a, b nonzero. */                                                                            \
  AGK_ROUNDED_FUNCTION int agk_quotient_side_##S(T a, T b, T y, int root) {                      \
    AGK_NO_CONTRACTION                                                                           \
    const int b_sign = root ? 1 : agk_sign_##S(b);                                               \
    if (root) b = y;                                                                             \
    if (y == 0) return agk_sign_##S(a) * b_sign;                                                 \
    if ((a >= quotients || a <= -(quotients)) && (y >= normal || y <= -(normal)))                \
      return agk_sign_##S(FMA(-y, b, a)) * b_sign;                                               \
    return agk_exact_sign_##S(-y, b, a) * b_sign;                                                \
  }                                                                                              \
  /* y near a / b (or sqrt(a)), nonzero exact result of sign `negative`: the two values around   \
   * the exact result, checked, then picked by the direction. */                                 \
  AGK_ROUNDED_FUNCTION T agk_bracket_##S(T a, T b, T y, int root, int negative, int direction) { \
    int side = agk_quotient_side_##S(a, b, y, root), steps = 0;                                  \
    T low, high, next;                                                                           \
    if (side == 0) return y;                                                                     \
    for (;;) {                                                                                   \
      next = agk_step_##S(y, side > 0);                                                          \
      const int next_side =                                                                      \
          __builtin_isinf(next) ? -side : agk_quotient_side_##S(a, b, next, root);               \
      if (next_side == 0) return next;                                                           \
      if (next_side != side || ++steps == 8) break;                                              \
      y = next;                                                                                  \
    }                                                                                            \
    low = side > 0 ? y : next;                                                                   \
    high = side > 0 ? next : y;                                                                  \
    if (direction == AGK_TO_NEAREST) return y;                                                   \
    T result = direction == AGK_UPWARD     ? high                                                \
               : direction == AGK_DOWNWARD ? low                                                 \
               : negative                  ? high                                                \
                                           : low;                                                                 \
    if (result == 0) result = negative ? -(T)0 : (T)0;                                           \
    return result;                                                                               \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_div_##S(T a, T b, int direction) {                                  \
    const T q = a / b;                                                                           \
    if (!__builtin_isfinite(a) || !__builtin_isfinite(b) || a == 0 || b == 0) return q;          \
    const int negative = (a < 0) != (b < 0);                                                     \
    if (!__builtin_isfinite(q)) return agk_overflow_##S(negative, direction);                    \
    return agk_bracket_##S(a, b, q, 0, negative, direction);                                     \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_sqrt_##S(T x, int direction) {                                      \
    const T s = SQRT(x);                                                                         \
    if (!(x > 0) || !__builtin_isfinite(x)) return s;                                            \
    return agk_bracket_##S(x, x, s, 1, 0, direction);                                            \
  }                                                                                              \
  AGK_ROUNDED_FUNCTION T agk_fma_##S(T a, T b, T c, int direction) {                             \
    if (!__builtin_isfinite(a) || !__builtin_isfinite(b) || !__builtin_isfinite(c))              \
      return FMA(a, b, c);                                                                       \
    if (a == 0 || b == 0) {                                                                      \
      if (c != 0) return c;                                                                      \
      /* 0 + 0: the product's sign where both agree, else -0 under rd, +0 otherwise */           \
      if ((!__builtin_signbit(a) != !__builtin_signbit(b)) == !!__builtin_signbit(c)) return c;  \
      return direction == AGK_DOWNWARD ? -(T)0 : (T)0;                                           \
    }                                                                                            \
    const agk_exact x = agk_exact_fma(agk_unpack_bits(agk_bits_##S(a), W, P),                    \
                                      agk_unpack_bits(agk_bits_##S(b), W, P),                    \
                                      agk_unpack_bits(agk_bits_##S(c), W, P));                   \
    if (x.zero) return direction == AGK_DOWNWARD ? -(T)0 : (T)0;                                 \
    return agk_value_##S(agk_round_exact(x, W, P, direction));                                   \
  }                                                                                              \
  /* x rounded to an integral value in the direction (to nearest: ties to even). */              \
  AGK_ROUNDED_FUNCTION T agk_integral_##S(T x, int direction) {                                  \
    AGK_NO_CONTRACTION                                                                           \
    T t = TRUNC(x);                                                                              \
    const T fraction = x - t; /* exact; NaN for an infinity, which stays */                      \
    if (direction == AGK_UPWARD && fraction > 0) t += 1;                                         \
    if (direction == AGK_DOWNWARD && fraction < 0) t -= 1;                                       \
    if (direction == AGK_TO_NEAREST) {                                                           \
      const T size = fraction < 0 ? -fraction : fraction;                                        \
      if (size > (T)0.5 || (size == (T)0.5 && t != 2 * TRUNC(t * (T)0.5)))                       \
        t += fraction < 0 ? -1 : 1;                                                              \
    }                                                                                            \
    return t;                                                                                    \
  }
AGK_DIRECTED_FORMAT(float, f, unsigned int, 32, 24, 0x1p-78f, 0x1p-99f, 0x1p-126f, fmaf, sqrtf,
                    truncf)
AGK_DIRECTED_FORMAT(double, d, agk_ull, 64, 53, 0x1p-916, 0x1p-966, 0x1p-1022, fma, sqrt, trunc)

#define AGK_ARITHMETIC_OPERATION_fadd(x, y, direction) agk_add_f(x, y, direction)
#define AGK_ARITHMETIC_OPERATION_fsub(x, y, direction) agk_add_f(x, -(y), direction)
#define AGK_ARITHMETIC_OPERATION_fmul(x, y, direction) agk_mul_f(x, y, direction)
#define AGK_ARITHMETIC_OPERATION_fdiv(x, y, direction) agk_div_f(x, y, direction)
#define AGK_ARITHMETIC_OPERATION_frcp(x, direction) agk_div_f(1.0f, x, direction)
#define AGK_ARITHMETIC_OPERATION_fsqrt(x, direction) agk_sqrt_f(x, direction)
#define AGK_ARITHMETIC_OPERATION_fmaf(x, y, z, direction) agk_fma_f(x, y, z, direction)
#define AGK_ARITHMETIC_OPERATION_dadd(x, y, direction) agk_add_d(x, y, direction)
#define AGK_ARITHMETIC_OPERATION_dsub(x, y, direction) agk_add_d(x, -(y), direction)
#define AGK_ARITHMETIC_OPERATION_dmul(x, y, direction) agk_mul_d(x, y, direction)
#define AGK_ARITHMETIC_OPERATION_ddiv(x, y, direction) agk_div_d(x, y, direction)
#define AGK_ARITHMETIC_OPERATION_drcp(x, direction) agk_div_d(1.0, x, direction)
#define AGK_ARITHMETIC_OPERATION_dsqrt(x, direction) agk_sqrt_d(x, direction)
#define AGK_ARITHMETIC_OPERATION_fma(x, y, z, direction) agk_fma_d(x, y, z, direction)
#define AGK_ARITHMETIC_1(name, T, r)                              \
  AGK_ROUNDED_FUNCTION T __##name##_##r(T x) {                    \
    return AGK_ARITHMETIC_OPERATION_##name(x, AGK_DIRECTION_##r); \
  }
#define AGK_ARITHMETIC_2(name, T, r)                                 \
  AGK_ROUNDED_FUNCTION T __##name##_##r(T x, T y) {                  \
    return AGK_ARITHMETIC_OPERATION_##name(x, y, AGK_DIRECTION_##r); \
  }
#define AGK_ARITHMETIC_3(name, T, r)                                    \
  AGK_ROUNDED_FUNCTION T __##name##_##r(T x, T y, T z) {                \
    return AGK_ARITHMETIC_OPERATION_##name(x, y, z, AGK_DIRECTION_##r); \
  }

/* Floating point to integer, as NVIDIA's GPUs convert (an H200 measured): NaN gives 0 from a
 * float, 0x80000000 from a double to a 32-bit integer and 0x8000000000000000 for 64-bit results;
 * values beyond the integer's range give its nearest end. */
#define AGK_TO_INTEGER(T, S, To, name, low, limit, lowest, highest, nan_value) \
  AGK_ROUNDED_FUNCTION To agk_##S##_to_##name(T x, int direction) {            \
    if (x != x) return (To)(nan_value);                                        \
    const T t = agk_integral_##S(x, direction);                                \
    if (t >= (limit)) return (To)(highest);                                    \
    if (t < (low)) return (To)(lowest);                                        \
    return (To)t;                                                              \
  }
#define AGK_TO_INTEGER_EXPANDED(...) AGK_TO_INTEGER(__VA_ARGS__)
#define AGK_INT_RANGE -0x1p31, 0x1p31, -2147483647 - 1, 2147483647
#define AGK_UINT_RANGE 0, 0x1p32, 0u, 0xffffffffu
#define AGK_LL_RANGE                                                                  \
  -0x1p63, 0x1p63, (agk_ll)(-9223372036854775807L - 1), (agk_ll)9223372036854775807L, \
      (agk_ll)(-9223372036854775807L - 1)
#define AGK_ULL_RANGE \
  0, 0x1p64, AGK_U64(0), AGK_U64(0xffffffffffffffff), AGK_U64(0x8000000000000000)
AGK_TO_INTEGER_EXPANDED(float, f, int, int, AGK_INT_RANGE, 0)
AGK_TO_INTEGER_EXPANDED(double, d, int, int, AGK_INT_RANGE, -2147483647 - 1)
AGK_TO_INTEGER_EXPANDED(float, f, unsigned int, uint, AGK_UINT_RANGE, 0u)
AGK_TO_INTEGER_EXPANDED(double, d, unsigned int, uint, AGK_UINT_RANGE, 0x80000000u)
AGK_TO_INTEGER_EXPANDED(float, f, agk_ll, ll, AGK_LL_RANGE)
AGK_TO_INTEGER_EXPANDED(double, d, agk_ll, ll, AGK_LL_RANGE)
AGK_TO_INTEGER_EXPANDED(float, f, agk_ull, ull, AGK_ULL_RANGE)
AGK_TO_INTEGER_EXPANDED(double, d, agk_ull, ull, AGK_ULL_RANGE)

/* Integer to floating point: rounded to nearest by the conversion, then compared exactly as
 * integers (a result of 2^63 or 2^64 lies above every value of the type). */
#define AGK_FROM_INTEGER(From, name, T, S, Wide, limit)               \
  AGK_ROUNDED_FUNCTION T agk_##name##_to_##S(From x, int direction) { \
    const T y = (T)x;                                                 \
    int side = -1;                                                    \
    if (y < (limit)) {                                                \
      const Wide back = (Wide)y;                                      \
      side = ((Wide)x > back) - ((Wide)x < back);                     \
    }                                                                 \
    return agk_pick_##S(y, side, direction);                          \
  }
AGK_FROM_INTEGER(int, int, float, f, agk_ll, 0x1p63f)
AGK_FROM_INTEGER(unsigned int, uint, float, f, agk_ll, 0x1p63f)
AGK_FROM_INTEGER(agk_ll, ll, float, f, agk_ll, 0x1p63f)
AGK_FROM_INTEGER(agk_ull, ull, float, f, agk_ull, 0x1p64f)
AGK_FROM_INTEGER(agk_ll, ll, double, d, agk_ll, 0x1p63)
AGK_FROM_INTEGER(agk_ull, ull, double, d, agk_ull, 0x1p64)

AGK_ROUNDED_FUNCTION float agk_d_to_f(double x, int direction) {
  const float y = (float)x;
  if (x != x) return y;
  if (__builtin_isinf(y) && !__builtin_isinf(x)) return agk_overflow_f(x < 0, direction);
  return agk_pick_f(y, (x > (double)y) - (x < (double)y), direction);
}

#define AGK_CONVERSION_OPERATION_float2int agk_f_to_int
#define AGK_CONVERSION_OPERATION_float2uint agk_f_to_uint
#define AGK_CONVERSION_OPERATION_float2ll agk_f_to_ll
#define AGK_CONVERSION_OPERATION_float2ull agk_f_to_ull
#define AGK_CONVERSION_OPERATION_double2int agk_d_to_int
#define AGK_CONVERSION_OPERATION_double2uint agk_d_to_uint
#define AGK_CONVERSION_OPERATION_double2ll agk_d_to_ll
#define AGK_CONVERSION_OPERATION_double2ull agk_d_to_ull
#define AGK_CONVERSION_OPERATION_int2float agk_int_to_f
#define AGK_CONVERSION_OPERATION_uint2float agk_uint_to_f
#define AGK_CONVERSION_OPERATION_ll2float agk_ll_to_f
#define AGK_CONVERSION_OPERATION_ull2float agk_ull_to_f
#define AGK_CONVERSION_OPERATION_ll2double agk_ll_to_d
#define AGK_CONVERSION_OPERATION_ull2double agk_ull_to_d
#define AGK_CONVERSION_OPERATION_double2float agk_d_to_f
#define AGK_CONVERSION(name, From, To, r)                         \
  AGK_ROUNDED_FUNCTION To __##name##_##r(From x) {                \
    return AGK_CONVERSION_OPERATION_##name(x, AGK_DIRECTION_##r); \
  }
AGK_ROUNDED_FUNCTION double __int2double_rn(int x) {
  return (double)x;
}
AGK_ROUNDED_FUNCTION double __uint2double_rn(unsigned int x) {
  return (double)x;
}
#endif

/* ---- the intrinsics, on every target ---- */
#define AGK_DIRECTED_ARITHMETIC(r)   \
  AGK_ARITHMETIC_2(fadd, float, r)   \
  AGK_ARITHMETIC_2(fsub, float, r)   \
  AGK_ARITHMETIC_2(fmul, float, r)   \
  AGK_ARITHMETIC_2(fdiv, float, r)   \
  AGK_ARITHMETIC_1(frcp, float, r)   \
  AGK_ARITHMETIC_1(fsqrt, float, r)  \
  AGK_ARITHMETIC_3(fmaf, float, r)   \
  AGK_ARITHMETIC_2(dadd, double, r)  \
  AGK_ARITHMETIC_2(dsub, double, r)  \
  AGK_ARITHMETIC_2(dmul, double, r)  \
  AGK_ARITHMETIC_2(ddiv, double, r)  \
  AGK_ARITHMETIC_1(drcp, double, r)  \
  AGK_ARITHMETIC_1(dsqrt, double, r) \
  AGK_ARITHMETIC_3(fma, double, r)
AGK_DIRECTED_ARITHMETIC(rz)
AGK_DIRECTED_ARITHMETIC(ru)
AGK_DIRECTED_ARITHMETIC(rd)

#define AGK_ROUNDED_CONVERSIONS(r)                     \
  AGK_CONVERSION(float2int, float, int, r)             \
  AGK_CONVERSION(float2uint, float, unsigned int, r)   \
  AGK_CONVERSION(float2ll, float, agk_ll, r)           \
  AGK_CONVERSION(float2ull, float, agk_ull, r)         \
  AGK_CONVERSION(double2int, double, int, r)           \
  AGK_CONVERSION(double2uint, double, unsigned int, r) \
  AGK_CONVERSION(double2ll, double, agk_ll, r)         \
  AGK_CONVERSION(double2ull, double, agk_ull, r)       \
  AGK_CONVERSION(int2float, int, float, r)             \
  AGK_CONVERSION(uint2float, unsigned int, float, r)   \
  AGK_CONVERSION(ll2float, agk_ll, float, r)           \
  AGK_CONVERSION(ull2float, agk_ull, float, r)         \
  AGK_CONVERSION(ll2double, agk_ll, double, r)         \
  AGK_CONVERSION(ull2double, agk_ull, double, r)       \
  AGK_CONVERSION(double2float, double, float, r)
AGK_ROUNDED_CONVERSIONS(rn)
AGK_ROUNDED_CONVERSIONS(rz)
AGK_ROUNDED_CONVERSIONS(ru)
AGK_ROUNDED_CONVERSIONS(rd)
#if defined(__CUDA_ARCH__)
AGK_CONVERSION(int2double, int, double, rn)
AGK_CONVERSION(uint2double, unsigned int, double, rn)
#endif

#endif /* ANYGPU_DETAIL_MATH_DIRECTED_H */
