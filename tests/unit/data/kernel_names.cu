// CUDA-syntax kernels whose mangled names kernel_name_match_test.cpp resolves, compiled by
// clang (no CUDA installation needed) into kernel_names.sm_90.ptx and, in HIP mode for SPIR-V,
// kernel_names.spv:
//   clang-19 -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 -O1 -S \
//     kernel_names.cu -o kernel_names.sm_90.ptx
//   clang-15 -x hip --offload=spirv64 --cuda-device-only -nogpulib -nogpuinc -emit-llvm -c \
//     kernel_names.cu -o kernel_names.bc && llvm-spirv-15 kernel_names.bc -o kernel_names.spv
#define __global__ __attribute__((global))

template <int N>
__global__ void reduce(float* out, float* unused, unsigned n) {
  if (n) out[0] = N + (unused ? 0 : 1);
}
template __global__ void reduce<256>(float*, float*, unsigned);
template __global__ void reduce<128>(float*, float*, unsigned);

__global__ void saxpy(int n, float a, const float* x, float* y) {
  if (n) y[0] = a * x[0];
}

namespace ns {
template <typename T>
__global__ void scale(T* x, int n) {
  if (n) x[0] *= 3;
}
template __global__ void scale<float>(float*, int);
}  // namespace ns

namespace {
__global__ void offset(int* x, int n) {
  if (n) x[0] += 7;
}
}  // namespace
static __global__ void local_kernel(int* x) {
  x[0] = 1;
}

extern "C" __global__ void plain_c(int* x) {
  x[0] = 2;
}

// Referenced, so that the internal kernels are emitted.
void* keep[] = {(void*)offset, (void*)local_kernel};
