// Half a warp waits in a warp function for lanes that wait at __syncthreads() for it: on a GPU
// the block hangs; on the CPU device the launch fails (cpu_fault_test.cpp).
__global__ void shuffle_against_barrier(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  if (lane < 16) {
    out[lane] = __shfl_sync(0xffffffff, lane, 31);
  } else {
    __syncthreads();
  }
}

// Odd and even threads wait at two different __syncthreads(): on a GPU the block may hang or mix
// the two up; the barrier pass's loops see the threads disagree and the launch fails
// (cpu_fault_test.cpp). The stores before and after keep the two barriers apart.
__global__ void split_barriers(int* out) {
  const int t = static_cast<int>(threadIdx.x);
  if (t % 2) {
    out[t] = 1;
    __syncthreads();
    out[t] += out[t ^ 1];
  } else {
    out[t] = 2;
    __syncthreads();
    out[t] *= out[t ^ 1];
  }
}
