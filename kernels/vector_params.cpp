// CUDA's vector types (anygpu/vector_types.h) by value and through pointers, and the indices read
// as uint3 and dim3, as CUDA code does. On SPIR-V (C++ for OpenCL) float4, int2 and double2 are
// OpenCL's own, with the same size and alignment as CUDA's.
#include <anygpu/kernel.h>

AG_KERNEL(vector_params, (float4 scale, int2 offset, const AG_GLOBAL float4* in,
                          AG_GLOBAL float4* out, AG_GLOBAL double2* sums, int n)) {
  const uint3 thread = threadIdx;
  const dim3 block = blockDim;
  const int i = (int)(blockIdx.x * block.x + thread.x);
  if (i < n) {
    const float4 v = in[i];
    out[i] = make_float4(v.x * scale.x + (float)offset.x, v.y * scale.y + (float)offset.y,
                         v.z * scale.z, v.w * scale.w);
    sums[i] = make_double2((double)v.x + (double)v.y + (double)v.z + (double)v.w,
                           (double)offset.x * (double)offset.y + (double)i);
  }
}
