// Run-time compilation of a saxpy-sized CUDA-source kernel, side by side in one run
// (docs/runtime-compilation.md):
//   BM_ColdCompile/<device>  agProgramCompile on a source the cache has never seen (each
//   iteration's
//                            source differs by a comment), so every compile misses: the compiler's
//                            whole cost, plus the store of its result. One per device whose backend
//                            has a compiler (agBackendGetCompilerInfo).
//   BM_NvrtcDirect           NVRTC called directly (dlopen, no toolkit headers) on the equivalent
//                            plain CUDA source, compute_90, to PTX: what anygpu adds on CUDA.
//                            Skipped with the reason where libnvrtc.so.13 is absent.
//   BM_CacheHit/<device>     the same program compiled again through agProgramCompile: a hit of the
//                            cache on disk, in a fresh temporary directory (ANYGPU_CACHE_DIR, set
//                            before the first anygpu call and removed at exit).
// Times are wall-clock (the CPU compiler runs as child processes); the ms counter is per iteration.
//   cmake --build --preset release --target anygpu_runtime_compile_bench
//   build/release/bench/anygpu_runtime_compile_bench
//       --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "anygpu/anygpu.h"

namespace {

// ------------------------------------------------------------------------------------------------
// The cache's directory: fresh, set before anygpu reads its configuration (once per process).
// ------------------------------------------------------------------------------------------------
struct CacheDirectory {
  CacheDirectory() {
    const char* tmp = getenv("TMPDIR");
    std::string pattern =
        std::string(tmp && *tmp ? tmp : "/tmp") + "/anygpu-runtime-compile-bench-XXXXXX";
    if (!mkdtemp(&pattern[0])) {
      perror("mkdtemp");
      abort();
    }
    path = pattern;
    setenv("ANYGPU_CACHE_DIR", path.c_str(), 1);
    unsetenv("ANYGPU_CACHE");  // on, whatever the caller's environment says
  }
  ~CacheDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string path;
};
CacheDirectory cache_directory;  // a static initializer: before main and any anygpu call

// ------------------------------------------------------------------------------------------------
// The kernels
// ------------------------------------------------------------------------------------------------

// CUDA source for anygpu ("saxpy.cu": anygpu/cuda.h comes first). No extern "C": the CPU compiler
// finds CUDA-source kernels by their C++ names; agModuleGetFunction finds "saxpy" either way.
constexpr const char* kAnygpuSource = R"(
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

// The same kernel as plain CUDA source for NVRTC on its own.
constexpr const char* kNvrtcSource = R"(
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

// Every source a cold compile sees is new to the cache (and to any other process's entries: the
// process id is in it too).
std::string unique_source(const char* source) {
  static std::atomic<unsigned long> counter{0};
  return std::string(source) + "// iteration " + std::to_string(counter++) + " of process " +
         std::to_string(getpid()) + "\n";
}

// Google Benchmark 1.7 has no SkipWithMessage: a failure and a skip are both SkipWithError, told
// apart by their first word (bench.runtime_compile_quick fails on "ERROR OCCURRED: 'failed").
void fail(benchmark::State& state, const std::string& what) {
  state.SkipWithError(("failed: " + what).c_str());
}
void skip(benchmark::State& state, const std::string& why) {
  state.SkipWithError(("skipped: " + why).c_str());
}

std::string last_error(ag_result r) {
  const char* detail = nullptr;
  agGetLastErrorDetail(&detail);
  return "error " + std::to_string(static_cast<int>(r)) + ": " + (detail ? detail : "");
}

// A device that can compile at run time.
struct CompileDevice {
  ag_device device;
  std::string name;         // "cpu0": the backend's name and the device's ordinal
  std::string description;  // "AMD EPYC, clang++ 19.1.7 (...)": the device and its compiler
};

std::vector<CompileDevice> compile_devices(std::vector<std::string>& skipped) {
  std::vector<CompileDevice> out;
  int count = 0;
  if (agDeviceGetCount(&count) != AG_SUCCESS) return out;
  int backends = 0;
  agBackendGetCount(&backends);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    ag_device device;
    ag_device_properties props{};
    props.struct_size = sizeof(props);
    if (agDeviceGet(ordinal, &device) != AG_SUCCESS ||
        agDeviceGetProperties(device, &props) != AG_SUCCESS)
      continue;
    for (int b = 0; b < backends; ++b) {
      ag_backend_info info{};
      info.struct_size = sizeof(info);
      if (agBackendGetInfo(b, &info) != AG_SUCCESS || info.kind != props.backend) continue;
      ag_compiler_info compiler{};
      compiler.struct_size = sizeof(compiler);
      const std::string name = std::string(info.name) + std::to_string(ordinal);
      if (agBackendGetCompilerInfo(b, &compiler) != AG_SUCCESS || !compiler.available) {
        skipped.push_back(name + " (" + props.name +
                          "): " + (compiler.reason ? compiler.reason : "no compiler"));
        break;
      }
      out.push_back({device, name, std::string(props.name) + ", " + compiler.compiler});
      break;
    }
  }
  return out;
}

