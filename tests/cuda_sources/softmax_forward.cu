// Softmax forward, the naive kernel of karpathy's llm.c (dev/cuda/softmax_forward.cu): one thread
// per row of C values, the row's maximum subtracted before the exponent so that it cannot overflow.
// inp and out are N x C.
#include <cuda_runtime.h>

__global__ void softmax_forward_kernel1(float* out, const float* inp, int N, int C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    const float* inp_row = inp + i * C;
    float* out_row = out + i * C;

    float maxval = -INFINITY;
    for (int j = 0; j < C; j++) {
      if (inp_row[j] > maxval) maxval = inp_row[j];
    }
    double sum = 0.0;
    for (int j = 0; j < C; j++) {
      out_row[j] = expf(inp_row[j] - maxval);
      sum += out_row[j];
    }
    for (int j = 0; j < C; j++) out_row[j] /= (float)sum;
  }
}
