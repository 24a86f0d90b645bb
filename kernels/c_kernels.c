/* Kernels written in C: no generated entry, so the CPU backend calls them through libffi. Host
 * only: they test that libffi path, and anygpu_add_kernels leaves .c sources out of the GPU code
 * objects (GPU kernels are C++, AG_KERNEL). */
#include <anygpu/kernel.h>

AG_KERNEL_C(c_scale, "ifp", (int n, float a, float* x)) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

/* out[block] = sum of the block's slice, with a barrier (fibers under libffi). */
AG_KERNEL_C(c_block_sum, "ipp", (int n, const int* in, int* out)) {
  __shared__ int partial[1024];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  if (tid == 0) {
    int sum = 0;
    for (unsigned t = 0; t < blockDim.x; ++t) sum += partial[t];
    out[blockIdx.x] = sum;
  }
}
