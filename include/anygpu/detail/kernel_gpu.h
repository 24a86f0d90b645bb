/* kernel_gpu.h — the kernel dialect on GPU targets (nvptx64, amdgcn, spir64).
 * Included by anygpu/kernel.h; do not include directly. */
#ifndef ANYGPU_DETAIL_KERNEL_GPU_H
#define ANYGPU_DETAIL_KERNEL_GPU_H

#ifndef __cplusplus
#error "anygpu/kernel.h: GPU kernels are C++ (AG_KERNEL); AG_KERNEL_C kernels are host-only"
#endif

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------------------------------
 * GPU targets, part 1: what differs between them. Each defines the markers, how a kernel is
 * declared, where dynamic shared memory comes from, how an index is read (a = x, y or z), and the
 * block barrier (atomics: atomics_gpu.h). Indices are read only when used: the reads are pure,
 * so the unused axes of agk_dim3 are dropped.
 * ---------------------------------------------------------------------------------------------- */
#if defined(AGK_OPENCL)
/* spir64, compiled as C++ for OpenCL (clang-15 -cl-std=clc++2021), then llvm-spirv-15. */
#define AG_GLOBAL __global
#define AG_LOCAL __local
#define AG_DEVICE static inline
#define __shared__ __local
#define AGK_KERNEL_ENTRY __kernel
/* No parameter record in SPIR-V (the SPIR-V reader has the types): llvm-spirv 15 rejects the cast
 * to a generic pointer in llvm.used, and an external global would add the Linkage capability. The
 * record is still computed, with internal linkage, so that it compiles here too; unused, it is
 * never emitted. */
#define AGK_PARAMS_DECLARATION static __constant __attribute__((unused))
/* OpenCL has no extern local memory. Every SPIR-V kernel therefore takes one more parameter after
 * the user's: a __local pointer that the Level Zero backend sets to the launch's dynamic
 * shared-memory size (zeKernelSetArgumentValue(kernel, last, bytes, NULL)). */
#define AGK_KERNEL_PARAMS(...) \
  (__VA_ARGS__ __VA_OPT__(, ) __local unsigned char* agk_dynamic_shared)
#define AGK_DYNAMIC_SHARED_BASE agk_dynamic_shared
#define AGK_SHARED_SPACE __local
#define AGK_AXIS_x 0
#define AGK_AXIS_y 1
#define AGK_AXIS_z 2
#define AGK_THREAD_IDX(a) get_local_id(AGK_AXIS_##a)
#define AGK_BLOCK_IDX(a) get_group_id(AGK_AXIS_##a)
#define AGK_BLOCK_DIM(a) get_local_size(AGK_AXIS_##a)
#define AGK_GRID_DIM(a) get_num_groups(AGK_AXIS_##a)
/* CUDA's barrier also orders global memory between the block's threads. */
#define AGK_BARRIER() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

#elif defined(AGK_SPIRV_HIP)
/* spirv64 from .cu sources: clang-15 in HIP mode (-x hip --offload=spirv64), then llvm-spirv-15.
 * Pointers are generic and need no annotation; kernel pointer parameters become CrossWorkgroup.
 * The module is no OpenCL program, so llvm-spirv translates no OpenCL built-in by name: built-in
 * variables, barriers, atomics and math are spelled in its "SPIR-V friendly" form instead
 * (__spirv_BuiltInLocalInvocationId, __spirv_ControlBarrier, __spirv_AtomicIAdd, __spirv_ocl_exp),
 * which it turns into the SPIR-V built-ins and instructions directly. */
#define AG_GLOBAL
#define AG_LOCAL
#define AG_DEVICE static inline __attribute__((device))
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#define AGK_KERNEL_ENTRY extern "C" __attribute__((global))
#define AGK_PARAMS_DECLARATION static __attribute__((unused))
#define AGK_KERNEL_PARAMS(...) (__VA_ARGS__)
/* The launch's dynamic shared memory: the build gives it a size (SPIR-V has no unsized workgroup
 * array; anygpu-pack shared-memory --spirv). */
