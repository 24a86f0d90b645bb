/* bit_intrinsics.h — CUDA's integer intrinsics on every target, with CUDA's results for every
 * input: __popc, __clz, __ffs, __brev (and their ll forms), __byte_perm, __funnelshift_l/lc/r/rc,
 * __mul24, __umul24, __mulhi, __umulhi, __mul64hi, __umul64hi, __sad, __usad, and the halving
 * adds __hadd, __rhadd, __uhadd, __urhadd. Included by cuda_syntax.h (C++ kernels, CUDA sources
 * and AG_KERNEL alike); do not include directly. docs/kernel-dialect.md, "Integer intrinsics".
 *
 * Written with clang's and GCC's bit builtins, which every target lowers (popcount, clz and ctz
 * become OpenCL's popcount/clz/ctz in SPIR-V). What a target might leave undefined is spelled out:
 * __clz(0) is 32 and __ffs(0) 0 as in CUDA, not the builtins' undefined result. */
#ifndef ANYGPU_DETAIL_BIT_INTRINSICS_H
#define ANYGPU_DETAIL_BIT_INTRINSICS_H

#include "integer_64.h" /* agk_ll, agk_ull: CUDA's long long */

AG_DEVICE int __popc(unsigned int x) {
  return __builtin_popcount(x);
}
AG_DEVICE int __popcll(agk_ull x) {
  return AGK_BUILTIN_64(popcount)(x);
}
AG_DEVICE int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz((unsigned int)x);
}
AG_DEVICE int __clzll(agk_ll x) {
  return x == 0 ? 64 : AGK_BUILTIN_64(clz)((agk_ull)x);
}
/* The position of the lowest set bit, counting from 1; 0 for 0. */
AG_DEVICE int __ffs(int x) {
  return x == 0 ? 0 : __builtin_ctz((unsigned int)x) + 1;
}
AG_DEVICE int __ffsll(agk_ll x) {
  return x == 0 ? 0 : AGK_BUILTIN_64(ctz)((agk_ull)x) + 1;
}

/* Bit reversal. SPIR-V's OpBitReverse needs the Shader capability, which OpenCL devices lack, and
 * LLVM turns the usual shift-and-mask form into it; a table of the 16 reversed nibbles is a form
 * it leaves alone. */
#if defined(AGK_OPENCL) || defined(AGK_SPIRV_HIP)
AG_DEVICE unsigned int __brev(unsigned int x) {
  const agk_ull reversed_nibbles = 0xF7B3D591E6A2C480ull;
  unsigned int result = 0;
  for (int n = 0; n < 8; ++n)
    result |= (unsigned int)((reversed_nibbles >> (4 * ((x >> (4 * n)) & 15u))) & 15u)
              << (28 - 4 * n);
  return result;
}
#elif defined(__clang__)
AG_DEVICE unsigned int __brev(unsigned int x) {
  return __builtin_bitreverse32(x);
}
#else
AG_DEVICE unsigned int __brev(unsigned int x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
  return (x >> 16) | (x << 16);
}
#endif
AG_DEVICE agk_ull __brevll(agk_ull x) {
  return ((agk_ull)__brev((unsigned int)x) << 32) | __brev((unsigned int)(x >> 32));
}

/* Byte n of the result is byte s<4n+2:4n> of the eight bytes y:x (x's bytes are 0..3); the
 * fourth bit of each selector and the upper half of s are ignored, as CUDA documents. */
AG_DEVICE unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
#if defined(__CUDA_ARCH__)
  return __nvvm_prmt(x, y, s & 0x7777u); /* prmt's fourth selector bit replicates the sign */
#else
  const agk_ull bytes = ((agk_ull)y << 32) | x;
  unsigned int result = 0;
  for (int n = 0; n < 4; ++n) {
    const unsigned int select = (s >> (4 * n)) & 7u;
    result |= (unsigned int)((bytes >> (8 * select)) & 0xFFu) << (8 * n);
  }
  return result;
#endif
}

/* Funnel shifts of the 64 bits hi:lo: _l keeps the upper word after a left shift, _r the lower
 * word after a right shift; the plain forms take the shift modulo 32, the c forms clamp it to 32.
 */
