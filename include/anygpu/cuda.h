/*
 * cuda.h — CUDA's kernel language, the explicit spelling: `#include <anygpu/cuda.h>` brings in,
 * on every target, what a CUDA kernel file expects from nvcc: __global__, __device__, __host__,
 * __shared__ (extern __shared__ too), __constant__, __launch_bounds__, __forceinline__, threadIdx
 * and the other index names, __syncthreads(), atomics, math, __ldg, min/max and assert.
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

#include "kernel.h"

#endif /* ANYGPU_CUDA_H */
