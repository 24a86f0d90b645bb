/*
 * kernel.h — the portable kernel dialect.
 *
 * One kernel source, written with these macros, is compiled for every target. The dialect keeps
 * CUDA's names, so CUDA kernels port with few changes:
 *
 *   #include <anygpu/kernel.h>
 *
 *   AG_KERNEL(saxpy, (int n, float a, const AG_GLOBAL float* x, AG_GLOBAL float* y)) {
 *     int i = blockIdx.x * blockDim.x + threadIdx.x;
 *     if (i < n) y[i] = a * x[i] + y[i];
 *   }
 *
 * Offered: AG_KERNEL (C++; parameters by value), AG_KERNEL_C (C, with a signature string; host
 * only), AG_DEVICE for helpers, AG_GLOBAL / AG_LOCAL for pointers into device / shared memory,
 * threadIdx / blockIdx / blockDim / gridDim with .x .y .z, __syncthreads(), __shared__ for static
 * shared memory, AG_DYNAMIC_SHARED(type, name) for the launch's dynamic shared memory,
 * CUDA's atomic functions (atomicAdd ... atomicCAS, with their _block and _system forms),
 * atomicLoad (acquire) / atomicStore (release) (C++), and math: the <math.h> functions on the
 * host, the subset listed in docs/kernel-dialect.md on GPUs.
 *
 * Rules, as on a GPU: every thread of a block reaches the same __syncthreads(); shared memory is
 * per block; device helpers that use threadIdx live in the kernel's source file or a header it
 * includes. For every target: pointer parameters of a kernel say AG_GLOBAL (OpenCL needs the
 * address space), and __shared__ and AG_DYNAMIC_SHARED are declared in the kernel body, not in
 * helpers (OpenCL allows local memory only at kernel scope).
 *
 * Targets: the host (the CPU backend's code objects, any C/C++ compiler), nvptx64 (clang -x cuda
 * --cuda-device-only), amdgcn (clang -x hip --cuda-device-only) and spir64 (clang as C++ for
 * OpenCL, then llvm-spirv). anygpu_add_kernels() passes the flags; docs/kernel-dialect.md lists
 * them and what differs between targets.
 */
#ifndef ANYGPU_KERNEL_H
#define ANYGPU_KERNEL_H

#if defined(__CUDACC_RTC__)
/* NVRTC (run-time compilation for the CUDA backend): CUDA's own built-ins, and the dialect's few
 * additions (detail/kernel_nvrtc.h). */
#define AGK_TARGET_GPU 1
#include "detail/kernel_nvrtc.h"
#elif defined(__HIPCC_RTC__)
/* hiprtc (run-time compilation for the HIP backend): HIP's own runtime header, and the dialect's
 * few additions (detail/kernel_hiprtc.h) with CUDA's _sync warp functions. */
#define AGK_TARGET_GPU 1
#include "detail/kernel_hiprtc.h"
#include "detail/warp_functions.h"
#else /* every other compiler */

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_CPP_VERSION__)
#define AGK_OPENCL 1
#endif
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(AGK_OPENCL)
#define AGK_TARGET_GPU 1
#elif defined(__CUDA__) || defined(__HIP__)
#error "anygpu/kernel.h: compile GPU code with --cuda-device-only (anygpu_add_kernels does)"
#endif

#if defined(__HIP_DEVICE_COMPILE__) && defined(__SPIRV__)
#define AGK_SPIRV_HIP 1 /* .cu sources' SPIR-V: clang-15 in HIP mode for spirv64 */
#endif

#ifdef AGK_TARGET_GPU
#include "detail/kernel_gpu.h"
#else
#include "detail/kernel_host.h"
#endif
#ifdef __cplusplus
#include "detail/cuda_syntax.h"
#include "detail/warp_functions.h"
#endif

#endif /* __CUDACC_RTC__ */

/* atomicAdd on the 16-bit types needs both headers: whichever of this and half.h comes second
 * brings it in. */
#if defined(__cplusplus) && defined(ANYGPU_HALF_H) && !defined(__CUDACC_RTC__)
#include "detail/half_atomics.h"
#endif

#endif /* ANYGPU_KERNEL_H */
