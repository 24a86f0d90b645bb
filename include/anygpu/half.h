/*
 * half.h — CUDA's 16-bit floating-point types for kernels and host programs: __half and __half2
 * (cuda_fp16.h), __nv_bfloat16 and __nv_bfloat162 (cuda_bf16.h), with CUDA's conversions (the
 * directed roundings too), arithmetic, comparisons and operators, correctly rounded on every
 * target, and CUDA's half math functions (hsqrt, hexp, h2sin, ...).
 *
 *   #include <anygpu/half.h>
 *
 *   __half2 v = __floats2half2_rn(1.5f, -2.0f);       // host or kernel, the same bits
 *   v = __hfma2(v, v, __float2half2_rn(0.25f));
 *   float lo = __low2float(v);
 *
 * CUDA sources get it from anygpu/cuda.h (and #include <cuda_fp16.h> / <cuda_bf16.h> resolve to
 * anygpu's, which include that); AG_KERNEL sources and host programs include this header. The
 * layouts are CUDA's (2 bytes; the pairs 4 bytes aligned to 4), so host programs fill buffers and
 * pass kernel arguments of these types as they are. docs/kernel-dialect.md, "Half precision",
 * says what exists and how each target computes it.
 */
#ifndef ANYGPU_HALF_H
#define ANYGPU_HALF_H

#ifndef __cplusplus
#error "anygpu/half.h: the 16-bit types are C++ (constructors and operators, as CUDA's)"
#endif

#if defined(__CUDACC_RTC__)
/* NVRTC: the CUDA toolkit's own headers, which NVRTC compiles (the include directory is the one
 * next to libnvrtc, or $ANYGPU_NVRTC_INCLUDE; loaders/cuda/nvrtc_compiler.cpp). */
#if __has_include(<cuda_fp16.h>) && __has_include(<cuda_bf16.h>)
#include <cuda_fp16.h>
/* after cuda_fp16.h, as CUDA's own headers include them */
#include <cuda_bf16.h>
#else
#error \
    "anygpu/half.h under NVRTC: __half and __nv_bfloat16 come from the CUDA toolkit's cuda_fp16.h and cuda_bf16.h, and no toolkit include directory was found (install the CUDA toolkit's headers, or set ANYGPU_NVRTC_INCLUDE)"
#endif
#else /* every other compiler */

#include "detail/half_functions.h"

/* The math functions (hsqrt, hexp, h2sin, ...) compute in float with the target's float math: on
 * a GPU target kernel.h's (a GPU compile is a kernel compile), on the host <math.h>'s. */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__OPENCL_VERSION__) || \
    defined(__OPENCL_CPP_VERSION__)
#define AGH_GPU_TARGET 1
#include "kernel.h"
#else
#include <math.h>
#endif
#include "detail/half_math.h"

/* In a kernel source, atomicAdd on the 16-bit types (kernel.h includes it when it comes second). */
#if defined(ANYGPU_KERNEL_H)
#include "detail/half_atomics.h"
#endif

#endif /* __CUDACC_RTC__ */

#endif /* ANYGPU_HALF_H */
