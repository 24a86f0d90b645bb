// The half-precision math of cuda_fp16.h and cuda_bf16.h as a CUDA file uses it: the math
// functions (hsqrt ... hrint, h2sqrt ... h2rint), the directed-rounding conversions (from float,
// and to and from every integer type), the conversions between the two formats, atomicAdd on the
// 16-bit types, the relu and complex forms, and warp shuffles of the 16-bit types.
// tests/conformance/half_math_test.cpp runs the kernels on every device over every 16-bit pattern
// and compares them with a reference computed in double.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// One result per function and input: out[MATH_FUNCTIONS * i + f], in this order.
constexpr int MATH_FUNCTIONS = 17;

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
  r[15] = htanh(a);
  r[16] = htanh_approx(a);
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
  r[15] = h2tanh(a);
  r[16] = h2tanh_approx(a);
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

__device__ unsigned short bits16(__half h) {
  return __half_as_ushort(h);
}
__device__ unsigned short bits16(__nv_bfloat16 h) {
  return __bfloat16_as_ushort(h);
}

// An integer type's conversions in the four roundings: r[0..3] are _rn, _rz, _rd, _ru.
#define FOUR_ROUNDINGS(r, name, value) \
  (r)[0] = bits16(name##_rn(value));   \
  (r)[1] = bits16(name##_rz(value));   \
  (r)[2] = bits16(name##_rd(value));   \
  (r)[3] = bits16(name##_ru(value));

// in[i] as each integer type (truncated as a C cast does: int, unsigned int, short, unsigned
// short, long long, unsigned long long), converted to __half (k < 24) and __nv_bfloat16 in each
// rounding: out[FROM_INTEGER * i + 4 * type + rounding], types in that order.
constexpr int FROM_INTEGER = 48;
__global__ void from_integers(const long long* in, unsigned short* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const long long v = in[i];
  unsigned short* r = out + FROM_INTEGER * i;
  FOUR_ROUNDINGS(r, __int2half, (int)v)
  FOUR_ROUNDINGS(r + 4, __uint2half, (unsigned int)v)
  FOUR_ROUNDINGS(r + 8, __short2half, (short)v)
  FOUR_ROUNDINGS(r + 12, __ushort2half, (unsigned short)v)
  FOUR_ROUNDINGS(r + 16, __ll2half, v)
  FOUR_ROUNDINGS(r + 20, __ull2half, (unsigned long long)v)
  FOUR_ROUNDINGS(r + 24, __int2bfloat16, (int)v)
  FOUR_ROUNDINGS(r + 28, __uint2bfloat16, (unsigned int)v)
  FOUR_ROUNDINGS(r + 32, __short2bfloat16, (short)v)
  FOUR_ROUNDINGS(r + 36, __ushort2bfloat16, (unsigned short)v)
  FOUR_ROUNDINGS(r + 40, __ll2bfloat16, v)
  FOUR_ROUNDINGS(r + 44, __ull2bfloat16, (unsigned long long)v)
}

// Pattern i of each format to every integer type: out[TO_INTEGER * i + 26 * format + k], k =
// 4 * type + rounding (int, unsigned int, short, unsigned short, long long, unsigned long long;
// _rn _rz _rd _ru), then 24 the char and 25 the unsigned char toward zero. Each as a long long
// (the unsigned ones' bits).
#define FOUR_TO_INTEGER(r, name, h) \
  (r)[0] = (long long)name##_rn(h); \
  (r)[1] = (long long)name##_rz(h); \
  (r)[2] = (long long)name##_rd(h); \
  (r)[3] = (long long)name##_ru(h);
constexpr int TO_INTEGER = 52;
__global__ void to_integers(long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  const __half h = __ushort_as_half((unsigned short)i);
  const __nv_bfloat16 b = __ushort_as_bfloat16((unsigned short)i);
  long long* r = out + TO_INTEGER * i;
  FOUR_TO_INTEGER(r, __half2int, h)
  FOUR_TO_INTEGER(r + 4, __half2uint, h)
  FOUR_TO_INTEGER(r + 8, __half2short, h)
  FOUR_TO_INTEGER(r + 12, __half2ushort, h)
  FOUR_TO_INTEGER(r + 16, __half2ll, h)
  FOUR_TO_INTEGER(r + 20, __half2ull, h)
  r[24] = __half2char_rz(h);
  r[25] = __half2uchar_rz(h);
  r += 26;
  FOUR_TO_INTEGER(r, __bfloat162int, b)
  FOUR_TO_INTEGER(r + 4, __bfloat162uint, b)
  FOUR_TO_INTEGER(r + 8, __bfloat162short, b)
  FOUR_TO_INTEGER(r + 12, __bfloat162ushort, b)
  FOUR_TO_INTEGER(r + 16, __bfloat162ll, b)
  FOUR_TO_INTEGER(r + 20, __bfloat162ull, b)
  r[24] = __bfloat162char_rz(b);
  r[25] = __bfloat162uchar_rz(b);
}

// Pattern i of each format as the other: out[2 i] the bfloat16 of __half i, out[2 i + 1] the
// __half of bfloat16 i (CUDA's explicit constructors).
__global__ void between_formats(unsigned short* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  out[2 * i] = bits16(__nv_bfloat16(__ushort_as_half((unsigned short)i)));
  out[2 * i + 1] = bits16(__half(__ushort_as_bfloat16((unsigned short)i)));
}

// atomicAdd on each 16-bit type, in global memory from every thread and in shared memory within
// each block of 128. Globals: h[0] and h[1] (one 32-bit word) get 1 from the even and the odd
// threads, h[2] 1 from every thread; b[0] and b[1] likewise in bfloat16 (the
// first 512 threads); h2 (1, 2) and b2 (1, -1, from the first 256 threads) as
// pairs. old_h[g] and old_b[g] keep what thread g's add to h[g % 2] and b[g % 2] replaced. Per
// block, block_out[4 b .. 4 b + 3]: the shared __half pair s[0], s[1] (1 from the even and the
// odd threads) and the shared __nv_bfloat162 (1, 2 from every thread), as bits.
__global__ void atomics_16(__half* h, __nv_bfloat16* b, __half2* h2, __nv_bfloat162* b2,
                           unsigned short* old_h, unsigned short* old_b, unsigned* block_out) {
  __shared__ __half s[2];
  __shared__ __nv_bfloat162 sb;
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    s[0] = s[1] = __float2half(0.0f);
    sb = __floats2bfloat162_rn(0.0f, 0.0f);
  }
  __syncthreads();
  const __half one = __float2half(1.0f);
  old_h[g] = bits16(atomicAdd(&h[g % 2], one));
  atomicAdd(&h[2], one);
  if (g < 512) old_b[g] = bits16(atomicAdd(&b[g % 2], __float2bfloat16(1.0f)));
  atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
  if (g < 256) atomicAdd(b2, __floats2bfloat162_rn(1.0f, -1.0f));
  atomicAdd(&s[threadIdx.x % 2], one);
  atomicAdd(&sb, __floats2bfloat162_rn(1.0f, 2.0f));
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned* r = block_out + 4 * blockIdx.x;
    r[0] = bits16(s[0]);
    r[1] = bits16(s[1]);
    r[2] = bits16(sb.x);
    r[3] = bits16(sb.y);
  }
}

// Adds that cancel, `rounds` times, from threads of every block: h[0] and h[1] (one word) get +1
// then -1 from the first 64 threads of each block, the pair b2 (+1, -1) then (-1, +1) from the
// first 4. However the adds interleave, a partial sum stays within the number of threads adding
// (2048 per __half counter over 64 blocks, 256 for the pair), where both formats hold every
// integer: the result is 0 unless an update was lost.
__global__ void atomics_16_cancel(__half* h, __nv_bfloat162* b2, int rounds) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const __half one = __float2half(1.0f);
  const __nv_bfloat162 up = __floats2bfloat162_rn(1.0f, -1.0f);
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x < 64) {
      atomicAdd(&h[g % 2], one);
      atomicAdd(&h[g % 2], __hneg(one));
    }
    if (threadIdx.x < 4) {
      atomicAdd(b2, up);
      atomicAdd(b2, __hneg2(up));
    }
  }
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

