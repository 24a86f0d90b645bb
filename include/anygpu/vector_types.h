/*
 * vector_types.h — CUDA's vector types and their make_* functions, for host programs (C and C++)
 * and kernels.
 *
 *   #include <anygpu/vector_types.h>
 *
 *   float4 v = make_float4(1.0f, 2.0f, 3.0f, 4.0f);   // a kernel argument, as in CUDA
 *   dim3 block(256);                                   // y and z default to 1 (C++)
 *
 * Types: char1..4, uchar1..4, short1..4, ushort1..4, int1..4, uint1..4, long1..4, ulong1..4,
 * longlong1..4, ulonglong1..4, float1..4, double1..4, the 4-wide 64-bit types also as _16a and _32a
 * (long4_16a, double4_32a, ...), and dim3. Each is a plain struct with members x, y, z, w and
 * CUDA's size and alignment (LP64), so values cross between host and device byte for byte:
 *
 *   1-wide and 3-wide: the element's alignment (float3: 12 bytes, align 4).
 *   2-wide: twice the element's size, 4-wide: four times, at most 16
 *     (char2 2, short2 4, char4 4, short4 8, int2 8, float2 8, int4 16, float4 16, long2 16,
 *     double2 16, double4 16).
 *   4-wide 64-bit types (long4, ulong4, longlong4, ulonglong4, double4): align 16, as CUDA 12;
 *     CUDA 13 deprecates these names for the explicit _16a (align 16) and _32a (align 32) forms,
 *     offered here too.
 *
 * No arithmetic operators, as in CUDA: programs that want them define their own (cuda-samples'
 * helper_math.h), which would clash with ours.
 *
 * In kernels, anygpu/kernel.h includes this header on the host target and the CUDA and HIP
 * targets. In C++ for OpenCL (the dialect's SPIR-V target) OpenCL's built-in vector types
 * (char2..16, float2..16, ...) are used instead: they have no 1-wide form, no longlong, and their
 * 3-wide types are 4 elements in size and alignment (float3: 16 bytes, align 16), unlike CUDA's.
 * There this header offers only the make_* functions of the 2-, 3- and 4-wide types OpenCL has,
 * and dim3. docs/kernel-dialect.md describes the types per target.
 */
#ifndef ANYGPU_VECTOR_TYPES_H
#define ANYGPU_VECTOR_TYPES_H

/* CUDA and HIP compiles need the functions on both sides. */
#if defined(__CUDA__) || defined(__HIP__)
#define AGV_HOST_DEVICE __attribute__((host, device))
#else
#define AGV_HOST_DEVICE
#endif

#if defined(__cplusplus)
#define AGV_FUNCTION inline constexpr AGV_HOST_DEVICE
#define AGV_LITERAL(type) type
#else
#define AGV_FUNCTION static inline
#define AGV_LITERAL(type) (type)
#endif

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_CPP_VERSION__)
/* ------------------------- C++ for OpenCL: make_* over OpenCL's own types ----------------------
 */
#define AGV_MAKE_BUILTIN(name, T)                           \
  AGV_FUNCTION name##2 make_##name##2(T x, T y) {           \
    return (name##2)(x, y);                                 \
  }                                                         \
  AGV_FUNCTION name##3 make_##name##3(T x, T y, T z) {      \
    return (name##3)(x, y, z);                              \
  }                                                         \
  AGV_FUNCTION name##4 make_##name##4(T x, T y, T z, T w) { \
    return (name##4)(x, y, z, w);                           \
  }
AGV_MAKE_BUILTIN(char, char)
AGV_MAKE_BUILTIN(uchar, uchar)
AGV_MAKE_BUILTIN(short, short)
AGV_MAKE_BUILTIN(ushort, ushort)
AGV_MAKE_BUILTIN(int, int)
AGV_MAKE_BUILTIN(uint, uint)
AGV_MAKE_BUILTIN(long, long)
AGV_MAKE_BUILTIN(ulong, ulong)
AGV_MAKE_BUILTIN(float, float)
AGV_MAKE_BUILTIN(double, double)
#undef AGV_MAKE_BUILTIN

#else
/* ------------------------------------ CUDA's vector types --------------------------------------
 * AGV_VECTORn(name, T, alignment): struct name of n T's with that alignment, and make_<name>. */
#define AGV_VECTOR1(name, T, alignment)                     \
  typedef struct __attribute__((aligned(alignment))) name { \
    T x;                                                    \
  } name;                                                   \
  AGV_FUNCTION name make_##name(T x) {                      \
    return AGV_LITERAL(name){x};                            \
  }
