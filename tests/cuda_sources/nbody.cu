// All-pairs gravitational n-body, one integration step, in the style of NVIDIA cuda-samples'
// nbody: positions and masses as float4 (w is the mass), each block walks the bodies tile by
// tile through shared memory, the interaction uses rsqrtf with a softening term, and the step
// integrates velocity and position with damping.
#include <cuda_runtime.h>

__device__ float3 bodyBodyInteraction(float3 ai, float4 bi, float4 bj, float softeningSquared) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;

  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + softeningSquared;
  float invDist = rsqrtf(distSqr);
  float invDistCube = invDist * invDist * invDist;
  float s = bj.w * invDistCube;

  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

__device__ float3 computeBodyAccel(float4 bodyPos, const float4* positions, int numTiles,
                                   float softeningSquared) {
  extern __shared__ float4 sharedPos[];
  float3 acc = make_float3(0.0f, 0.0f, 0.0f);

  for (int tile = 0; tile < numTiles; tile++) {
    sharedPos[threadIdx.x] = positions[tile * blockDim.x + threadIdx.x];
    __syncthreads();

#pragma unroll 8
    for (unsigned int counter = 0; counter < blockDim.x; counter++) {
      acc = bodyBodyInteraction(acc, bodyPos, sharedPos[counter], softeningSquared);
    }
    __syncthreads();
  }
  return acc;
}

__global__ void integrateBodies(float4* __restrict__ newPos, float4* __restrict__ newVel,
                                const float4* __restrict__ oldPos,
                                const float4* __restrict__ oldVel, float deltaTime, float damping,
                                int numTiles, float softeningSquared) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  float4 position = oldPos[index];
  float3 accel = computeBodyAccel(position, oldPos, numTiles, softeningSquared);

  float4 velocity = oldVel[index];
  velocity.x += accel.x * deltaTime;
  velocity.y += accel.y * deltaTime;
  velocity.z += accel.z * deltaTime;
  velocity.x *= damping;
  velocity.y *= damping;
  velocity.z *= damping;

  position.x += velocity.x * deltaTime;
  position.y += velocity.y * deltaTime;
  position.z += velocity.z * deltaTime;

  newPos[index] = position;
  newVel[index] = velocity;
}
