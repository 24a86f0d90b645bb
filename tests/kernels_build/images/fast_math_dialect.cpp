// fast_exp_kernel in the AG_KERNEL dialect (C++ for OpenCL on SPIR-V), in the FAST_MATH image.
#include <anygpu/kernel.h>

AG_KERNEL(fast_exp_dialect_kernel,
          (const AG_GLOBAL float* in, AG_GLOBAL float* out, AG_GLOBAL double* out_double, int n)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = expf(in[i]);
    out_double[i] = exp((double)in[i]);
  }
}
