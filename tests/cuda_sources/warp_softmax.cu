// Softmax and LayerNorm forward with one warp per row, in the style of karpathy's llm.c
// (dev/cuda/softmax_forward.cu, layernorm_forward.cu): the warp is a cooperative-groups tile of 32
// threads, each lane strides through the row, and cg::reduce combines the lanes' partial results.
// inp and out are N x C; blocks are whole warps, 1-D or 2-D, and the grid covers N rows.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void softmax_forward_warp_kernel(float* out, const float* inp, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  // Whole warps leave together, so the reductions below always see all 32 lanes.
  if (idx >= N) return;

  const float* x = inp + idx * C;
  float maxval = -INFINITY;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    maxval = fmaxf(maxval, x[i]);
  }
  maxval = cg::reduce(warp, maxval, cg::greater<float>());

  // The row's maximum subtracted first, so that expf cannot overflow.
  float sumval = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    sumval += expf(x[i] - maxval);
  }
  sumval = cg::reduce(warp, sumval, cg::plus<float>());

  float* y = out + idx * C;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    y[i] = expf(x[i] - maxval) / sumval;
  }
}

// Keeps each row's mean and 1/stddev for the backward pass; mean and rstd may be null.
__global__ void layernorm_forward_kernel3(float* __restrict__ out, float* __restrict__ mean,
                                          float* __restrict__ rstd, const float* __restrict__ inp,
                                          const float* __restrict__ weight,
                                          const float* __restrict__ bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N) return;

  const float* x = inp + idx * C;

  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    sum += x[i];
  }
  sum = cg::reduce(warp, sum, cg::plus<float>());
  float m = sum / C;
  if (warp.thread_rank() == 0 && mean != nullptr) mean[idx] = m;

  // The variance about the mean (no bias correction).
  sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    float diff = x[i] - m;
    sum += diff * diff;
  }
  sum = cg::reduce(warp, sum, cg::plus<float>());
  float s = rsqrtf(sum / C + 1e-5f);
  if (warp.thread_rank() == 0 && rstd != nullptr) rstd[idx] = s;

  float* o = out + idx * C;
  for (int c = warp.thread_rank(); c < C; c += warp.size()) {
    float n = s * (x[c] - m);
    o[c] = n * weight[c] + bias[c];
  }
}