#define AGV_VECTOR2(name, T, alignment)                     \
  typedef struct __attribute__((aligned(alignment))) name { \
    T x, y;                                                 \
  } name;                                                   \
  AGV_FUNCTION name make_##name(T x, T y) {                 \
    return AGV_LITERAL(name){x, y};                         \
  }
#define AGV_VECTOR3(name, T, alignment)                     \
  typedef struct __attribute__((aligned(alignment))) name { \
    T x, y, z;                                              \
  } name;                                                   \
  AGV_FUNCTION name make_##name(T x, T y, T z) {            \
    return AGV_LITERAL(name){x, y, z};                      \
  }
#define AGV_VECTOR4(name, T, alignment)                     \
  typedef struct __attribute__((aligned(alignment))) name { \
    T x, y, z, w;                                           \
  } name;                                                   \
  AGV_FUNCTION name make_##name(T x, T y, T z, T w) {       \
    return AGV_LITERAL(name){x, y, z, w};                   \
  }
/* A family: name1..name4, with the alignment of each width. */
#define AGV_FAMILY(name, T, align1, align2, align3, align4) \
  AGV_VECTOR1(name##1, T, align1)                           \
  AGV_VECTOR2(name##2, T, align2)                           \
  AGV_VECTOR3(name##3, T, align3)                           \
  AGV_VECTOR4(name##4, T, align4)

#ifdef __cplusplus
extern "C++" {
#endif

AGV_FAMILY(char, signed char, 1, 2, 1, 4)
AGV_FAMILY(uchar, unsigned char, 1, 2, 1, 4)
AGV_FAMILY(short, short, 2, 4, 2, 8)
AGV_FAMILY(ushort, unsigned short, 2, 4, 2, 8)
AGV_FAMILY(int, int, 4, 8, 4, 16)
AGV_FAMILY(uint, unsigned int, 4, 8, 4, 16)
/* long2 is aligned to its size, as in CUDA (16 on LP64, 8 where long is 4 bytes). */
AGV_FAMILY(long, long, sizeof(long), 2 * sizeof(long), sizeof(long), 16)
AGV_FAMILY(ulong, unsigned long, sizeof(long), 2 * sizeof(long), sizeof(long), 16)
AGV_FAMILY(longlong, long long, 8, 16, 8, 16)
AGV_FAMILY(ulonglong, unsigned long long, 8, 16, 8, 16)
AGV_FAMILY(float, float, 4, 8, 4, 16)
AGV_FAMILY(double, double, 8, 16, 8, 16)

/* CUDA 13's explicit forms of the 4-wide 64-bit types. */
AGV_VECTOR4(long4_16a, long, 16)
AGV_VECTOR4(long4_32a, long, 32)
AGV_VECTOR4(ulong4_16a, unsigned long, 16)
AGV_VECTOR4(ulong4_32a, unsigned long, 32)
AGV_VECTOR4(longlong4_16a, long long, 16)
AGV_VECTOR4(longlong4_32a, long long, 32)
AGV_VECTOR4(ulonglong4_16a, unsigned long long, 16)
AGV_VECTOR4(ulonglong4_32a, unsigned long long, 32)
AGV_VECTOR4(double4_16a, double, 16)
AGV_VECTOR4(double4_32a, double, 32)

#ifdef __cplusplus
}
#endif

#undef AGV_FAMILY
#undef AGV_VECTOR1
#undef AGV_VECTOR2
#undef AGV_VECTOR3
#undef AGV_VECTOR4
#endif /* OpenCL */

/* ------------------------------------------ dim3 -----------------------------------------------
 * Three unsigned ints, 12 bytes, align 4. In C++, as CUDA's: each size defaults to 1 and it
 * converts to and from uint3 (OpenCL's uint3 is a different type, so not there). In kernels,
 * threadIdx and the other indices convert to dim3 and uint3 (anygpu/kernel.h). */
typedef struct dim3 {
  unsigned int x, y, z;
#ifdef __cplusplus
  constexpr AGV_HOST_DEVICE dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_CPP_VERSION__)
  constexpr AGV_HOST_DEVICE dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr AGV_HOST_DEVICE operator uint3() const { return uint3{x, y, z}; }
#endif
#endif
} dim3;

#undef AGV_FUNCTION
#undef AGV_LITERAL
#undef AGV_HOST_DEVICE

#endif /* ANYGPU_VECTOR_TYPES_H */
