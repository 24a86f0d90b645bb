// The half-precision math of cuda_fp16.h and cuda_bf16.h as a CUDA file uses it: the math
// functions (hsqrt ... hrint, h2sqrt ... h2rint), the directed-rounding conversions, and warp
// shuffles of the 16-bit types. tests/conformance/half_math_test.cpp runs the kernels on every
// device over every 16-bit pattern and compares them with a reference computed in double.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// One result per function and input: out[MATH_FUNCTIONS * i + f], in this order.
constexpr int MATH_FUNCTIONS = 15;

template <typename T>
__device__ void each_function(T a, T* r) {
  r[0] = hsqrt(a);
  r[1] = hrsqrt(a);
  r[2] = hrcp(a);
  r[3] = hexp(a);
  r[4] = hexp2(a);
  r[5] = hexp10(a);
  r[6] = hlog(a);
  r[7] = hlog2(a);
  r[8] = hlog10(a);
  r[9] = hsin(a);
  r[10] = hcos(a);
  r[11] = hceil(a);
  r[12] = hfloor(a);
  r[13] = htrunc(a);
  r[14] = hrint(a);
}

template <typename T2>
__device__ void each_pair_function(T2 a, T2* r) {
  r[0] = h2sqrt(a);
  r[1] = h2rsqrt(a);
  r[2] = h2rcp(a);
  r[3] = h2exp(a);
  r[4] = h2exp2(a);
  r[5] = h2exp10(a);
  r[6] = h2log(a);
  r[7] = h2log2(a);
  r[8] = h2log10(a);
  r[9] = h2sin(a);
  r[10] = h2cos(a);
  r[11] = h2ceil(a);
  r[12] = h2floor(a);
  r[13] = h2trunc(a);
  r[14] = h2rint(a);
}

// Each function of x[i], and each pair form of (x[i], x[n - 1 - i]).
__global__ void half_math(const __half* x, __half* out, __half2* pair_out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  each_function(x[i], out + MATH_FUNCTIONS * i);
  each_pair_function(__halves2half2(x[i], x[n - 1 - i]), pair_out + MATH_FUNCTIONS * i);
}

__global__ void bf16_math(const __nv_bfloat16* x, __nv_bfloat16* out, __nv_bfloat162* pair_out,
                          int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  each_function(x[i], out + MATH_FUNCTIONS * i);
  each_pair_function(__halves2bfloat162(x[i], x[n - 1 - i]), pair_out + MATH_FUNCTIONS * i);
}

// The conversions by rounding direction: out[ROUNDINGS * i + k].
constexpr int ROUNDINGS = 8;
__global__ void directed_roundings(const float* in, const double* wide, unsigned short* out,
                                   int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  unsigned short* r = out + ROUNDINGS * i;
  r[0] = __half_as_ushort(__float2half_rn(x));
  r[1] = __half_as_ushort(__float2half_rz(x));
  r[2] = __half_as_ushort(__float2half_rd(x));
  r[3] = __half_as_ushort(__float2half_ru(x));
  r[4] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
  r[5] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
  r[6] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
  r[7] = __half_as_ushort(__double2half(wide[i]));
}

__device__ unsigned pair_bits(__half2 p) {
  return (unsigned)__half_as_ushort(p.x) | (unsigned)__half_as_ushort(p.y) << 16;
}
__device__ unsigned pair_bits(__nv_bfloat162 p) {
  return (unsigned)__bfloat16_as_ushort(p.x) | (unsigned)__bfloat16_as_ushort(p.y) << 16;
}

// Shuffles of each 16-bit type within segments of 32 lanes (width 32, so that the results are the
// same at any warp width): out[SHUFFLES * i + k]. Blocks of 32 threads, n a multiple of 32.
constexpr int SHUFFLES = 6;
__global__ void half_shuffles(const __half2* in, unsigned* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const __half2 v = in[i];
  const __half h = __low2half(v);
  const __nv_bfloat162 b2 = __floats2bfloat162_rn(__low2float(v), __high2float(v));
  const __nv_bfloat16 b = __high2bfloat16(b2);
  unsigned* r = out + SHUFFLES * i;
  r[0] = pair_bits(__shfl_sync(0xffffffff, v, lane + 3, 32));
  r[1] = __half_as_ushort(__shfl_up_sync(0xffffffff, h, 1, 32));
  r[2] = __bfloat16_as_ushort(__shfl_down_sync(0xffffffff, b, 2, 32));
  r[3] = pair_bits(__shfl_xor_sync(0xffffffff, b2, 1, 32));
  r[4] = __half_as_ushort(__shfl_sync(0xffffffff, h, 0, 8));
  // A butterfly sum of the segment's pairs, as a warp reduction of __half2 values does it.
  __half2 sum = v;
  for (int offset = 16; offset > 0; offset /= 2)
    sum = __hadd2(sum, __shfl_xor_sync(0xffffffff, sum, offset, 32));
  r[5] = pair_bits(sum);
}