extern __attribute__((shared, aligned(16))) unsigned char agk_dynamic_shared_memory[];
#define AGK_DYNAMIC_SHARED_BASE agk_dynamic_shared_memory
#define AGK_SHARED_SPACE
template <typename P>
using agk_value = P;
typedef unsigned long agk_spirv_id3 __attribute__((ext_vector_type(3)));
extern "C" __attribute__((device)) const agk_spirv_id3 __spirv_BuiltInLocalInvocationId;
extern "C" __attribute__((device)) const agk_spirv_id3 __spirv_BuiltInWorkgroupId;
extern "C" __attribute__((device)) const agk_spirv_id3 __spirv_BuiltInWorkgroupSize;
extern "C" __attribute__((device)) const agk_spirv_id3 __spirv_BuiltInNumWorkgroups;
__attribute__((device)) void __spirv_ControlBarrier(int execution, int memory, int semantics);
#define AGK_THREAD_IDX(a) __spirv_BuiltInLocalInvocationId.a
#define AGK_BLOCK_IDX(a) __spirv_BuiltInWorkgroupId.a
#define AGK_BLOCK_DIM(a) __spirv_BuiltInWorkgroupSize.a
#define AGK_GRID_DIM(a) __spirv_BuiltInNumWorkgroups.a
/* Workgroup scope (2), acquire-release (0x8) on workgroup (0x100) and cross-workgroup (0x200)
 * memory: CUDA's barrier also orders global memory. */
#define AGK_BARRIER() __spirv_ControlBarrier(2, 2, 0x308)

#else
/* nvptx64 (clang-19 -x cuda -nocudainc) and amdgcn (clang-19 -x hip -nogpuinc): no SDK header,
 * so the attributes are spelled out. */
#define AG_GLOBAL
#define AG_LOCAL
#define AG_DEVICE static inline __attribute__((device))
#ifndef __shared__
#define __shared__ __attribute__((shared))
#endif
#define AGK_KERNEL_ENTRY extern "C" __attribute__((global))
#define AGK_PARAMS_DECLARATION extern "C" __attribute__((device, used))
#define AGK_KERNEL_PARAMS(...) (__VA_ARGS__)
extern __attribute__((shared, aligned(16))) unsigned char agk_dynamic_shared_memory[];
#define AGK_DYNAMIC_SHARED_BASE agk_dynamic_shared_memory
#define AGK_SHARED_SPACE

#if defined(__CUDA_ARCH__)
#define AGK_THREAD_IDX(a) __nvvm_read_ptx_sreg_tid_##a()
#define AGK_BLOCK_IDX(a) __nvvm_read_ptx_sreg_ctaid_##a()
#define AGK_BLOCK_DIM(a) __nvvm_read_ptx_sreg_ntid_##a()
#define AGK_GRID_DIM(a) __nvvm_read_ptx_sreg_nctaid_##a()
#define AGK_BARRIER() __nvvm_bar_sync(0)
#else
#define AGK_THREAD_IDX(a) __builtin_amdgcn_workitem_id_##a()
#define AGK_BLOCK_IDX(a) __builtin_amdgcn_workgroup_id_##a()
#define AGK_BLOCK_DIM(a) __builtin_amdgcn_workgroup_size_##a()
/* The dispatch packet holds the grid in threads (either code-object version); HIP launches whole
 * blocks, so the division is exact. */
#define AGK_GRID_DIM(a) (__builtin_amdgcn_grid_size_##a() / __builtin_amdgcn_workgroup_size_##a())
#define AGK_BARRIER()                                                                   \
  (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"), __builtin_amdgcn_s_barrier(), \
   __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"))
#endif
#endif

/* ------------------------------------------------------------------------------------------------
 * GPU targets, part 2: the dialect, the same on each.
 * ---------------------------------------------------------------------------------------------- */
#include "../vector_types.h"
/* uint3 t = threadIdx; dim3 b = blockDim;: as the host's (anygpu/kernel_host_abi.h). */
typedef struct agk_dim3 {
  unsigned int x, y, z;
  template <typename V, typename = decltype(V{x, y, z}),
            typename = char[!__is_class(V) || sizeof(V) == 3 * sizeof(unsigned int) ? 1 : -1]>
  constexpr operator V() const {
    return V{x, y, z};
  }
} agk_dim3;

#define AGK_INDEX_FUNCTION(function, read)                                    \
  AG_DEVICE agk_dim3 function() {                                             \
    return agk_dim3{(unsigned)read(x), (unsigned)read(y), (unsigned)read(z)}; \
  }
AGK_INDEX_FUNCTION(agk_thread_idx, AGK_THREAD_IDX)
AGK_INDEX_FUNCTION(agk_block_idx, AGK_BLOCK_IDX)
AGK_INDEX_FUNCTION(agk_block_dim, AGK_BLOCK_DIM)
AGK_INDEX_FUNCTION(agk_grid_dim, AGK_GRID_DIM)

