// CUDA's atomic functions, every overload in every form (name, name_block, name_system), as one
// list for the kernel cuda_atomics_every_form (kernels/cuda_atomics.cpp) and its host reference
// (tests/conformance/atomics_test.cpp), which runs the same list on plain read-modify-writes.
#ifndef ANYGPU_KERNELS_CUDA_ATOMICS_H
#define ANYGPU_KERNELS_CUDA_ATOMICS_H

// CUDA's 64-bit types. C++ for OpenCL (the spir64 build of AG_KERNEL sources) makes long long 128
// bits wide, so there the same 64 bits are long (docs/kernel-dialect.md, "Atomics").
#if defined(AGK_OPENCL)
typedef unsigned long ag_test_ull;
typedef long ag_test_ll;
#else
typedef unsigned long long ag_test_ull;
typedef long long ag_test_ll;
#endif

// The memory every form works on, the same layout on every target.
struct ag_atomic_slots {
  int i[4];
  unsigned u[4];
  ag_test_ull ull[4];
  ag_test_ll ll[2];
  long l[2];  // int64_t on LP64 targets: the dialect's 64-bit overloads beyond CUDA's
  float f[2];
  double d[2];
  unsigned short us[4];
};

// The slots' starting values.
#define AG_ATOMIC_SLOTS_INITIAL                                        \
  {{10, -1, 5, 0}, {1, 0xf0u, 8, 0}, {2, 0xff00ull, 9, 0}, {-7, 0x0f}, \
   {100, 3},       {0.5f, 1.0f},     {0.25, 4.0},          {1, 2, 0xfffe, 7}}

// A step's result (the old value) as 64 bits: integers converted, floats' bits.
#ifdef AG_DEVICE
#define AG_ATOMIC_TEST_FUNCTION AG_DEVICE
#else
#define AG_ATOMIC_TEST_FUNCTION inline
#endif
template <typename T>
AG_ATOMIC_TEST_FUNCTION ag_test_ull ag_atomic_bits(T value) {
  return (ag_test_ull)value;
}
AG_ATOMIC_TEST_FUNCTION ag_test_ull ag_atomic_bits(float value) {
  return __builtin_bit_cast(unsigned int, value);
}
AG_ATOMIC_TEST_FUNCTION ag_test_ull ag_atomic_bits(double value) {
  return __builtin_bit_cast(ag_test_ull, value);
}

