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

#include "half.h"
#include "kernel.h"

/* After kernel.h: written with its index names and __syncthreads(). */
#include "detail/cooperative_groups_block.h"
#include "detail/cooperative_groups_tile.h"
#undef AGCG_FUNCTION
#undef AGCG_HOST_ONLY_BEGIN
#undef AGCG_HOST_ONLY_END

#endif /* ANYGPU_CUDA_H */
