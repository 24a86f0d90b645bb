// CUDA's 16-bit floating-point types (cuda_fp16.h, cuda_bf16.h) and integer intrinsics, as a CUDA
// file uses them. tests/conformance/half_and_bits_test.cpp runs the kernels on every device and
// compares each result bit for bit with the same functions computed on the host.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// One __half per operation and input pair: a[i] op b[i] (and c[i] for fma), out[OPS * i + op].
constexpr int HALF_OPS = 16;

__global__ void half_arithmetic(const __half* a, const __half* b, const __half* c, __half* out,
                                int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half x = a[i], y = b[i], z = c[i];
  __half* r = out + HALF_OPS * i;
  r[0] = __hadd(x, y);
  r[1] = __hsub(x, y);
  r[2] = __hmul(x, y);
  r[3] = __hdiv(x, y);
  r[4] = __hfma(x, y, z);
  r[5] = __hneg(x);
  r[6] = __habs(y);
  r[7] = __hmax(x, y);
  r[8] = __hmin(x, y);
  r[9] = __hmax_nan(x, y);
  r[10] = __hadd_sat(x, y);
  r[11] = x * y + z;  // operators, not contracted: the same as __hadd(__hmul(x, y), z)
  __half acc = x;
  acc -= y;
  acc /= z;
  r[12] = acc;
  r[13] = __float2half(__half2float(x) * 3.0f);
  r[14] = __hfma_sat(x, y, z);
  r[15] = -y;
}

// Comparisons packed as bits: bit k of out[i] is comparison k of a[i], b[i].
__global__ void half_comparisons(const __half* a, const __half* b, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half x = a[i], y = b[i];
  // One term per comparison (a loop over an array of them trips GCC 12's maybe-uninitialized
  // under ASan).
  const unsigned bits = __heq(x, y) << 0 | __hne(x, y) << 1 | __hlt(x, y) << 2 | __hle(x, y) << 3 |
                        __hgt(x, y) << 4 | __hge(x, y) << 5 | __hequ(x, y) << 6 |
                        __hneu(x, y) << 7 | __hltu(x, y) << 8 | __hleu(x, y) << 9 |
                        __hgtu(x, y) << 10 | __hgeu(x, y) << 11 | (x == y) << 12 | (x != y) << 13 |
                        (x < y) << 14 | (x >= y) << 15 | __hisnan(x) << 16 |
                        (__hisinf(x) != 0) << 17;
  out[i] = bits;
}

// __half2 arithmetic with a scalar argument by value, as llm.c-style kernels write it.
__global__ void half2_axpby(const __half2* x, __half2* y, __half2 alpha, __half beta, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half2 b2 = __half2half2(beta);
  y[i] = __hfma2(alpha, x[i], __hmul2(b2, y[i]));
}

// Conversions: float in, the 16-bit bits out, and back.
__global__ void conversions(const float* in, unsigned short* half_bits, unsigned short* bf16_bits,
                            float* back, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half h = __float2half_rn(in[i]);
  const __nv_bfloat16 b = __float2bfloat16(in[i]);
  half_bits[i] = __half_as_ushort(h);
  bf16_bits[i] = __bfloat16_as_ushort(b);
  const float2 pair = __half22float2(__halves2half2(h, __low2half(__float2half2_rn(1.0f))));
  back[2 * i] = pair.x + pair.y - 1.0f;
  back[2 * i + 1] = __bfloat162float(b);
}

// bfloat16 arithmetic, pairs and scalars.
constexpr int BF16_OPS = 8;
__global__ void bf16_arithmetic(const __nv_bfloat162* a, const __nv_bfloat162* b,
                                __nv_bfloat162* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __nv_bfloat162 x = a[i], y = b[i];
  __nv_bfloat162* r = out + BF16_OPS * i;
  r[0] = __hadd2(x, y);
  r[1] = __hsub2(x, y);
  r[2] = __hmul2(x, y);
  r[3] = __h2div(x, y);
  r[4] = __hfma2(x, y, x);
  r[5] = __hmax2(x, y);
  r[6] = __halves2bfloat162(__low2bfloat16(x) + __high2bfloat16(y), __hneg(__high2bfloat16(x)));
  r[7] = __floats2bfloat162_rn(__low2float(x) * 0.5f, __high2float(y) + 1.0f);
}

// The integer intrinsics: out[INT_OPS * i + op] for the inputs u[i], v[i], w[i].
constexpr int INT_OPS = 24;
__global__ void integer_intrinsics(const unsigned* u, const unsigned* v, const unsigned* w,
                                   unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned x = u[i], y = v[i], s = w[i];
  const unsigned long long wide = ((unsigned long long)x << 32) | y;
  const unsigned long long other = ((unsigned long long)s << 32) | (x ^ y);
  unsigned* r = out + INT_OPS * i;
  r[0] = __popc(x);
  r[1] = __clz((int)x);
  r[2] = __ffs((int)x);
  r[3] = __brev(x);
  r[4] = __byte_perm(x, y, s);
  r[5] = __funnelshift_l(x, y, s);
  r[6] = __funnelshift_lc(x, y, s);
  r[7] = __funnelshift_r(x, y, s);
  r[8] = __funnelshift_rc(x, y, s);
  r[9] = (unsigned)__mul24((int)x, (int)y);
  r[10] = __umul24(x, y);
  r[11] = (unsigned)__mulhi((int)x, (int)y);
  r[12] = __umulhi(x, y);
  r[13] = __sad((int)x, (int)y, s);
  r[14] = __usad(x, y, s);
  r[15] = (unsigned)__hadd((int)x, (int)y);
  r[16] = (unsigned)__rhadd((int)x, (int)y);
  r[17] = __uhadd(x, y);
  r[18] = __urhadd(x, y);
  r[19] = (unsigned)__popcll(wide) | (unsigned)__clzll((long long)wide) << 8 |
          (unsigned)__ffsll((long long)wide) << 16;
  const unsigned long long reversed = __brevll(wide);
  r[20] = (unsigned)(reversed >> 32) ^ (unsigned)reversed;
  const unsigned long long high = __umul64hi(wide, other);
  r[21] = (unsigned)(high >> 32) ^ (unsigned)high;
  const long long signed_high = __mul64hi((long long)wide, (long long)other);
  r[22] = (unsigned)((unsigned long long)signed_high >> 32) ^ (unsigned)signed_high;
  r[23] = (unsigned)__popc(s & 0xFFFF) + (unsigned)__clz(0) * 256u + (unsigned)__ffs(0) * 65536u;
}
