// Tiled matrix multiplication C = A * B in the style of NVIDIA cuda-samples' matrixMul: each block
// computes one BLOCK_SIZE x BLOCK_SIZE tile of C, walking the tiles of A's block row and B's block
// column through shared memory. wA and wB (and A's height) are multiples of BLOCK_SIZE, as there;
// the block is BLOCK_SIZE x BLOCK_SIZE threads.
#include <cuda_runtime.h>

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float* C, float* A, float* B, int wA, int wB) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  // The first, the last and the step of the tiles of A this block reads, and of B.
  int aFirst = wA * BLOCK_SIZE * by;
  int aLast = aFirst + wA - 1;
  int aStep = BLOCK_SIZE;
  int bFirst = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;

  float sum = 0.0f;
  for (int a = aFirst, b = bFirst; a <= aLast; a += aStep, b += bStep) {
    __shared__ float tileA[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float tileB[BLOCK_SIZE][BLOCK_SIZE];

    // One element of each tile per thread.
    tileA[ty][tx] = A[a + wA * ty + tx];
    tileB[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();

#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) sum += tileA[ty][k] * tileB[k][tx];

    // Nobody loads the next tiles before everyone is done with these.
    __syncthreads();
  }

  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = sum;
}

template __global__ void MatrixMulCUDA<16>(float*, float*, float*, int, int);
template __global__ void MatrixMulCUDA<32>(float*, float*, float*, int, int);
