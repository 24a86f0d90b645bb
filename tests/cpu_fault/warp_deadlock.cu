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
