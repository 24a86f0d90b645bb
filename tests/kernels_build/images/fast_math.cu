// Built with FAST_MATH (tests/kernels_build/CMakeLists.txt): each float function FAST_MATH maps
// to an intrinsic, in a kernel of its own for check_math_instructions.sh, plus the double forms,
// which FAST_MATH leaves accurate. fast_math_test.cpp runs them on every device.
#include <cuda_runtime.h>

#define FAST_MATH_UNARY(name, function)                                          \
  __global__ void name(const float* in, float* out, double* out_double, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                               \
    if (i < n) {                                                                 \
      out[i] = function##f(in[i]);                                               \
      out_double[i] = function((double)in[i]);                                   \
    }                                                                            \
  }

FAST_MATH_UNARY(fast_exp_kernel, exp)
FAST_MATH_UNARY(fast_exp10_kernel, exp10)
FAST_MATH_UNARY(fast_log_kernel, log)
FAST_MATH_UNARY(fast_log2_kernel, log2)
FAST_MATH_UNARY(fast_log10_kernel, log10)
FAST_MATH_UNARY(fast_sin_kernel, sin)
FAST_MATH_UNARY(fast_cos_kernel, cos)
FAST_MATH_UNARY(fast_tan_kernel, tan)

__global__ void fast_pow_kernel(const float* in, float* out, double* out_double, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = powf(in[i], 1.5f);
    out_double[i] = pow((double)in[i], 1.5);
  }
}

__global__ void fast_sincos_kernel(const float* in, float* out, double* out_double, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s, c;
    sincosf(in[i], &s, &c);
    out[i] = s + c;
    out_double[i] = sin((double)in[i]) + cos((double)in[i]);
  }
}

// -use_fast_math's other parts: float division (div.full, -prec-div=false), sqrtf (sqrt.approx,
// -prec-sqrt=false) and denormals flushed (.ftz) on NVIDIA; the double forms stay IEEE.
__global__ void fast_divide_sqrt_kernel(const float* in, float* out, double* out_double, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] / (in[i] + 3.0f) + sqrtf(in[i]);
    const double x = in[i];
    out_double[i] = x / (x + 3.0) + sqrt(x);
  }
}

// What FAST_MATH leaves IEEE's: the _rn intrinsics (div.rn, rcp.rn, sqrt.rn with .ftz on NVIDIA; in
// double on AMD), checked on every device against the exact values.
__global__ void fast_rn_kernel(const float* in, float* out, double* out_double, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float x = in[i];
    out[i] = __fdiv_rn(x, x + 3.0f) + __fsqrt_rn(x) + __frcp_rn(x);
    const double w = x;
    out_double[i] = w / (w + 3.0) + sqrt(w) + 1.0 / w;
  }
}
