// printf in a kernel, where anygpu builds it (the CPU device, NVIDIA GPUs); AMD and SPIR-V builds
// leave it out, as the build error there asks (check_printf_refused.sh).
#include <cuda_runtime.h>

__global__ void print_block_sizes(int tag) {
#if !defined(__AMDGCN__) && !defined(__SPIRV__)
  if (threadIdx.x == 0) printf("kernel %d: block %u of %u threads\n", tag, blockIdx.x, blockDim.x);
#endif
}