// Each step's result (the old value) converted to 64 bits, in order: X(expression).
// clang-format off
#define AG_ATOMIC_FORMS(X, f, ...) X(f(__VA_ARGS__)) X(f##_block(__VA_ARGS__)) X(f##_system(__VA_ARGS__))
#define AG_ATOMIC_STEPS(X, s)                                                           \
  AG_ATOMIC_FORMS(X, atomicAdd, &s->i[0], 5)                                            \
  AG_ATOMIC_FORMS(X, atomicAdd, &s->u[0], 1)                                            \
  AG_ATOMIC_FORMS(X, atomicAdd, &s->ull[0], 1)                                          \
  AG_ATOMIC_FORMS(X, atomicAdd, &s->ull[0], (ag_test_ull)1 << 33)                       \
  AG_ATOMIC_FORMS(X, atomicAdd, &s->l[0], -30)                                          \
  AG_ATOMIC_FORMS(X, atomicAdd, &s->f[0], 1.5f)                                         \
  AG_ATOMIC_FORMS(X, atomicAdd, &s->d[0], 2.25)                                         \
  AG_ATOMIC_FORMS(X, atomicSub, &s->i[0], 2)                                            \
  AG_ATOMIC_FORMS(X, atomicSub, &s->u[0], 3)                                            \
  AG_ATOMIC_FORMS(X, atomicSub, &s->l[0], 1)                                            \
  AG_ATOMIC_FORMS(X, atomicExch, &s->i[1], -9)                                          \
  AG_ATOMIC_FORMS(X, atomicExch, &s->u[1], 11)                                          \
  AG_ATOMIC_FORMS(X, atomicExch, &s->ull[1], (ag_test_ull)1 << 40)                      \
  AG_ATOMIC_FORMS(X, atomicExch, &s->f[1], 2.5f)                                        \
  AG_ATOMIC_FORMS(X, atomicExch, &s->d[1], -8.0)                                        \
  AG_ATOMIC_FORMS(X, atomicMin, &s->i[2], 3)                                            \
  AG_ATOMIC_FORMS(X, atomicMin, &s->u[2], 7)                                            \
  AG_ATOMIC_FORMS(X, atomicMin, &s->ll[0], -9)                                          \
  AG_ATOMIC_FORMS(X, atomicMin, &s->ull[2], 4)                                          \
  AG_ATOMIC_FORMS(X, atomicMax, &s->i[2], 6)                                            \
  AG_ATOMIC_FORMS(X, atomicMax, &s->u[2], 0x80000005u)                                         \
  AG_ATOMIC_FORMS(X, atomicMax, &s->ll[0], -1)                                          \
  AG_ATOMIC_FORMS(X, atomicMax, &s->ull[2], (ag_test_ull)1 << 63 | 5)                     \
  AG_ATOMIC_FORMS(X, atomicMax, &s->l[1], 5)                                            \
  AG_ATOMIC_FORMS(X, atomicInc, &s->u[3], 1)                                            \
  AG_ATOMIC_FORMS(X, atomicInc, &s->u[3], 5)                                            \
  AG_ATOMIC_FORMS(X, atomicDec, &s->u[3], 2)                                            \
  AG_ATOMIC_FORMS(X, atomicDec, &s->u[3], 0)                                            \
  AG_ATOMIC_FORMS(X, atomicCAS, &s->i[3], 0, 4)                                         \
  AG_ATOMIC_FORMS(X, atomicCAS, &s->u[3], 0, 9)                                         \
  AG_ATOMIC_FORMS(X, atomicCAS, &s->ull[3], 0, (ag_test_ull)3 << 36)                    \
  AG_ATOMIC_FORMS(X, atomicCAS, &s->us[1], 2, 0xabcd)                                   \
  AG_ATOMIC_FORMS(X, atomicCAS, &s->us[2], 0xfffe, 1)                                   \
  AG_ATOMIC_FORMS(X, atomicAnd, &s->i[1], ~6)                                           \
  AG_ATOMIC_FORMS(X, atomicAnd, &s->u[1], 0x3cu)                                        \
  AG_ATOMIC_FORMS(X, atomicAnd, &s->ll[1], 0x3c)                                        \
  AG_ATOMIC_FORMS(X, atomicAnd, &s->ull[1], ~((ag_test_ull)1 << 40))                    \
  AG_ATOMIC_FORMS(X, atomicOr, &s->i[1], 0x100)                                         \
  AG_ATOMIC_FORMS(X, atomicOr, &s->u[1], 0x8001u)                                       \
  AG_ATOMIC_FORMS(X, atomicOr, &s->ll[1], (ag_test_ll)1 << 60)                          \
  AG_ATOMIC_FORMS(X, atomicOr, &s->ull[1], (ag_test_ull)0xf << 44)                      \
  AG_ATOMIC_FORMS(X, atomicXor, &s->i[1], 0x55)                                         \
  AG_ATOMIC_FORMS(X, atomicXor, &s->u[1], 0xff)                                         \
  AG_ATOMIC_FORMS(X, atomicXor, &s->ll[1], -1)                                          \
  AG_ATOMIC_FORMS(X, atomicXor, &s->ull[1], 0x1234)
// clang-format on

#define AG_ATOMIC_COUNT(expression) +1
enum { ag_atomic_step_count = 0 AG_ATOMIC_STEPS(AG_ATOMIC_COUNT, s) };

#endif  // ANYGPU_KERNELS_CUDA_ATOMICS_H
