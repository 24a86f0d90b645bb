// 16-bit floating point and CUDA's integer intrinsics in the AG_KERNEL dialect (whose SPIR-V is
// C++ for OpenCL, where __half is otherwise OpenCL's own keyword): a __half2 argument by value,
// __half2 buffers, a half math function and a few bit intrinsics.
// tests/conformance/half_and_bits_test.cpp runs it.
#include <anygpu/half.h>
#include <anygpu/kernel.h>

AG_KERNEL(half_dialect_axpy, (const AG_GLOBAL __half2* x, AG_GLOBAL __half2* y, __half2 alpha,
                              AG_GLOBAL unsigned* bits, int n)) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __hfma2(alpha, x[i], h2sqrt(__habs2(y[i])));  // h2sqrt: correctly rounded everywhere
  const unsigned u = (unsigned)i * 2654435761u;
  bits[i] = __brev(u) ^ __byte_perm(u, (unsigned)n, 0x5140u) ^ (unsigned)__clz((int)u) ^
            (unsigned)__ffs(i);
}
