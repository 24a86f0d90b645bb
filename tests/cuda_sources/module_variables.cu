// __constant__ and __device__ variables as CUDA code declares them; the host writes them through
// agModuleGetGlobal and a copy (cudaMemcpyToSymbol's port) and reads the counter back.
#include <cuda_runtime.h>

__constant__ float cuda_weights[3];
__device__ float cuda_bias;
__device__ unsigned int cuda_calls;

namespace cuda_sources {
__device__ int cuda_sign;
}

__global__ void weighted_sum(int n, const float3* points, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float3 p = points[i];
  out[i] = cuda_sources::cuda_sign *
           (cuda_weights[0] * p.x + cuda_weights[1] * p.y + cuda_weights[2] * p.z + cuda_bias);
  atomicAdd(&cuda_calls, 1u);
}
