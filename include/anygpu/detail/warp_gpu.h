/* warp_gpu.h — the warp functions' primitives on GPU targets: a lane's index, the warp's width,
 * one 32-bit shuffle from an absolute lane, a ballot, a warp barrier and the active lanes.
 * warp_functions.h builds CUDA's functions on them. Included by kernel_gpu.h.
 *   nvptx64: the .sync instructions (PTX 6.0, sm_70), activemask (PTX 6.2); before those, the
 *            forms without .sync.
 *   amdgcn:  ds_bpermute, the ballot intrinsic of the wave's width, the exec mask. Masks are
 *            64-bit; a wave runs its lanes in lockstep, so a mask orders nothing more.
 *   SPIR-V:  the sub-group: SPV_INTEL_subgroups' shuffle, a sub-group OpGroupIAdd as the ballot
 *            (SPIR-V 1.2 has no OpGroupNonUniformBallot), a sub-group control barrier. */
#ifndef ANYGPU_DETAIL_WARP_GPU_H
#define ANYGPU_DETAIL_WARP_GPU_H

/* 64 bits (OpenCL's long long is wider). */
#if defined(AGK_OPENCL)
typedef unsigned long agk_lanes;
#else
typedef unsigned long long agk_lanes;
#endif

#if defined(__CUDA_ARCH__)
#ifndef AGK_PTX_ISA
#define AGK_PTX_ISA 78 /* anygpu_add_kernels passes the image's PTX ISA version */
#endif
AG_DEVICE unsigned agk_warp_width() {
  return 32;
}
AG_DEVICE unsigned agk_lane_id() {
  return __nvvm_read_ptx_sreg_laneid();
}
#if AGK_PTX_ISA >= 60
AG_DEVICE unsigned agk_shfl_word(agk_lanes mask, unsigned value, unsigned lane) {
  return (unsigned)__nvvm_shfl_sync_idx_i32((unsigned)mask, (int)value, (int)lane, 0x1f);
}
AG_DEVICE agk_lanes agk_ballot(agk_lanes mask, bool predicate) {
  return (unsigned)__nvvm_vote_ballot_sync((unsigned)mask, predicate);
}
AG_DEVICE void agk_syncwarp(agk_lanes mask) {
  __nvvm_bar_warp_sync((unsigned)mask);
}
#else
AG_DEVICE unsigned agk_shfl_word(agk_lanes, unsigned value, unsigned lane) {
  return (unsigned)__nvvm_shfl_idx_i32((int)value, (int)lane, 0x1f);
}
AG_DEVICE agk_lanes agk_ballot(agk_lanes, bool predicate) {
  return (unsigned)__nvvm_vote_ballot(predicate);
}
AG_DEVICE void agk_syncwarp(agk_lanes) {
  __nvvm_membar_cta();
}
#endif
AG_DEVICE agk_lanes agk_activemask() {
#if AGK_PTX_ISA >= 62
  return (unsigned)__nvvm_activemask();
#else
  return (unsigned)__nvvm_vote_ballot(1);
#endif
}

#elif defined(__AMDGCN__)
AG_DEVICE unsigned agk_warp_width() {
  return (unsigned)__builtin_amdgcn_wavefrontsize();
}
AG_DEVICE unsigned agk_lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
AG_DEVICE unsigned agk_shfl_word(agk_lanes, unsigned value, unsigned lane) {
  return (unsigned)__builtin_amdgcn_ds_bpermute((int)(lane << 2), (int)value);
}
AG_DEVICE agk_lanes agk_ballot(agk_lanes, bool predicate) {
#if __AMDGCN_WAVEFRONT_SIZE__ == 32
  return __builtin_amdgcn_ballot_w32(predicate);
#else
  return __builtin_amdgcn_ballot_w64(predicate);
#endif
}
AG_DEVICE void agk_syncwarp(agk_lanes) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
AG_DEVICE agk_lanes agk_activemask() {
  return __builtin_amdgcn_read_exec();
}

#else /* SPIR-V, from .cu sources (HIP mode) or AG_KERNEL sources (C++ for OpenCL) */
#if defined(AGK_SPIRV_HIP)
#define AGK_SPIRV_DECL __attribute__((device))
extern "C" AGK_SPIRV_DECL const unsigned int __spirv_BuiltInSubgroupLocalInvocationId;
extern "C" AGK_SPIRV_DECL const unsigned int __spirv_BuiltInSubgroupMaxSize;
#define AGK_SUBGROUP_LANE() __spirv_BuiltInSubgroupLocalInvocationId
#define AGK_SUBGROUP_WIDTH() __spirv_BuiltInSubgroupMaxSize
#else
#define AGK_SPIRV_DECL
#define AGK_SUBGROUP_LANE() get_sub_group_local_id()
#define AGK_SUBGROUP_WIDTH() get_max_sub_group_size()
#endif
AGK_SPIRV_DECL unsigned int __spirv_SubgroupShuffleINTEL(unsigned int value, unsigned int lane);
AGK_SPIRV_DECL unsigned long __spirv_GroupIAdd(int scope, int operation, unsigned long value);
AGK_SPIRV_DECL void __spirv_ControlBarrier(int execution, int memory, int semantics);
AG_DEVICE unsigned agk_warp_width() {
  return AGK_SUBGROUP_WIDTH();
}
AG_DEVICE unsigned agk_lane_id() {
  return AGK_SUBGROUP_LANE();
}
AG_DEVICE unsigned agk_shfl_word(agk_lanes, unsigned value, unsigned lane) {
  return __spirv_SubgroupShuffleINTEL(value, lane);
}
/* Scope 3: the sub-group; operation 0: reduce. Each lane adds its own bit. */
AG_DEVICE agk_lanes agk_ballot(agk_lanes, bool predicate) {
  return __spirv_GroupIAdd(3, 0, predicate ? (agk_lanes)1 << agk_lane_id() : 0);
}
/* Sub-group execution and memory scope, acquire-release on workgroup and cross-workgroup memory. */
AG_DEVICE void agk_syncwarp(agk_lanes) {
  __spirv_ControlBarrier(3, 3, 0x308);
}
AG_DEVICE agk_lanes agk_activemask() {
  return agk_ballot(~(agk_lanes)0, true);
}
#endif

#endif /* ANYGPU_DETAIL_WARP_GPU_H */
