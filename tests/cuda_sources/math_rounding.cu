// CUDA's intrinsics named by their rounding, as kernels for
// tests/conformance/math_rounding_test.cpp: every directed-rounding operation on each operand
// triple, the conversions between floating point and integers in each rounding, and the bit casts.
#include <cuda_runtime.h>

namespace {
// The float and double forms under one name, for the template below.
#define ROUNDED_FORMS(r)                                    \
  __device__ float add_##r(float x, float y) {              \
    return __fadd_##r(x, y);                                \
  }                                                         \
  __device__ double add_##r(double x, double y) {           \
    return __dadd_##r(x, y);                                \
  }                                                         \
  __device__ float sub_##r(float x, float y) {              \
    return __fsub_##r(x, y);                                \
  }                                                         \
  __device__ double sub_##r(double x, double y) {           \
    return __dsub_##r(x, y);                                \
  }                                                         \
  __device__ float mul_##r(float x, float y) {              \
    return __fmul_##r(x, y);                                \
  }                                                         \
  __device__ double mul_##r(double x, double y) {           \
    return __dmul_##r(x, y);                                \
  }                                                         \
  __device__ float div_##r(float x, float y) {              \
    return __fdiv_##r(x, y);                                \
  }                                                         \
  __device__ double div_##r(double x, double y) {           \
    return __ddiv_##r(x, y);                                \
  }                                                         \
  __device__ float rcp_##r(float x) {                       \
    return __frcp_##r(x);                                   \
  }                                                         \
  __device__ double rcp_##r(double x) {                     \
    return __drcp_##r(x);                                   \
  }                                                         \
  __device__ float sqrt_##r(float x) {                      \
    return __fsqrt_##r(x);                                  \
  }                                                         \
  __device__ double sqrt_##r(double x) {                    \
    return __dsqrt_##r(x);                                  \
  }                                                         \
  __device__ float fma_##r(float x, float y, float z) {     \
    return __fmaf_##r(x, y, z);                             \
  }                                                         \
  __device__ double fma_##r(double x, double y, double z) { \
    return __fma_##r(x, y, z);                              \
  }
ROUNDED_FORMS(rn)
ROUNDED_FORMS(rz)
ROUNDED_FORMS(ru)
ROUNDED_FORMS(rd)
}  // namespace

// out[28 i + 4 op + r]: op add, sub, mul, div, rcp, sqrt, fma; r rn, rz, ru, rd.
#define ALL_ROUNDINGS(at, call) \
  o[at + 0] = call(rn);         \
  o[at + 1] = call(rz);         \
  o[at + 2] = call(ru);         \
  o[at + 3] = call(rd);
#define ADD(r) add_##r(a, b)
#define SUB(r) sub_##r(a, b)
#define MUL(r) mul_##r(a, b)
#define DIV(r) div_##r(a, b)
#define RCP(r) rcp_##r(a)
#define SQRT(r) sqrt_##r(a)
#define FMA(r) fma_##r(a, b, c)
template <typename T>
__global__ void rounding_arithmetic(unsigned n, const T* x, const T* y, const T* z, T* out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const T a = x[i], b = y[i], c = z[i];
  T* o = out + 28 * i;
  ALL_ROUNDINGS(0, ADD)
  ALL_ROUNDINGS(4, SUB)
  ALL_ROUNDINGS(8, MUL)
  ALL_ROUNDINGS(12, DIV)
  ALL_ROUNDINGS(16, RCP)
  ALL_ROUNDINGS(20, SQRT)
  ALL_ROUNDINGS(24, FMA)
}
template __global__ void rounding_arithmetic<float>(unsigned, const float*, const float*,
                                                    const float*, float*);
template __global__ void rounding_arithmetic<double>(unsigned, const double*, const double*,
                                                     const double*, double*);

