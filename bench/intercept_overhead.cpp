// anygpu_intercept_bench: what the interposer (interpose/, docs/interposition.md) adds to a call.
// The same CUDA Driver API call, made to the driver directly and through libanygpu_intercept.so's
// wrapper, side by side in one run:
//   ctx_get_current/{direct,wrapped}  cuCtxGetCurrent, the cheapest call there is
//   mem_alloc_free/{direct,wrapped}   cuMemAlloc_v2 + cuMemFree_v2 of 256 bytes (two calls, an
//                                     allocation the statistics follow)
// The wrapper runs with `trace` and `stats` on (anygpu-trace's default), the trace written to
// /dev/null: each call is timed, described, buffered as JSON and counted; only the disk is left
// out. Then "ratio <what> wrapped/direct = x" per pair.
//
// The driver is $ANYGPU_CUDA_LIBRARY (the CUDA test driver in the test suite), else libcuda.so.1;
// the interposer $ANYGPU_INTERCEPT_LIBRARY, else the one this build made. Both are dlopen'ed, the
// driver first and global, so that the wrapper finds it as its real function; the interposer is not
// preloaded, so dlsym here is glibc's and hands out the driver's own function as the direct side.
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "loaders/cuda/cuda_api.h"
#include "ratio_reporter.h"

namespace {

namespace cuda = anygpu::cuda;

using CtxGetCurrent = cuda::CUresult (*)(cuda::CUcontext*);
using MemAlloc = cuda::CUresult (*)(cuda::CUdeviceptr*, size_t);
using MemFree = cuda::CUresult (*)(cuda::CUdeviceptr);

// One side's functions.
struct Calls {
  CtxGetCurrent ctx_get_current = nullptr;
  MemAlloc mem_alloc = nullptr;
  MemFree mem_free = nullptr;
};

struct Sides {
  Calls direct, wrapped;
  std::string error;  // why the benchmarks cannot run; empty when they can
};

std::string env_or(const char* variable, const char* fallback) {
  const char* value = std::getenv(variable);
  return value && *value ? value : fallback;
}

template <typename Function>
bool find(void* library, const char* name, Function* function, std::string* error) {
  *function = reinterpret_cast<Function>(dlsym(library, name));
  if (!*function) *error = std::string(name) + " not found: " + dlerror();
  return *function != nullptr;
}

bool find_calls(void* library, Calls* calls, std::string* error) {
  return find(library, "cuCtxGetCurrent", &calls->ctx_get_current, error) &&
         find(library, "cuMemAlloc_v2", &calls->mem_alloc, error) &&
         find(library, "cuMemFree_v2", &calls->mem_free, error);
}

// The driver with a current context (the primary one of device 0), and both sides' functions.
Sides set_up() {
  Sides s;
  const std::string driver_path = env_or("ANYGPU_CUDA_LIBRARY", "libcuda.so.1");
  void* driver = dlopen(driver_path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!driver) return {{}, {}, "no CUDA driver: " + std::string(dlerror())};
  using Init = cuda::CUresult (*)(unsigned);
  using PrimaryCtxRetain = cuda::CUresult (*)(cuda::CUcontext*, cuda::CUdevice);
  using CtxSetCurrent = cuda::CUresult (*)(cuda::CUcontext);
  Init init = nullptr;
  PrimaryCtxRetain retain = nullptr;
  CtxSetCurrent set_current = nullptr;
  if (!find(driver, "cuInit", &init, &s.error) ||
      !find(driver, "cuDevicePrimaryCtxRetain", &retain, &s.error) ||
      !find(driver, "cuCtxSetCurrent", &set_current, &s.error) ||
      !find_calls(driver, &s.direct, &s.error))
    return s;
  cuda::CUcontext context = nullptr;
  if (cuda::CUresult r = init(0)) return {{}, {}, "cuInit failed: " + std::to_string(r)};
  if (cuda::CUresult r = retain(&context, 0))
    return {{}, {}, "cuDevicePrimaryCtxRetain failed: " + std::to_string(r)};
  if (cuda::CUresult r = set_current(context))
    return {{}, {}, "cuCtxSetCurrent failed: " + std::to_string(r)};
  // Read by the interposer on its first wrapped call.
  setenv("ANYGPU_INTERCEPT", "trace,stats", 1);
  setenv("ANYGPU_INTERCEPT_TRACE_FILE", "/dev/null", 1);
  const std::string interposer_path = env_or("ANYGPU_INTERCEPT_LIBRARY", ANYGPU_BUILT_INTERPOSER);
  void* interposer = dlopen(interposer_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!interposer) return {{}, {}, "no interposer: " + std::string(dlerror())};
  find_calls(interposer, &s.wrapped, &s.error);
  return s;
}

const Sides& sides() {
  static const Sides instance = set_up();
  return instance;
}

const Calls* ready(benchmark::State& state, bool wrapped) {
  const Sides& s = sides();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return nullptr;
  }
  return wrapped ? &s.wrapped : &s.direct;
}

void ctx_get_current(benchmark::State& state, bool wrapped) {
  const Calls* calls = ready(state, wrapped);
  if (!calls) return;
  cuda::CUcontext context = nullptr;
  for (auto _ : state) {
    if (cuda::CUresult r = calls->ctx_get_current(&context)) {
      state.SkipWithError(("cuCtxGetCurrent failed: " + std::to_string(r)).c_str());
      break;
    }
    benchmark::DoNotOptimize(context);
  }
}

void mem_alloc_free(benchmark::State& state, bool wrapped) {
  const Calls* calls = ready(state, wrapped);
  if (!calls) return;
  for (auto _ : state) {
    cuda::CUdeviceptr pointer = 0;
    cuda::CUresult r = calls->mem_alloc(&pointer, 256);
    if (r == 0) r = calls->mem_free(pointer);
    if (r) {
      state.SkipWithError(("cuMemAlloc_v2/cuMemFree_v2 failed: " + std::to_string(r)).c_str());
      break;
    }
  }
}

BENCHMARK_CAPTURE(ctx_get_current, direct, false);
BENCHMARK_CAPTURE(ctx_get_current, wrapped, true);
BENCHMARK_CAPTURE(mem_alloc_free, direct, false);
BENCHMARK_CAPTURE(mem_alloc_free, wrapped, true);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  anygpu_bench::RatioReporter reporter(isatty(STDOUT_FILENO)
                                           ? anygpu_bench::RatioReporter::OO_ColorTabular
                                           : anygpu_bench::RatioReporter::OO_Tabular,
                                       "no CUDA driver");
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::fflush(stdout);
  reporter.print_ratio("intercept_ctx_get_current", "wrapped/direct", "ctx_get_current/wrapped",
                       "ctx_get_current/direct", false);
  reporter.print_ratio("intercept_mem_alloc_free", "wrapped/direct", "mem_alloc_free/wrapped",
                       "mem_alloc_free/direct", false);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
