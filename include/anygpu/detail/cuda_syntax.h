/* cuda_syntax.h — CUDA's kernel language on every target: the function and variable qualifiers,
 * kernels registered from the list the build finds (__global__ functions, template
 * instantiations and kernels in namespaces included), __ldg and the cache-hint loads and stores,
 * CUDA's min/max overloads and assert.
 * Included by anygpu/kernel.h in C++; do not include directly. docs/kernel-dialect.md.
 *
 * The build (anygpu_add_kernels) compiles each C++ kernel source once for the host with
 * AGK_DISCOVER, lists the __global__ functions and the extern __shared__ arrays of that object,
 * and compiles a generated file that includes the source and then says AGK_REGISTER_KERNEL for
 * each kernel: on the host that makes the kernel's entry points and descriptor, on PTX and AMD
 * its parameter record, on SPIR-V nothing. */
#ifndef ANYGPU_DETAIL_CUDA_SYNTAX_H
#define ANYGPU_DETAIL_CUDA_SYNTAX_H

/* ---------------------------------- qualifiers -------------------------------------------------
 */
#if defined(AGK_OPENCL)
/* C++ for OpenCL (AG_KERNEL sources' SPIR-V): helpers need no qualifier; __global__ kernels are
 * built from .cu sources, whose SPIR-V comes from HIP mode. */
#define __device__
#define __host__
#define __launch_bounds__(...)
#elif defined(AGK_TARGET_GPU)
/* clang's CUDA/HIP attributes, spelled out: kernel builds include no vendor header. */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#else
/* The host: kernels are plain functions the generated file registers; __device__ and
 * __constant__ variables are exported, so that agModuleGetGlobal finds them. */
#ifdef AGK_DISCOVER
#define __global__ __attribute__((section("anygpu_kernels"), used))
#else
#define __global__
#endif
#define __device__ __attribute__((visibility("default")))
#define __host__
#define __constant__ __attribute__((visibility("default")))
#define __launch_bounds__(...)
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))

/* ---------------------------------- what CUDA's headers add -----------------------------------
 */
/* A load through the read-only cache on NVIDIA; an ordinary load is exact everywhere. */
template <typename T>
AG_DEVICE T __ldg(const T* address) {
  return *address;
}

#include "cache_hints.h"

/* CUDA's min and max: one overload per type pair CUDA declares (math_functions.h), so that
 * min(int, unsigned) is unsigned as there, and no template deduces a surprise. C++ for OpenCL
 * has its own. */
#if !defined(AGK_OPENCL)
#define AGK_MIN_MAX(R, A, B)          \
  AG_DEVICE R min(A a, B b) {         \
    return (R)b < (R)a ? (R)b : (R)a; \
  }                                   \
  AG_DEVICE R max(A a, B b) {         \
    return (R)a < (R)b ? (R)b : (R)a; \
  }
#define AGK_MIN_MAX_INTEGERS(S, U) \
  AGK_MIN_MAX(S, S, S)             \
  AGK_MIN_MAX(U, U, U)             \
  AGK_MIN_MAX(U, S, U)             \
  AGK_MIN_MAX(U, U, S)
AGK_MIN_MAX_INTEGERS(int, unsigned int)
AGK_MIN_MAX_INTEGERS(long, unsigned long)
AGK_MIN_MAX_INTEGERS(long long, unsigned long long)
#undef AGK_MIN_MAX_INTEGERS
#undef AGK_MIN_MAX
AG_DEVICE float min(float a, float b) {
  return fminf(a, b);
}
AG_DEVICE float max(float a, float b) {
  return fmaxf(a, b);
}
AG_DEVICE double min(double a, double b) {
  return fmin(a, b);
}
AG_DEVICE double max(double a, double b) {
  return fmax(a, b);
}
AG_DEVICE double min(float a, double b) {
  return fmin((double)a, b);
}
AG_DEVICE double max(float a, double b) {
  return fmax((double)a, b);
}
AG_DEVICE double min(double a, float b) {
  return fmin(a, (double)b);
}
AG_DEVICE double max(double a, float b) {
  return fmax(a, (double)b);
}
#endif

#include "bit_intrinsics.h"
#include "kernel_assert.h"

/* ---------------------------------- printf -----------------------------------------------------
 * The C library's on the host; on NVIDIA, CUDA's own (clang turns the call into vprintf, which the
 * driver prints after the launch); elsewhere a build error that says so. */
#if !defined(AGK_TARGET_GPU)
#include <stdio.h>
#elif defined(__CUDA_ARCH__)
extern "C" __attribute__((device)) int printf(const char* format, ...);
#elif !defined(AGK_OPENCL)
/* A template, so that only a call instantiates it, and the build stops there with this message. */
template <typename... Args>
struct agk_printf_unavailable {
  static constexpr bool value = false;
};
template <typename... Args>
__attribute__((device)) int printf(const char*, Args...) {
  static_assert(agk_printf_unavailable<Args...>::value,
                "printf in a kernel: anygpu builds it for the CPU device and NVIDIA GPUs only; "
                "for AMD and SPIR-V targets leave it out "
                "(#if !defined(__AMDGCN__) && !defined(__SPIRV__))");
  return 0;
}
#endif

/* ---------------------------------- kernel registration ----------------------------------------
 * AGK_REGISTER_KERNEL(SYMBOL, TYPE, KERNEL): SYMBOL is the kernel's mangled name (the name of its
 * PTX .entry, AMD symbol and SPIR-V entry point), TYPE its function type, KERNEL the address of
 * the kernel (which the host alone evaluates). Written by the build, not by users. */
#if defined(AGK_OPENCL) || defined(AGK_SPIRV_HIP)
/* SPIR-V carries the parameter types itself. */
#define AGK_REGISTER_KERNEL(symbol, kernel_type, kernel)
#elif defined(AGK_TARGET_GPU)
#define AGK_REGISTER_KERNEL(symbol, kernel_type, kernel)                                    \
  AGK_PARAMS_DECLARATION const agk_param_record<kernel_type>::type anygpu_params_##symbol = \
      agk_param_record<kernel_type>::make();
#else
#define AGK_REGISTER_KERNEL(symbol, kernel_type, kernel)                                     \
  AGK_WI_FUNCTION_ENTRY(symbol, kernel_type, kernel)                                         \
  extern "C" __attribute__((visibility("default")))                                          \
  const agk_kernel_desc* anygpu_kernel_##symbol(void) {                                      \
    return agk_detail::describe_function<kernel_type*, kernel>(#symbol, AGK_WI_RUN(symbol)); \
  }
#endif

#endif /* ANYGPU_DETAIL_CUDA_SYNTAX_H */
