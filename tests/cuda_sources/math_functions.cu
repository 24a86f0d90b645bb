// CUDA's math functions as kernels, for the accuracy suite: out[i] = f(x[i], y[i], z[i], w[i])
// for the function the launch names, in float and in double. The double kernel must compute in
// double on every target (the suite's PTX and AMD checks look for conversions to float in it).
#include <cuda_runtime.h>

#include "math_function_list.h"

#define CASE1(name) \
  case math_##name: \
    return FLOAT_FORM(name)(x);
#define CASE2(name) \
  case math_##name: \
    return FLOAT_FORM(name)(x, y);
#define CASE3(name) \
  case math_##name: \
    return FLOAT_FORM(name)(x, y, z);
#define CASE4(name) \
  case math_##name: \
    return FLOAT_FORM(name)(x, y, z, w);

// OpenCL has no Bessel functions: calling one is a build error on SPIR-V, so they are left out
// there (the test does not ask a Level Zero device for them).
#if defined(__SPIRV__)
#define CASE_BESSEL(name)
#else
#define CASE_BESSEL(name) CASE1(name)
#endif

#define FLOAT_FORM(name) name##f
__device__ float evaluate(int function, float x, float y, float z, float w) {
  switch (function) { MATH_FUNCTION_LIST(CASE1, CASE2, CASE3, CASE4, CASE_BESSEL) }
  return 0.0f;
}
#undef FLOAT_FORM
#define FLOAT_FORM(name) name
__device__ double evaluate(int function, double x, double y, double z, double w) {
  switch (function) { MATH_FUNCTION_LIST(CASE1, CASE2, CASE3, CASE4, CASE_BESSEL) }
  return 0.0;
}

template <typename T>
__global__ void math_function(int function, unsigned n, const T* x, const T* y, const T* z,
                              const T* w, T* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = evaluate(function, x[i], y[i], z[i], w[i]);
}
template __global__ void math_function<float>(int, unsigned, const float*, const float*,
                                              const float*, const float*, float*);
template __global__ void math_function<double>(int, unsigned, const double*, const double*,
                                               const double*, const double*, double*);

// One function per kernel, for the instruction-level checks of the PTX and AMD code
// (tests/kernels_build/check_math_instructions.sh): no float stands in for a double function, no
// bare .approx instruction for a whole float function.
#define SINGLE_FUNCTION(name)                      \
  __global__ void single_##name##_f64(double* d) { \
    d[0] = name(d[1]);                             \
  }                                                \
  __global__ void single_##name##_f32(float* f) {  \
    f[0] = name##f(f[1]);                          \
  }
SINGLE_FUNCTION(exp)
SINGLE_FUNCTION(exp2)
SINGLE_FUNCTION(log)
SINGLE_FUNCTION(log2)
SINGLE_FUNCTION(log10)
SINGLE_FUNCTION(sin)
SINGLE_FUNCTION(cos)
SINGLE_FUNCTION(tan)
__global__ void single_pow_f64(double* d) {
  d[0] = pow(d[1], d[2]);
}
__global__ void single_pow_f32(float* f) {
  f[0] = powf(f[1], f[2]);
}
