/* kernel_nvrtc.h — the kernel dialect under NVRTC (__CUDACC_RTC__: run-time compilation for the
 * CUDA backend, loaders/cuda/nvrtc_compiler.cpp). NVRTC compiles CUDA itself: threadIdx and the
 * other index variables, __syncthreads(), __shared__, the atomic functions (their _block and
 * _system forms too), the warp functions, __ldg, min/max, the integer intrinsics, assert, printf
 * and CUDA's whole math library (libdevice) are its own built-ins. This header only adds what the
 * dialect has beyond CUDA: AG_KERNEL (with its parameter record), AG_DEVICE, AG_GLOBAL, AG_LOCAL,
 * AG_DYNAMIC_SHARED, atomicLoad / atomicStore, the <stdint.h> names and INFINITY / NAN.
 * Included by anygpu/kernel.h; do not include directly. docs/runtime-compilation.md. */
#ifndef ANYGPU_DETAIL_KERNEL_NVRTC_H
#define ANYGPU_DETAIL_KERNEL_NVRTC_H

#define AG_GLOBAL
#define AG_LOCAL
#define AG_DEVICE static inline __device__

/* NVRTC has no C library headers: the fixed-width integers kernel_gpu.h gets from <stdint.h>
 * (the run-time compiler gives <stdint.h>, <assert.h>, <stdio.h>, <math.h> and <stddef.h> as
 * headers naming NVRTC's built-ins). */
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t; /* as CCCL's <cuda/std/cstdint> has them under NVRTC */
typedef unsigned long long uintptr_t;
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif

/* The launch's dynamic shared memory. */
extern __shared__ __align__(16) unsigned char agk_dynamic_shared_memory[];
#define AG_DYNAMIC_SHARED(type, name) type* name = (type*)agk_dynamic_shared_memory

/* The parameter record of kernel_gpu.h (the same words, read by shim/code_object/kernel_params.h),
 * computed without clang's type-trait builtins, which NVRTC lacks. */
template <typename T>
struct agk_param_kind_of {
  static constexpr __device__ uint32_t get() {
    return __is_enum(T) ? 1u : 4u; /* AG_PARAM_INTEGER, AG_PARAM_STRUCT */
  }
};
template <typename T>
struct agk_param_kind_of<T*> {
  static constexpr __device__ uint32_t get() { return 3u; } /* AG_PARAM_POINTER */
};
#define AGK_PARAM_KIND_OF(T, kind)               \
  template <>                                    \
  struct agk_param_kind_of<T> {                  \
    static constexpr __device__ uint32_t get() { \
      return kind;                               \
    }                                            \
  };
AGK_PARAM_KIND_OF(bool, 1u)
AGK_PARAM_KIND_OF(char, 1u)
AGK_PARAM_KIND_OF(signed char, 1u)
AGK_PARAM_KIND_OF(unsigned char, 1u)
AGK_PARAM_KIND_OF(short, 1u)
AGK_PARAM_KIND_OF(unsigned short, 1u)
AGK_PARAM_KIND_OF(int, 1u)
AGK_PARAM_KIND_OF(unsigned int, 1u)
AGK_PARAM_KIND_OF(long, 1u)
AGK_PARAM_KIND_OF(unsigned long, 1u)
AGK_PARAM_KIND_OF(long long, 1u)
AGK_PARAM_KIND_OF(unsigned long long, 1u)
AGK_PARAM_KIND_OF(float, 2u)
AGK_PARAM_KIND_OF(double, 2u)
#undef AGK_PARAM_KIND_OF
#define AGK_PARAM_KIND(T) agk_param_kind_of<T>::get()
#define AGK_PARAM_RECORD_FUNCTION __device__
#include "kernel_param_record.h"

/* The entry's name is the kernel's name (extern "C"), as in the ahead-of-time builds. */
#define AG_KERNEL(name, params)                                    \
  extern "C" __device__ __attribute__((used))                      \
  const agk_param_record<void params>::type anygpu_params_##name = \
      agk_param_record<void params>::make();                       \
  extern "C" __global__ void name params

#define AG_KERNEL_C(name, signature, params) \
  static_assert(false, "AG_KERNEL_C kernels are host-only: write AG_KERNEL for GPU targets")

/* Flags between blocks (or the host): an acquiring load and a releasing store, device-wide. */
template <typename T>
AG_DEVICE T atomicLoad(const T* address) {
  const T value = *(const volatile T*)address;
  __threadfence();
  return value;
}
template <typename T>
AG_DEVICE void atomicStore(T* address, T value) {
  __threadfence();
  *(volatile T*)address = value;
}

#endif /* ANYGPU_DETAIL_KERNEL_NVRTC_H */