// Per element i: integers[36 i + ...] float to int, uint, ll, ull (4 roundings each), then the
// same from double, then the bit casts __float_as_int, __float_as_uint, __double_as_longlong,
// __double2hiint (with __double2loint in its high half); floats[24 i + ...] int, uint, ll, ull
// and double to float (4 roundings each), then __int_as_float, __uint_as_float, and two spare
// lanes (__int2float_rn of the loint, __uint2float_rn of the hiint); doubles[12 i + ...] ll and ull
// to double (4 roundings each), __int2double_rn, __uint2double_rn, __longlong_as_double,
// __hiloint2double.
#define CONVERT(name, x, out, at) \
  out[at + 0] = __##name##_rn(x); \
  out[at + 1] = __##name##_rz(x); \
  out[at + 2] = __##name##_ru(x); \
  out[at + 3] = __##name##_rd(x);
__global__ void rounding_conversions(unsigned n, const float* f, const double* d,
                                     const long long* s, const unsigned long long* u,
                                     unsigned long long* integers, float* floats, double* doubles) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long* k = integers + 36 * i;
  float* g = floats + 24 * i;
  double* h = doubles + 12 * i;
  const float fi = f[i];
  const double di = d[i];
  const long long si = s[i];
  const unsigned long long ui = u[i];
  const int narrow = (int)si;
  const unsigned int unsigned_narrow = (unsigned int)ui;
  CONVERT(float2int, fi, k, 0)
  CONVERT(float2uint, fi, k, 4)
  CONVERT(float2ll, fi, k, 8)
  CONVERT(float2ull, fi, k, 12)
  CONVERT(double2int, di, k, 16)
  CONVERT(double2uint, di, k, 20)
  CONVERT(double2ll, di, k, 24)
  CONVERT(double2ull, di, k, 28)
  k[32] = (unsigned int)__float_as_int(fi);
  k[33] = __float_as_uint(fi);
  k[34] = (unsigned long long)__double_as_longlong(di);
  k[35] = (unsigned long long)(unsigned int)__double2hiint(di) |
          (unsigned long long)(unsigned int)__double2loint(di) << 32;
  CONVERT(int2float, narrow, g, 0)
  CONVERT(uint2float, unsigned_narrow, g, 4)
  CONVERT(ll2float, si, g, 8)
  CONVERT(ull2float, ui, g, 12)
  CONVERT(double2float, di, g, 16)
  g[20] = __int_as_float(narrow);
  g[21] = __uint_as_float(unsigned_narrow);
  g[22] = __int2float_rn(__double2loint(di));
  g[23] = __uint2float_rn((unsigned int)__double2hiint(di));
  CONVERT(ll2double, si, h, 0)
  CONVERT(ull2double, ui, h, 4)
  h[8] = __int2double_rn(narrow);
  h[9] = __uint2double_rn(unsigned_narrow);
  h[10] = __longlong_as_double(si);
  h[11] = __hiloint2double(narrow, (int)unsigned_narrow);
}

// __frsqrt_rn of each input, and (thread 0) the bits of nan() and nanf() of a few tags:
// out_nan[0..7] nan("") nan("1") nan("0x7ff") nan("017") nan("1x") nan("0x8000000000001")
// nan("18446744073709551616") nan("0x10000000000000000") (the last two beyond 64 bits),
// [8..10] nanf("5") nanf("0x3fffff") nanf("0x7fffff").
__global__ void rsqrt_rn_and_nan(unsigned n, const float* x, float* out,
                                 unsigned long long* out_nan) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __frsqrt_rn(x[i]);
  if (i != 0) return;
  const char* const tags[8] = {"",
                               "1",
                               "0x7ff",
                               "017",
                               "1x",
                               "0x8000000000001",
                               "18446744073709551616",
                               "0x10000000000000000"};
  for (int k = 0; k < 8; ++k) out_nan[k] = (unsigned long long)__double_as_longlong(nan(tags[k]));
  out_nan[8] = __float_as_uint(nanf("5"));
  out_nan[9] = __float_as_uint(nanf("0x3fffff"));
  out_nan[10] = __float_as_uint(nanf("0x7fffff"));
}
