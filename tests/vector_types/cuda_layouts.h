/* The size and alignment of each of CUDA's vector types, read from CUDA 13's vector_types.h
 * (/usr/local/cuda/include) for LP64 (Linux x86-64 and AArch64): the values anygpu/vector_types.h
 * must match so that a host program's values reach a CUDA-compiled kernel byte for byte. Members
 * follow one another without padding: member i is at i * (element bytes).
 *
 *   X(type, element type, width, element bytes, size, alignment) */
#ifndef ANYGPU_TESTS_CUDA_LAYOUTS_H
#define ANYGPU_TESTS_CUDA_LAYOUTS_H

#define CUDA_VECTOR_LAYOUTS(X)                        \
  X(char1, signed char, 1, 1, 1, 1)                   \
  X(char2, signed char, 2, 1, 2, 2)                   \
  X(char3, signed char, 3, 1, 3, 1)                   \
  X(char4, signed char, 4, 1, 4, 4)                   \
  X(uchar1, unsigned char, 1, 1, 1, 1)                \
  X(uchar2, unsigned char, 2, 1, 2, 2)                \
  X(uchar3, unsigned char, 3, 1, 3, 1)                \
  X(uchar4, unsigned char, 4, 1, 4, 4)                \
  X(short1, short, 1, 2, 2, 2)                        \
  X(short2, short, 2, 2, 4, 4)                        \
  X(short3, short, 3, 2, 6, 2)                        \
  X(short4, short, 4, 2, 8, 8)                        \
  X(ushort1, unsigned short, 1, 2, 2, 2)              \
  X(ushort2, unsigned short, 2, 2, 4, 4)              \
  X(ushort3, unsigned short, 3, 2, 6, 2)              \
  X(ushort4, unsigned short, 4, 2, 8, 8)              \
  X(int1, int, 1, 4, 4, 4)                            \
  X(int2, int, 2, 4, 8, 8)                            \
  X(int3, int, 3, 4, 12, 4)                           \
  X(int4, int, 4, 4, 16, 16)                          \
  X(uint1, unsigned int, 1, 4, 4, 4)                  \
  X(uint2, unsigned int, 2, 4, 8, 8)                  \
  X(uint3, unsigned int, 3, 4, 12, 4)                 \
  X(uint4, unsigned int, 4, 4, 16, 16)                \
  X(long1, long, 1, 8, 8, 8)                          \
  X(long2, long, 2, 8, 16, 16)                        \
  X(long3, long, 3, 8, 24, 8)                         \
  X(long4, long, 4, 8, 32, 16)                        \
  X(long4_16a, long, 4, 8, 32, 16)                    \
  X(long4_32a, long, 4, 8, 32, 32)                    \
  X(ulong1, unsigned long, 1, 8, 8, 8)                \
  X(ulong2, unsigned long, 2, 8, 16, 16)              \
  X(ulong3, unsigned long, 3, 8, 24, 8)               \
  X(ulong4, unsigned long, 4, 8, 32, 16)              \
  X(ulong4_16a, unsigned long, 4, 8, 32, 16)          \
  X(ulong4_32a, unsigned long, 4, 8, 32, 32)          \
  X(longlong1, long long, 1, 8, 8, 8)                 \
  X(longlong2, long long, 2, 8, 16, 16)               \
  X(longlong3, long long, 3, 8, 24, 8)                \
  X(longlong4, long long, 4, 8, 32, 16)               \
  X(longlong4_16a, long long, 4, 8, 32, 16)           \
  X(longlong4_32a, long long, 4, 8, 32, 32)           \
  X(ulonglong1, unsigned long long, 1, 8, 8, 8)       \
  X(ulonglong2, unsigned long long, 2, 8, 16, 16)     \
  X(ulonglong3, unsigned long long, 3, 8, 24, 8)      \
  X(ulonglong4, unsigned long long, 4, 8, 32, 16)     \
  X(ulonglong4_16a, unsigned long long, 4, 8, 32, 16) \
  X(ulonglong4_32a, unsigned long long, 4, 8, 32, 32) \
  X(float1, float, 1, 4, 4, 4)                        \
  X(float2, float, 2, 4, 8, 8)                        \
  X(float3, float, 3, 4, 12, 4)                       \
  X(float4, float, 4, 4, 16, 16)                      \
  X(double1, double, 1, 8, 8, 8)                      \
  X(double2, double, 2, 8, 16, 16)                    \
  X(double3, double, 3, 8, 24, 8)                     \
  X(double4, double, 4, 8, 32, 16)                    \
  X(double4_16a, double, 4, 8, 32, 16)                \
  X(double4_32a, double, 4, 8, 32, 32)

/* dim3: three unsigned ints, 12 bytes, align 4. */
#define CUDA_DIM3_SIZE 12
#define CUDA_DIM3_ALIGNMENT 4

/* Expressions, true when right, for a vector of each width n (C and C++, constant where the
 * operands are):
 *   CUDA_OFFSETS_OK_n(type, element bytes): x, y, z, w one after another, no padding;
 *   make_<type>(CUDA_MAKE_ARGS_n(T)) gives 11, 12, 13, 14, which CUDA_MADE_OK_n(value, T) checks
 *   member by member (a swapped member fails). */
#define CUDA_OFFSETS_OK_1(type, bytes) (offsetof(type, x) == 0)
#define CUDA_OFFSETS_OK_2(type, bytes) \
  (CUDA_OFFSETS_OK_1(type, bytes) && offsetof(type, y) == (bytes))
#define CUDA_OFFSETS_OK_3(type, bytes) \
  (CUDA_OFFSETS_OK_2(type, bytes) && offsetof(type, z) == 2 * (bytes))
#define CUDA_OFFSETS_OK_4(type, bytes) \
  (CUDA_OFFSETS_OK_3(type, bytes) && offsetof(type, w) == 3 * (bytes))
#define CUDA_MAKE_ARGS_1(T) (T)11
#define CUDA_MAKE_ARGS_2(T) CUDA_MAKE_ARGS_1(T), (T)12
#define CUDA_MAKE_ARGS_3(T) CUDA_MAKE_ARGS_2(T), (T)13
#define CUDA_MAKE_ARGS_4(T) CUDA_MAKE_ARGS_3(T), (T)14
#define CUDA_MADE_OK_1(v, T) ((v).x == (T)11)
#define CUDA_MADE_OK_2(v, T) (CUDA_MADE_OK_1(v, T) && (v).y == (T)12)
#define CUDA_MADE_OK_3(v, T) (CUDA_MADE_OK_2(v, T) && (v).z == (T)13)
#define CUDA_MADE_OK_4(v, T) (CUDA_MADE_OK_3(v, T) && (v).w == (T)14)

#endif
