// The ported CUDA kernels (tests/cuda_sources/*.cu) in OpenCL C, line for line, for PoCL: same
// work-group shapes, dynamic shared memory as __local kernel arguments, shared atomics as
// atomic_inc on __local memory.
#pragma once

namespace cpu_pass_bench::ports {

inline const char* const kOpenclPortSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define REDUCE_BLOCK 256
__kernel void reduceGridStride(__global const float* g_idata, __global float* g_odata, uint n,
                               __local float* sdata) {
  uint tid = get_local_id(0);
  uint gridSize = REDUCE_BLOCK * 2 * get_num_groups(0);
  float mySum = 0;
  for (uint i = get_group_id(0) * REDUCE_BLOCK * 2 + tid; i < n; i += gridSize) {
    mySum += g_idata[i];
    if (i + REDUCE_BLOCK < n) mySum += g_idata[i + REDUCE_BLOCK];
  }
  sdata[tid] = mySum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = REDUCE_BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) g_odata[get_group_id(0)] = mySum;
}

#define MM_BLOCK 32
__kernel void MatrixMulCUDA(__global float* C, __global const float* A, __global const float* B,
                            int wA, int wB) {
  __local float tileA[MM_BLOCK][MM_BLOCK];
  __local float tileB[MM_BLOCK][MM_BLOCK];
  int bx = get_group_id(0), by = get_group_id(1), tx = get_local_id(0), ty = get_local_id(1);
  int aFirst = wA * MM_BLOCK * by, aLast = aFirst + wA - 1, aStep = MM_BLOCK;
  int bFirst = MM_BLOCK * bx, bStep = MM_BLOCK * wB;
  float sum = 0.0f;
  for (int a = aFirst, b = bFirst; a <= aLast; a += aStep, b += bStep) {
    tileA[ty][tx] = A[a + wA * ty + tx];
    tileB[ty][tx] = B[b + wB * ty + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < MM_BLOCK; ++k) sum += tileA[ty][k] * tileB[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int c = wB * MM_BLOCK * by + MM_BLOCK * bx;
  C[c + wB * ty + tx] = sum;
}

#define TILE_DIM 32
#define BLOCK_ROWS 8
__kernel void transposeNoBankConflicts(__global float* odata, __global const float* idata,
                                       int width, int height) {
  __local float tile[TILE_DIM][TILE_DIM + 1];
  int x = get_group_id(0) * TILE_DIM + get_local_id(0);
  int y = get_group_id(1) * TILE_DIM + get_local_id(1);
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height)
      tile[get_local_id(1) + j][get_local_id(0)] = idata[(y + j) * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * TILE_DIM + get_local_id(0);
  y = get_group_id(0) * TILE_DIM + get_local_id(1);
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width)
      odata[(y + j) * height + x] = tile[get_local_id(0)][get_local_id(1) + j];
}

__kernel void prescan(__global float* g_odata, __global const float* g_idata,
                      __global float* g_blockSums, int n, __local float* temp) {
  int thid = get_local_id(0);
  int elements = 2 * get_local_size(0);
  int first = get_group_id(0) * elements;
  int ai = thid, bi = thid + get_local_size(0);
  temp[ai] = (first + ai < n) ? g_idata[first + ai] : 0.0f;
  temp[bi] = (first + bi < n) ? g_idata[first + bi] : 0.0f;
  int offset = 1;
  for (int d = elements >> 1; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (thid == 0) {
    g_blockSums[get_group_id(0)] = temp[elements - 1];
    temp[elements - 1] = 0.0f;
  }
  for (int d = 1; d < elements; d *= 2) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (thid < d) {
      int a = offset * (2 * thid + 1) - 1, b = offset * (2 * thid + 2) - 1;
      float t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (first + ai < n) g_odata[first + ai] = temp[ai];
  if (first + bi < n) g_odata[first + bi] = temp[bi];
}

__kernel void uniformAdd(__global float* g_data, __global const float* g_blockOffsets, int n) {
  float offset = g_blockOffsets[get_group_id(0)];
  int i = get_group_id(0) * 2 * get_local_size(0) + get_local_id(0);
  if (i < n) g_data[i] += offset;
  if (i + get_local_size(0) < n) g_data[i + get_local_size(0)] += offset;
}

#define BIN_COUNT 256
#define WARP_COUNT 8
#define HIST_BLOCK (WARP_COUNT * 32)
#define HIST_MEMORY (WARP_COUNT * BIN_COUNT)
__kernel void histogram256Kernel(__global uint* d_PartialHistograms, __global const uint* d_Data,
                                 uint dataCount) {
  __local uint s_Hist[HIST_MEMORY];
  __local uint* s_WarpHist = s_Hist + (get_local_id(0) >> 5) * BIN_COUNT;
  for (uint i = 0; i < HIST_MEMORY / HIST_BLOCK; i++) s_Hist[get_local_id(0) + i * HIST_BLOCK] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint pos = get_global_id(0); pos < dataCount; pos += get_global_size(0)) {
    uint data = d_Data[pos];
    atomic_inc(s_WarpHist + ((data >> 0) & 0xFFU));
    atomic_inc(s_WarpHist + ((data >> 8) & 0xFFU));
    atomic_inc(s_WarpHist + ((data >> 16) & 0xFFU));
    atomic_inc(s_WarpHist + ((data >> 24) & 0xFFU));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint bin = get_local_id(0); bin < BIN_COUNT; bin += HIST_BLOCK) {
    uint sum = 0;
    for (uint i = 0; i < WARP_COUNT; i++) sum += s_Hist[bin + i * BIN_COUNT];
    d_PartialHistograms[get_group_id(0) * BIN_COUNT + bin] = sum;
  }
}

#define MERGE_BLOCK 256
__kernel void mergeHistogram256Kernel(__global uint* d_Histogram,
                                      __global const uint* d_PartialHistograms,
                                      uint histogramCount) {
  uint sum = 0;
  for (uint i = get_local_id(0); i < histogramCount; i += MERGE_BLOCK)
    sum += d_PartialHistograms[get_group_id(0) + i * BIN_COUNT];
  __local uint data[MERGE_BLOCK];
  data[get_local_id(0)] = sum;
  for (uint stride = MERGE_BLOCK / 2; stride > 0; stride >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < stride) data[get_local_id(0)] += data[get_local_id(0) + stride];
  }
  if (get_local_id(0) == 0) d_Histogram[get_group_id(0)] = data[0];
}

float cndGPU(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
  float K = 1.0f / (1.0f + 0.2316419f * fabs(d));
  float cnd = RSQRT2PI * exp(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  if (d > 0) cnd = 1.0f - cnd;
  return cnd;
}

__kernel void BlackScholesGPU(__global float* d_CallResult, __global float* d_PutResult,
                              __global const float* d_StockPrice,
                              __global const float* d_OptionStrike,
                              __global const float* d_OptionYears, float R, float V, int optN) {
  for (int opt = get_global_id(0); opt < optN; opt += get_global_size(0)) {
    float S = d_StockPrice[opt], X = d_OptionStrike[opt], T = d_OptionYears[opt];
    float sqrtT = sqrt(T);
    float d1 = (log(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);
    float d2 = d1 - V * sqrtT;
    float CNDD1 = cndGPU(d1), CNDD2 = cndGPU(d2);
    float expRT = exp(-R * T);
    d_CallResult[opt] = S * CNDD1 - X * expRT * CNDD2;
    d_PutResult[opt] = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);
  }
}

__kernel void layernorm_forward_kernel1(__global float* out, __global float* mean,
                                        __global float* rstd, __global const float* inp,
                                        __global const float* weight,
                                        __global const float* bias, int N, int C) {
  int idx = get_global_id(0);
  float eps = 1e-5f;
  if (idx < N) {
    __global const float* x = inp + idx * C;
    float m = 0.0f;
    for (int i = 0; i < C; i++) m += x[i];
    m = m / C;
    float v = 0.0f;
    for (int i = 0; i < C; i++) {
      float xshift = x[i] - m;
      v += xshift * xshift;
    }
    v = v / C;
    float s = 1.0f / sqrt(v + eps);
    __global float* out_idx = out + idx * C;
    for (int i = 0; i < C; i++) {
      float n = (s * (x[i] - m));
      out_idx[i] = n * weight[i] + bias[i];
    }
    mean[idx] = m;
    rstd[idx] = s;
  }
}

__kernel void softmax_forward_kernel1(__global float* out, __global const float* inp, int N,
                                      int C) {
  int i = get_global_id(0);
  if (i < N) {
    __global const float* inp_row = inp + i * C;
    __global float* out_row = out + i * C;
    float maxval = -INFINITY;
    for (int j = 0; j < C; j++)
      if (inp_row[j] > maxval) maxval = inp_row[j];
    double sum = 0.0;
    for (int j = 0; j < C; j++) {
      out_row[j] = exp(inp_row[j] - maxval);
      sum += out_row[j];
    }
    for (int j = 0; j < C; j++) out_row[j] /= (float)sum;
  }
}

float3 bodyBodyInteraction(float3 ai, float4 bi, float4 bj, float softeningSquared) {
  float3 r = bj.xyz - bi.xyz;
  float distSqr = dot(r, r) + softeningSquared;
  float invDist = rsqrt(distSqr);
  float s = bj.w * invDist * invDist * invDist;
  return ai + r * s;
}

__kernel void integrateBodies(__global float4* newPos, __global float4* newVel,
                              __global const float4* oldPos, __global const float4* oldVel,
                              float deltaTime, float damping, int numTiles,
                              float softeningSquared, __local float4* sharedPos) {
  int index = get_global_id(0);
  uint lid = get_local_id(0), size = get_local_size(0);
  float4 position = oldPos[index];
  float3 acc = (float3)(0.0f, 0.0f, 0.0f);
  for (int tile = 0; tile < numTiles; tile++) {
    sharedPos[lid] = oldPos[tile * size + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint counter = 0; counter < size; counter++)
      acc = bodyBodyInteraction(acc, position, sharedPos[counter], softeningSquared);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float4 velocity = oldVel[index];
  velocity.xyz = (velocity.xyz + acc * deltaTime) * damping;
  position.xyz += velocity.xyz * deltaTime;
  newPos[index] = position;
  newVel[index] = velocity;
}
)CLC";

}  // namespace cpu_pass_bench::ports
