// saxpy bandwidth on the CUDA device: cuda_saxpy/anygpu launches the `saxpy` kernel through
// agLaunchKernel on vectors of `saxpy_bytes`, blocks of 256, on a stream synchronized after each
// launch. bytes_per_second counts 3 * n * 4 bytes per launch (read x, read y, write y), to be
// read against cuda_copy_dtod/direct, the device's copy bandwidth counted the same way. The
// result is checked on sampled elements: integer-valued inputs make y = y0 + runs * a * x exact.
#include <vector>

#include "cuda_support.h"

namespace anygpu_cuda_bench {
namespace {

constexpr unsigned kBlock = 256;
constexpr float kA = 2.0f;

float x_at(size_t i) {
  return static_cast<float>(i % 16);
}
float y0_at(size_t i) {
  return static_cast<float>(i % 7);
}

// y holds y0 + runs * a * x at sampled indices.
bool check(benchmark::State& state, float* y, int n, int64_t runs) {
  const CudaRuntime& r = cuda_runtime();
  for (int k = 0; k < 64; ++k) {
    const size_t i = static_cast<size_t>(n - 1) * k / 63;
    float got = 0;
    if (!ag_ok(state, agMemcpyDtoH(r.device, &got, y + i, sizeof got), "agMemcpyDtoH"))
      return false;
    const double expected = y0_at(i) + static_cast<double>(runs) * kA * x_at(i);
    if (got != expected) {
      state.SkipWithError(("y[" + std::to_string(i) + "] = " + std::to_string(got) + ", expected " +
                           std::to_string(expected))
                              .c_str());
      return false;
    }
  }
  return true;
}

void cuda_saxpy(benchmark::State& state) {
  if (!ready(state)) return;
  const CudaRuntime& r = cuda_runtime();
  int n = static_cast<int>(sizes().saxpy_bytes / sizeof(float));
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> host(n);
  void *x = nullptr, *y = nullptr;
  ag_function kernel = nullptr;
  ag_stream stream = nullptr;
  bool ok = ag_ok(state, agModuleGetFunction(r.kernels, "saxpy", &kernel), "agModuleGetFunction") &&
            ag_ok(state, agMemAlloc(r.device, bytes, &x), "agMemAlloc") &&
            ag_ok(state, agMemAlloc(r.device, bytes, &y), "agMemAlloc") &&
            ag_ok(state, agStreamCreate(r.device, 0, &stream), "agStreamCreate");
  for (int i = 0; ok && i < n; ++i) host[i] = x_at(i);
  ok = ok && ag_ok(state, agMemcpyHtoD(r.device, x, host.data(), bytes), "agMemcpyHtoD");
  for (int i = 0; ok && i < n; ++i) host[i] = y0_at(i);
  ok = ok && ag_ok(state, agMemcpyHtoD(r.device, y, host.data(), bytes), "agMemcpyHtoD");

  float a = kA;
  void* params[] = {&n, &a, &x, &y};
  const unsigned grid = (static_cast<unsigned>(n) + kBlock - 1) / kBlock;
  auto run = [&] {
    return ag_ok(state,
                 agLaunchKernel(kernel, grid, 1, 1, kBlock, 1, 1, 0, stream, params, nullptr),
                 "agLaunchKernel") &&
           ag_ok(state, agStreamSynchronize(stream), "agStreamSynchronize");
  };
  ok = ok && run();  // warm-up, untimed
  for (auto _ : state)
    if (!(ok = ok && run())) break;
  if (ok && check(state, static_cast<float*>(y), n, state.iterations() + 1))
    state.SetBytesProcessed(static_cast<int64_t>(3.0 * bytes * state.iterations()));
  if (stream) agStreamDestroy(stream);
  if (x) agMemFree(r.device, x);
  if (y) agMemFree(r.device, y);
}

BENCHMARK(cuda_saxpy)->Name("cuda_saxpy/anygpu")->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace anygpu_cuda_bench
