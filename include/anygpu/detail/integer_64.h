/* integer_64.h — CUDA's 64-bit integers (long long) on every target: in C++ for OpenCL long long
 * is 128 bits and long is 64. Included by bit_intrinsics.h and math_directed.h; do not include
 * directly. */
#ifndef ANYGPU_DETAIL_INTEGER_64_H
#define ANYGPU_DETAIL_INTEGER_64_H

#if defined(AGK_OPENCL)
typedef long agk_ll;
typedef unsigned long agk_ull;
#define AGK_BUILTIN_64(name) __builtin_##name##l
#else
typedef long long agk_ll;
typedef unsigned long long agk_ull;
#define AGK_BUILTIN_64(name) __builtin_##name##ll
#endif

#endif /* ANYGPU_DETAIL_INTEGER_64_H */