// Compiles `source` for `device` through a new program; the image's size, or 0 with `error` set.
size_t compile(ag_device device, const std::string& source, std::vector<char>* image,
               std::string& error) {
  ag_program program = nullptr;
  ag_result r = agProgramCreate(source.c_str(), "saxpy.cu", 0, nullptr, nullptr, &program);
  if (r != AG_SUCCESS) {
    error = "agProgramCreate: " + last_error(r);
    return 0;
  }
  size_t bytes = 0;
  r = agProgramCompile(program, device, 0, nullptr);
  if (r != AG_SUCCESS) {
    error = "agProgramCompile: " + last_error(r);
    size_t log_size = 0;
    if (agProgramGetLog(program, nullptr, &log_size) == AG_SUCCESS && log_size > 1) {
      std::string log(log_size, '\0');
      agProgramGetLog(program, &log[0], &log_size);
      error += "\n" + log;
    }
  } else if ((r = agProgramGetImage(program, nullptr, &bytes)) != AG_SUCCESS) {
    error = "agProgramGetImage: " + last_error(r);
  } else if (bytes == 0) {
    error = "agProgramGetImage: an empty image";
  } else if (image) {
    image->resize(bytes);
    if ((r = agProgramGetImage(program, image->data(), &bytes)) != AG_SUCCESS) {
      error = "agProgramGetImage: " + last_error(r);
      bytes = 0;
    }
  }
  agProgramDestroy(program);
  return r == AG_SUCCESS ? bytes : 0;
}

// Loads `image` on `device`, runs saxpy once and checks y; "" when right, else what went wrong.
std::string check_saxpy(ag_device device, const std::vector<char>& image) {
  constexpr int n = 1000;
  const float a = 2.5f;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(3 * i + 1);
  }
  ag_module module = nullptr;
  ag_function function = nullptr;
  void* dx = nullptr;
  void* dy = nullptr;
  std::string error;
  ag_result r;
  if ((r = agModuleLoadData(device, image.data(), image.size(), &module)) != AG_SUCCESS)
    return "agModuleLoadData: " + last_error(r);
  if ((r = agModuleGetFunction(module, "saxpy", &function)) != AG_SUCCESS)
    error = "agModuleGetFunction: " + last_error(r);
  else if ((r = agMemAlloc(device, n * sizeof(float), &dx)) != AG_SUCCESS ||
           (r = agMemAlloc(device, n * sizeof(float), &dy)) != AG_SUCCESS)
    error = "agMemAlloc: " + last_error(r);
  else if ((r = agMemcpyHtoD(device, dx, x.data(), n * sizeof(float))) != AG_SUCCESS ||
           (r = agMemcpyHtoD(device, dy, y.data(), n * sizeof(float))) != AG_SUCCESS)
    error = "agMemcpyHtoD: " + last_error(r);
  else {
    int count = n;
    float scale = a;
    void* params[] = {&count, &scale, &dx, &dy};
    if ((r = agLaunchKernel(function, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params,
                            nullptr)) != AG_SUCCESS)
      error = "agLaunchKernel: " + last_error(r);
    else if ((r = agMemcpyDtoH(device, y.data(), dy, n * sizeof(float))) != AG_SUCCESS)
      error = "agMemcpyDtoH: " + last_error(r);
    else
      for (int i = 0; i < n; ++i) {
        const float want = a * static_cast<float>(i) + static_cast<float>(3 * i + 1);
        if (std::fabs(y[i] - want) > 1e-3f * std::fabs(want)) {
          error = "saxpy: y[" + std::to_string(i) + "] is " + std::to_string(y[i]) + ", not " +
                  std::to_string(want);
          break;
        }
      }
  }
  if (dx) agMemFree(device, dx);
  if (dy) agMemFree(device, dy);
  agModuleUnload(module);
  return error;
}

// Wall-clock time from its making; the loop's own overhead is nothing beside a compile.
struct Stopwatch {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  }
};

