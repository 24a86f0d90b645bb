/*
 * cuda.h — CUDA's kernel language, the explicit spelling: `#include <anygpu/cuda.h>` brings in,
 * on every target, what a CUDA kernel file expects from nvcc: __global__, __device__, __host__,
 * __shared__ (extern __shared__ too), __constant__, __launch_bounds__, __forceinline__, threadIdx
 * and the other index names, __syncthreads(), atomics, math, __ldg, min/max, assert, the integer
 * intrinsics (__popc, __clz, __byte_perm, ...) and the 16-bit floating-point types of cuda_fp16.h
 * and cuda_bf16.h (__half, __half2, __nv_bfloat16, __nv_bfloat162: anygpu/half.h), and the
 * cooperative groups of cooperative_groups.h (block, grid and warp level) and
 * cooperative_groups/reduce.h.
 *
 * anygpu_add_kernels includes it before every .cu source, and there a source's own
 * `#include <cuda_runtime.h>` (and the other CUDA headers anygpu has) resolves to anygpu's
 * header, which includes this one. docs/kernel-dialect.md says what still differs from CUDA.
 */
#ifndef ANYGPU_CUDA_H
#define ANYGPU_CUDA_H

#ifndef __cplusplus
#error "anygpu/cuda.h: CUDA kernel sources are C++"
#endif

#if defined(__CUDACC_RTC__)
/* NVRTC compiles CUDA natively: its built-ins are the language, kernel.h adds the AG_KERNEL
 * dialect, half.h the toolkit's cuda_fp16.h and cuda_bf16.h. Cooperative groups are not brought
 * in (the toolkit's headers cost NVRTC about two seconds a compile): a source that uses them
 * includes <cooperative_groups.h> (and <cooperative_groups/reduce.h>), as it does for nvcc. */
#include "half.h"
#include "kernel.h"
#elif defined(__HIPCC_RTC__)
/* hiprtc compiles HIP natively: its runtime header (always included first) has CUDA's built-ins
 * and __half / __half2 (hip_fp16.h), kernel.h adds the AG_KERNEL dialect and the _sync warp
 * functions; the cooperative groups are anygpu's. Not offered under hiprtc: __nv_bfloat16. */
#include "kernel.h"
/* after kernel.h, whose warp functions they use */
#include "detail/cooperative_groups_block.h"
#include "detail/cooperative_groups_tile.h"
#undef AGCG_FUNCTION
#undef AGCG_HOST_ONLY_BEGIN
#undef AGCG_HOST_ONLY_END
#else /* every other compiler */

#include "half.h"
#include "kernel.h"

/* After kernel.h: written with its index names and __syncthreads(). */
#include "detail/cooperative_groups_block.h"
#include "detail/cooperative_groups_tile.h"
#undef AGCG_FUNCTION
#undef AGCG_HOST_ONLY_BEGIN
#undef AGCG_HOST_ONLY_END

#endif /* __CUDACC_RTC__ */

#endif /* ANYGPU_CUDA_H */