// The pair functions beyond arithmetic, for pairs a[i], b[i], c[i] and their bfloat16 roundings:
// out[EXTRAS * i + k]. The cache-hinted loads and stores read and write c as they are.
constexpr int EXTRAS = 9;
__global__ void pair_extras(const __half2* a, const __half2* b, const __half2* c, unsigned* out,
                            int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto to_bf16 = [](__half2 v) {
    return __halves2bfloat162(__nv_bfloat16(v.x), __nv_bfloat16(v.y));
  };
  const __half2 x = __ldcs(&a[i]), y = __ldcg(&b[i]), z = __ldca(&c[i]);
  const __nv_bfloat162 bx = to_bf16(x), by = to_bf16(y), bz = to_bf16(z);
  unsigned* r = out + EXTRAS * i;
  r[0] = __hlt2_mask(x, y);
  r[1] = __hequ2_mask(x, y);
  r[2] = pair_bits(__hfma2_relu(x, y, z));
  r[3] = pair_bits(__hcmadd(x, y, z));
  r[4] = __hgeu2_mask(bx, by);
  r[5] = pair_bits(__hfma2_relu(bx, by, bz));
  r[6] = pair_bits(__hcmadd(bx, by, bz));
  r[7] = pair_bits(__high2bfloat162(bx)) ^ pair_bits(__low2bfloat162(by));
  __stcs(&r[8], pair_bits(__ldlu(&c[i])) + pair_bits(__ldcv(&a[i])));
}