// The counters: wall-clock milliseconds per iteration (`ms`, since `watch` was started before the
// loop) and the image's size. The label: the device and its compiler.
void report(benchmark::State& state, const Stopwatch& watch, size_t image_bytes,
            const std::string& label) {
  if (state.iterations())
    state.counters["ms"] = watch.ms() / static_cast<double>(state.iterations());
  state.counters["image_bytes"] = static_cast<double>(image_bytes);
  state.SetLabel(label);
}

void cold_compile(benchmark::State& state, CompileDevice device) {
  std::string error;
  size_t bytes = 0;
  const Stopwatch watch;
  for (auto _ : state) {
    bytes = compile(device.device, unique_source(kAnygpuSource), nullptr, error);
    if (!bytes) {
      fail(state, error);
      return;
    }
  }
  report(state, watch, bytes, device.description);
}

void cache_hit(benchmark::State& state, CompileDevice device) {
  // One program, compiled once (a miss that stores it), then again and again (hits).
  const std::string source = unique_source(kAnygpuSource);
  ag_program program = nullptr;
  ag_result r = agProgramCreate(source.c_str(), "saxpy.cu", 0, nullptr, nullptr, &program);
  if (r != AG_SUCCESS) {
    fail(state, "agProgramCreate: " + last_error(r));
    return;
  }
  ag_compile_cache_info before{}, after{};
  before.struct_size = after.struct_size = sizeof(before);
  agCompileCacheGetInfo(&before);
  r = agProgramCompile(program, device.device, 0, nullptr);
  agCompileCacheGetInfo(&after);
  size_t first = 0;
  if (r != AG_SUCCESS || agProgramGetImage(program, nullptr, &first) != AG_SUCCESS || !first) {
    fail(state, "the first compile: " + last_error(r));
    agProgramDestroy(program);
    return;
  }
  if (!after.enabled || after.entries != before.entries + 1) {
    fail(state, "the cache did not store the compile (" +
                    std::string(after.enabled ? "" : after.reason) + ")");
    agProgramDestroy(program);
    return;
  }
  size_t bytes = 0;
  const Stopwatch watch;
  for (auto _ : state) {
    r = agProgramCompile(program, device.device, 0, nullptr);
    if (r != AG_SUCCESS || agProgramGetImage(program, nullptr, &bytes) != AG_SUCCESS ||
        bytes != first) {
      fail(state, "agProgramCompile (a hit): " + last_error(r));
      break;
    }
  }
  agProgramDestroy(program);
  ag_compile_cache_info end{};
  end.struct_size = sizeof(end);
  agCompileCacheGetInfo(&end);
  if (end.entries != after.entries && !state.error_occurred())
    fail(state, "a hit stored a new entry: the compiles missed");
  report(state, watch, bytes, device.description);
}

// ------------------------------------------------------------------------------------------------
// NVRTC on its own: our declarations of the few functions used (nvrtc.h's signatures).
// ------------------------------------------------------------------------------------------------
using nvrtcProgram = struct _nvrtcProgram*;
using nvrtcResult = int;  // NVRTC_SUCCESS is 0

struct Nvrtc {
  nvrtcResult (*Version)(int*, int*);
  const char* (*GetErrorString)(nvrtcResult);
  nvrtcResult (*CreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                               const char* const*);
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char* const*);
  nvrtcResult (*GetPTXSize)(nvrtcProgram, size_t*);
  nvrtcResult (*GetPTX)(nvrtcProgram, char*);
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t*);
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char*);
  nvrtcResult (*DestroyProgram)(nvrtcProgram*);
  std::string version;
  std::string reason;  // why not loaded; "" when loaded
};

const Nvrtc& nvrtc() {
  static const Nvrtc loaded = [] {
    Nvrtc n{};
    const char* path = "/usr/local/cuda/lib64/libnvrtc.so.13";
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char* why = dlerror();
      n.reason = std::string("no NVRTC: ") + (why ? why : path);
      return n;
    }
    bool missing = false;
    auto bind = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(library, name));
      if (!fn) {
        missing = true;
        n.reason = std::string(path) + " has no " + name;
      }
    };
    bind(n.Version, "nvrtcVersion");
    bind(n.GetErrorString, "nvrtcGetErrorString");
    bind(n.CreateProgram, "nvrtcCreateProgram");
    bind(n.CompileProgram, "nvrtcCompileProgram");
    bind(n.GetPTXSize, "nvrtcGetPTXSize");
    bind(n.GetPTX, "nvrtcGetPTX");
    bind(n.GetProgramLogSize, "nvrtcGetProgramLogSize");
    bind(n.GetProgramLog, "nvrtcGetProgramLog");
    bind(n.DestroyProgram, "nvrtcDestroyProgram");
    if (missing) return n;
    int major = 0, minor = 0;
    n.Version(&major, &minor);
    n.version = "NVRTC " + std::to_string(major) + "." + std::to_string(minor) + " (" + path + ")";
    return n;
  }();
  return loaded;
}

