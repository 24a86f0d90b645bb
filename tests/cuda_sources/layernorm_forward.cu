// LayerNorm forward, the naive kernel of karpathy's llm.c (dev/cuda/layernorm_forward.cu): one
// thread normalises one row of C channels and keeps the row's mean and 1/stddev for the backward
// pass. inp and out are N x C.
#include <cuda_runtime.h>

__global__ void layernorm_forward_kernel1(float* out, float* mean, float* rstd, const float* inp,
                                          const float* weight, const float* bias, int N, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  float eps = 1e-5f;

  if (idx < N) {
    const float* x = inp + idx * C;
    float m = 0.0f;
    for (int i = 0; i < C; i++) m += x[i];
    m = m / C;
    float v = 0.0f;
    for (int i = 0; i < C; i++) {
      float xshift = x[i] - m;
      v += xshift * xshift;
    }
    v = v / C;
    float s = 1.0f / sqrtf(v + eps);
    float* out_idx = out + idx * C;
    for (int i = 0; i < C; i++) {
      float n = (s * (x[i] - m));
      out_idx[i] = n * weight[i] + bias[i];
    }
    mean[idx] = m;
    rstd[idx] = s;
  }
}