AG_DEVICE unsigned int agk_funnel_left(unsigned int lo, unsigned int hi, unsigned int shift) {
  const agk_ull both = ((agk_ull)hi << 32) | lo;
  return (unsigned int)((both << shift) >> 32);
}
AG_DEVICE unsigned int agk_funnel_right(unsigned int lo, unsigned int hi, unsigned int shift) {
  const agk_ull both = ((agk_ull)hi << 32) | lo;
  return (unsigned int)(both >> shift);
}
AG_DEVICE unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  return agk_funnel_left(lo, hi, shift & 31u);
}
AG_DEVICE unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return agk_funnel_left(lo, hi, shift < 32u ? shift : 32u);
}
AG_DEVICE unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  return agk_funnel_right(lo, hi, shift & 31u);
}
AG_DEVICE unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return agk_funnel_right(lo, hi, shift < 32u ? shift : 32u);
}

/* The product of the low 24 bits (sign-extended for __mul24), low 32 bits of it. */
AG_DEVICE int __mul24(int x, int y) {
  const int a = (int)((unsigned int)x << 8) >> 8, b = (int)((unsigned int)y << 8) >> 8;
  return (int)((unsigned int)a * (unsigned int)b);
}
AG_DEVICE unsigned int __umul24(unsigned int x, unsigned int y) {
  return (x & 0xFFFFFFu) * (y & 0xFFFFFFu);
}
/* The upper half of the full product. */
AG_DEVICE int __mulhi(int x, int y) {
  return (int)(((agk_ll)x * (agk_ll)y) >> 32);
}
AG_DEVICE unsigned int __umulhi(unsigned int x, unsigned int y) {
  return (unsigned int)(((agk_ull)x * (agk_ull)y) >> 32);
}
/* The upper 64 bits of a 64 x 64-bit product. SPIR-V has OpenCL's mul_hi (llvm-spirv 15 refuses
 * the 128-bit multiplication LLVM makes of the portable form); elsewhere 128-bit arithmetic. */
#if defined(AGK_OPENCL)
AG_DEVICE agk_ull __umul64hi(agk_ull x, agk_ull y) {
  return mul_hi((ulong)x, (ulong)y);
}
AG_DEVICE agk_ll __mul64hi(agk_ll x, agk_ll y) {
  return mul_hi((long)x, (long)y);
}
#elif defined(AGK_SPIRV_HIP)
__attribute__((device)) unsigned long __spirv_ocl_u_mul_hi(unsigned long x, unsigned long y);
__attribute__((device)) long __spirv_ocl_s_mul_hi(long x, long y);
AG_DEVICE agk_ull __umul64hi(agk_ull x, agk_ull y) {
  return __spirv_ocl_u_mul_hi(x, y);
}
AG_DEVICE agk_ll __mul64hi(agk_ll x, agk_ll y) {
  return __spirv_ocl_s_mul_hi(x, y);
}
#else
AG_DEVICE agk_ull __umul64hi(agk_ull x, agk_ull y) {
  return (agk_ull)(((unsigned __int128)x * y) >> 64);
}
AG_DEVICE agk_ll __mul64hi(agk_ll x, agk_ll y) {
  return (agk_ll)(((__int128)x * y) >> 64);
}
#endif

/* |x - y| + z, the difference taken without overflow. */
AG_DEVICE unsigned int __sad(int x, int y, unsigned int z) {
  return (x > y ? (unsigned int)x - (unsigned int)y : (unsigned int)y - (unsigned int)x) + z;
}
AG_DEVICE unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return (x > y ? x - y : y - x) + z;
}

/* Halving adds without overflow: (x + y) >> 1 and (x + y + 1) >> 1 of the exact sum. The
 * __half overloads of __hadd are in anygpu/half.h. */
AG_DEVICE int __hadd(int x, int y) {
  return (int)(((agk_ll)x + (agk_ll)y) >> 1);
}
AG_DEVICE int __rhadd(int x, int y) {
  return (int)(((agk_ll)x + (agk_ll)y + 1) >> 1);
}
AG_DEVICE unsigned int __uhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((agk_ull)x + y) >> 1);
}
AG_DEVICE unsigned int __urhadd(unsigned int x, unsigned int y) {
  return (unsigned int)(((agk_ull)x + y + 1) >> 1);
}

#undef AGK_BUILTIN_64

#endif /* ANYGPU_DETAIL_BIT_INTRINSICS_H */