// PTX of `source`, or "" with `error` set.
std::string nvrtc_compile(const Nvrtc& n, const std::string& source, std::string& error) {
  static const char* const options[] = {"--gpu-architecture=compute_90", "-std=c++17"};
  nvrtcProgram program = nullptr;
  nvrtcResult r = n.CreateProgram(&program, source.c_str(), "saxpy.cu", 0, nullptr, nullptr);
  if (r != 0) {
    error = std::string("nvrtcCreateProgram: ") + n.GetErrorString(r);
    return {};
  }
  std::string ptx;
  size_t size = 0;
  if ((r = n.CompileProgram(program, 2, options)) != 0) {
    error = std::string("nvrtcCompileProgram: ") + n.GetErrorString(r);
    if (n.GetProgramLogSize(program, &size) == 0 && size > 1) {
      std::string log(size, '\0');
      n.GetProgramLog(program, &log[0]);
      error += "\n" + log;
    }
  } else if ((r = n.GetPTXSize(program, &size)) != 0 || size <= 1) {
    error = std::string("nvrtcGetPTXSize: ") + (r ? n.GetErrorString(r) : "an empty PTX");
  } else {
    ptx.resize(size);
    if ((r = n.GetPTX(program, &ptx[0])) != 0) {
      error = std::string("nvrtcGetPTX: ") + n.GetErrorString(r);
      ptx.clear();
    } else if (ptx.find(".entry saxpy") == std::string::npos) {
      error = "the PTX has no .entry saxpy";
      ptx.clear();
    }
  }
  n.DestroyProgram(&program);
  return ptx;
}

void nvrtc_direct(benchmark::State& state) {
  const Nvrtc& n = nvrtc();
  if (!n.reason.empty()) {
    skip(state, n.reason);
    return;
  }
  std::string error;
  size_t bytes = 0;
  const Stopwatch watch;
  for (auto _ : state) {
    bytes = nvrtc_compile(n, unique_source(kNvrtcSource), error).size();
    if (!bytes) {
      fail(state, error);
      return;
    }
  }
  report(state, watch, bytes, n.version);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  ag_compile_cache_info cache{};
  cache.struct_size = sizeof(cache);
  if (agCompileCacheGetInfo(&cache) != AG_SUCCESS || !cache.enabled) {
    fprintf(stderr, "the compile cache is off (%s): no cache hit to measure\n",
            cache.reason ? cache.reason : "");
    return 1;
  }
  fprintf(stderr, "compile cache: %s\n", cache.directory);

  // Each device's output, checked before anything is timed: a non-empty image, and on the CPU
  // (where it runs here) saxpy's result.
  std::vector<std::string> skipped;
  std::vector<CompileDevice> devices = compile_devices(skipped);
  for (const std::string& s : skipped) fprintf(stderr, "no run-time compiler on %s\n", s.c_str());
  for (const CompileDevice& d : devices) {
    std::string error;
    std::vector<char> image;
    if (!compile(d.device, unique_source(kAnygpuSource), &image, error)) {
      fprintf(stderr, "%s: %s\n", d.name.c_str(), error.c_str());
      return 1;
    }
    ag_device_properties props{};
    props.struct_size = sizeof(props);
    agDeviceGetProperties(d.device, &props);
    if (props.backend == AG_BACKEND_CPU) {
      const std::string wrong = check_saxpy(d.device, image);
      if (!wrong.empty()) {
        fprintf(stderr, "%s: %s\n", d.name.c_str(), wrong.c_str());
        return 1;
      }
    }
    fprintf(stderr, "%s: %s, %zu-byte image%s\n", d.name.c_str(), d.description.c_str(),
            image.size(), props.backend == AG_BACKEND_CPU ? ", saxpy checked" : "");
  }
  if (nvrtc().reason.empty()) {
    std::string error;
    if (nvrtc_compile(nvrtc(), kNvrtcSource, error).empty()) {
      fprintf(stderr, "NVRTC: %s\n", error.c_str());
      return 1;
    }
  }

  for (const CompileDevice& d : devices)
    benchmark::RegisterBenchmark(("BM_ColdCompile/" + d.name).c_str(), cold_compile, d)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  benchmark::RegisterBenchmark("BM_NvrtcDirect", nvrtc_direct)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  for (const CompileDevice& d : devices)
    benchmark::RegisterBenchmark(("BM_CacheHit/" + d.name).c_str(), cache_hit, d)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
