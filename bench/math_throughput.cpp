// anygpu_math_bench: erf, exp and log in float and double over 4 Mi elements, as a kernel on the
// CPU device (anygpu/<f>) and as glibc's vectorised loop (libmvec/<f>: math_throughput_libmvec.cpp)
// on as many OpenMP threads as the device has workers. Before timing, both outputs are checked
// against libm's scalar results. Reported: ns per element (per_element); docs/math.md has a run.
#include <anygpu/anygpu.h>
#include <benchmark/benchmark.h>
#include <math.h>
#include <omp.h>

#include <string>
#include <vector>

#include "anygpu_image_math_bench_kernels.h"
#include "math_throughput.h"

namespace anygpu_math_bench {
namespace {

constexpr int kCount = 1 << 22;

// The CPU device and the kernels, once per run; nullptr where setup failed (the detail printed).
ag_module cpu_module(ag_device* device) {
  static ag_device cpu = nullptr;
  static ag_module module = [] {
    ag_module loaded = nullptr;
    int count = 0;
    if (agInit(0) != AG_SUCCESS || agDeviceGetCount(&count) != AG_SUCCESS) return loaded;
    for (int i = 0; i < count && !cpu; ++i) {
      ag_device candidate = nullptr;
      ag_device_properties properties{};
      properties.struct_size = sizeof properties;
      if (agDeviceGet(i, &candidate) == AG_SUCCESS &&
          agDeviceGetProperties(candidate, &properties) == AG_SUCCESS &&
          properties.backend == AG_BACKEND_CPU) {
        cpu = candidate;
        omp_set_num_threads(properties.compute_units);
      }
    }
    if (cpu && agModuleLoadData(cpu, anygpu_image_math_bench_kernels,
                                anygpu_image_math_bench_kernels_size, &loaded) != AG_SUCCESS)
      loaded = nullptr;
    return loaded;
  }();
  *device = cpu;
  return module;
}

template <typename T>
struct Function {
  const char* name;
  const char* kernel;
  void (*libmvec)(const T*, T*, int);
  T (*libm)(T);
  T low, high;
  bool logarithmic;  // inputs spread over the exponents (log), else evenly over [low, high]
};

template <typename T>
std::vector<T> inputs(const Function<T>& f) {
  std::vector<T> values(kCount);
  for (int i = 0; i < kCount; ++i) {
    const double t = (i * 2654435761u % kCount) / double(kCount);  // scattered, not sorted
    values[i] = f.logarithmic
                    ? T(exp(log(double(f.low)) + t * (log(double(f.high)) - log(double(f.low)))))
                    : T(f.low + (f.high - f.low) * t);
  }
  return values;
}

// Whether `out` is within `ulps` of libm at every input (the first mismatch reported).
template <typename T>
bool matches_libm(benchmark::State& state, const Function<T>& f, const std::vector<T>& in,
                  const std::vector<T>& out, double ulps, const char* side) {
  for (int i = 0; i < kCount; ++i) {
    const T expected = f.libm(in[i]);
    const T spacing = nextafter(fabs(expected), T(INFINITY)) - fabs(expected);
    if (!(fabs(out[i] - expected) <= ulps * spacing)) {
      state.SkipWithError((std::string(side) + " " + f.name + "(" + std::to_string(in[i]) +
                           ") = " + std::to_string(out[i]) + ", libm " + std::to_string(expected))
                              .c_str());
      return false;
    }
  }
  return true;
}

void report(benchmark::State& state) {
  state.counters["per_element"] =
      benchmark::Counter(double(state.iterations()) * kCount,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <typename T>
void anygpu_side(benchmark::State& state, const Function<T>& f) {
  ag_device device = nullptr;
  ag_module module = cpu_module(&device);
  ag_function kernel = nullptr;
  if (!module || agModuleGetFunction(module, f.kernel, &kernel) != AG_SUCCESS) {
    state.SkipWithError("the CPU device or the math kernels could not be loaded");
    return;
  }
  const std::vector<T> in = inputs(f);
  std::vector<T> out(kCount);
  void *in_device = nullptr, *out_device = nullptr;
  const size_t bytes = kCount * sizeof(T);
  int count = kCount;
  void* params[] = {&in_device, &out_device, &count};
  bool ready = agMemAlloc(device, bytes, &in_device) == AG_SUCCESS &&
               agMemAlloc(device, bytes, &out_device) == AG_SUCCESS &&
               agMemcpyHtoD(device, in_device, in.data(), bytes) == AG_SUCCESS &&
               agLaunchKernel(kernel, kCount / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr) ==
                   AG_SUCCESS &&
               agMemcpyDtoH(device, out.data(), out_device, bytes) == AG_SUCCESS;
  if (!ready) state.SkipWithError("allocating, copying or launching on the CPU device failed");
  // CUDA's bounds: 2 ulp for the float functions, 1 and 2 for the double ones; 2 for all here.
  if (ready && matches_libm(state, f, in, out, 2, "anygpu")) {
    for (auto _ : state) {
      agLaunchKernel(kernel, kCount / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr);
      agDeviceSynchronize(device);
    }
  }
  agMemFree(device, in_device);
  agMemFree(device, out_device);
  report(state);
}

template <typename T>
void libmvec_side(benchmark::State& state, const Function<T>& f) {
  ag_device device = nullptr;
  cpu_module(&device);  // the thread count
  const std::vector<T> in = inputs(f);
  std::vector<T> out(kCount);
  f.libmvec(in.data(), out.data(), kCount);
  // libmvec documents 4 ulp.
  if (matches_libm(state, f, in, out, 4, "libmvec")) {
    for (auto _ : state) {
      f.libmvec(in.data(), out.data(), kCount);
      benchmark::DoNotOptimize(out.data());
    }
  }
  report(state);
}

// libm's double functions (the C++ overloads of <math.h> make the names ambiguous otherwise).
double (*const libm_exp)(double) = ::exp;
double (*const libm_log)(double) = ::log;
double (*const libm_erf)(double) = ::erf;

const Function<float> kFloat[] = {
    {"expf", "_Z10apply_expfPKfPfi", libmvec_expf, expf, -80.0f, 80.0f, false},
    {"logf", "_Z10apply_logfPKfPfi", libmvec_logf, logf, 1e-30f, 1e30f, true},
    {"erff", "_Z10apply_erffPKfPfi", libmvec_erff, erff, -4.0f, 4.0f, false},
};
const Function<double> kDouble[] = {
    {"exp", "_Z9apply_expPKdPdi", libmvec_exp, libm_exp, -700.0, 700.0, false},
    {"log", "_Z9apply_logPKdPdi", libmvec_log, libm_log, 1e-300, 1e300, true},
    {"erf", "_Z9apply_erfPKdPdi", libmvec_erf, libm_erf, -6.0, 6.0, false},
};

template <typename T>
void register_function(const Function<T>& f) {
  benchmark::RegisterBenchmark((std::string("math/") + f.name + "/anygpu").c_str(),
                               [&f](benchmark::State& state) { anygpu_side(state, f); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark((std::string("math/") + f.name + "/libmvec").c_str(),
                               [&f](benchmark::State& state) { libmvec_side(state, f); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace
}  // namespace anygpu_math_bench

int main(int argc, char** argv) {
  using namespace anygpu_math_bench;
  for (const auto& f : kFloat) register_function(f);
  for (const auto& f : kDouble) register_function(f);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
