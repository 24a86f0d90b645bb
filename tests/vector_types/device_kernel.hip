// anygpu/vector_types.h in a CUDA-style device compile, without kernel.h: clang-15 in HIP mode for
// SPIR-V (the dialect's coming CUDA-syntax path). check_hip_spirv.sh compiles it.
#include <anygpu/vector_types.h>

__attribute__((global)) void scale_vectors(float4 scale, int2 offset, const float4* in,
                                           float4* out, double2* sums) {
  const dim3 block(2);
  const uint3 as_uint3 = block;
  const float4 v = in[as_uint3.y];
  out[0] = make_float4(v.x * scale.x + offset.x, v.y * scale.y + offset.y, v.z * scale.z,
                       v.w * scale.w + as_uint3.x);
  sums[0] = make_double2((double)v.x + v.y, (double)offset.x * offset.y);
  const short3 s = make_short3(1, 2, 3);
  const ulonglong4_32a wide = make_ulonglong4_32a(s.x, s.y, s.z, sizeof(wide));
  sums[1] = make_double2((double)wide.w, (double)wide.x);
}
