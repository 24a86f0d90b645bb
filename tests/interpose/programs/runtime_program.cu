// A CUDA Runtime program, built with nvcc (static cudart, its default), for the interposer's
// tests: a known sequence of allocations, copies and one named launch, with its result checked.
//   runtime_program          the sequence once; exit 0 when the result is right
//   runtime_program fork     forks first and runs the sequence in both processes
// Three buffers are allocated and two freed: the third is leaked on purpose, for the
// interposer's leak report. Each failing call prints its name and error string, so that a
// failure injected under the interposer shows.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

// extern "C": the kernel's name is plain "scale_kernel", the name its host build
// (runtime_program_kernels.cpp) has for the CUDA test driver.
extern "C" __global__ void scale_kernel(float* x, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}

namespace {

constexpr int kCount = 1024;

bool check(cudaError_t result, const char* call) {
  if (result == cudaSuccess) return true;
  printf("%s: %s (%s)\n", call, cudaGetErrorString(result), cudaGetErrorName(result));
  return false;
}
#define CHECK(call) \
  if (!check((call), #call)) return 1

int run_sequence() {
  static float host[kCount], back[kCount];
  for (int i = 0; i < kCount; ++i) host[i] = static_cast<float>(i);
  float *data = nullptr, *scratch = nullptr, *leaked = nullptr;
  CHECK(cudaMalloc(&data, sizeof host));
  CHECK(cudaMalloc(&scratch, sizeof host));
  CHECK(cudaMalloc(&leaked, 256));
  CHECK(cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(scratch, data, sizeof host, cudaMemcpyDeviceToDevice));
  scale_kernel<<<kCount / 256, 256>>>(scratch, 2.0f, kCount);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(back, scratch, sizeof back, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(scratch));
  CHECK(cudaFree(data));
  for (int i = 0; i < kCount; ++i) {
    if (back[i] != 2.0f * static_cast<float>(i)) {
      printf("FAIL: element %d is %g, not %g\n", i, back[i], 2.0f * static_cast<float>(i));
      return 2;
    }
  }
  printf("OK\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "fork") == 0) {
    fflush(stdout);
    const pid_t child = fork();
    if (child < 0) return 3;
    const int result = run_sequence();
    fflush(stdout);
    if (child == 0) _exit(result);
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status)) return 3;
    return result ? result : WEXITSTATUS(status);
  }
  return run_sequence();
}