#define threadIdx agk_thread_idx()
#define blockIdx agk_block_idx()
#define blockDim agk_block_dim()
#define gridDim agk_grid_dim()
#define __syncthreads() AGK_BARRIER()
#define AG_DYNAMIC_SHARED(type, name) \
  AGK_SHARED_SPACE type* name = (AGK_SHARED_SPACE type*)AGK_DYNAMIC_SHARED_BASE

#include "kernel_param_record.h"

/* The entry's name is the kernel's name on every target (PTX .entry, AMD symbol, SPIR-V
 * OpEntryPoint): extern "C" on CUDA/HIP; OpenCL never mangles kernels. */
#define AG_KERNEL(name, params)                                                           \
  AGK_PARAMS_DECLARATION const agk_param_record<void params>::type anygpu_params_##name = \
      agk_param_record<void params>::make();                                              \
  AGK_KERNEL_ENTRY void name AGK_KERNEL_PARAMS params

#include "atomics_gpu.h"
#include "math_list.h"
#include "warp_gpu.h"

/* Math, part 1: IEEE operations, exact on every target, float and double (and the C++ float
 * overloads). OpenCL has the overloaded names already and gets the C names with f; HIP-mode
 * SPIR-V declares OpenCL's overloads (their C++ names are the built-ins' SPIR names). */
#if defined(AGK_SPIRV_HIP)
#define AGK_MATH(name, float_params, double_params, args)          \
  __attribute__((device)) float __spirv_ocl_##name float_params;   \
  __attribute__((device)) double __spirv_ocl_##name double_params; \
  AG_DEVICE float name##f float_params {                           \
    return AGK_FLOAT_CALLEE(name, __spirv_ocl_##name) args;        \
  }                                                                \
  AG_DEVICE float name float_params {                              \
    return AGK_FLOAT_CALLEE(name, __spirv_ocl_##name) args;        \
  }                                                                \
  AG_DEVICE double name double_params {                            \
    return __spirv_ocl_##name args;                                \
  }
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#elif defined(AGK_OPENCL)
#define AGK_MATH(name, float_params, double_params, args) \
  AG_DEVICE float name##f float_params {                  \
    return AGK_FLOAT_CALLEE(name, name) args;             \
  }
#else
#define AGK_MATH(name, float_params, double_params, args) \
  AG_DEVICE float name##f float_params {                  \
    return __builtin_##name##f args;                      \
  }                                                       \
  AG_DEVICE float name float_params {                     \
    return __builtin_##name##f args;                      \
  }                                                       \
  AG_DEVICE double name double_params {                   \
    return __builtin_##name args;                         \
  }
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#endif
#define AGK_MATH_1(name) AGK_MATH(name, (float x), (double x), (x))
#define AGK_MATH_2(name) AGK_MATH(name, (float x, float y), (double x, double y), (x, y))
#if defined(__CUDA_ARCH__) && defined(AGK_FAST_MATH) && AGK_FAST_MATH
/* FAST_MATH as -use_fast_math's -prec-sqrt=false: sqrtf is sqrt.approx (with the image's flushed
 * denormals). LLVM 19 lowers llvm.sqrt.f32 to sqrt.rn whatever its options say. */
AG_DEVICE float sqrtf(float x) {
  return __nvvm_sqrt_approx_ftz_f(x);
}
AG_DEVICE float sqrt(float x) {
  return __nvvm_sqrt_approx_ftz_f(x);
}
AG_DEVICE double sqrt(double x) {
  return __builtin_sqrt(x);
}
#else
AGK_MATH_1(sqrt)
#endif
AGK_MATH_1(fabs)
AGK_MATH_1(floor)
AGK_MATH_1(ceil)
AGK_MATH_1(trunc)
AGK_MATH_1(round)
AGK_MATH_1(rint)
AGK_MATH_2(fmin)
AGK_MATH_2(fmax)
AGK_MATH_2(copysign)
AGK_MATH(fma, (float x, float y, float z), (double x, double y, double z), (x, y, z))

/* Math, part 2: the rest of CUDA's math library. */
#include "math_gpu.h"

/* C kernels have no GPU form. */
#define AG_KERNEL_C(name, signature, params) \
  static_assert(false, "AG_KERNEL_C kernels are host-only: write AG_KERNEL for GPU targets")

#endif /* ANYGPU_DETAIL_KERNEL_GPU_H */
