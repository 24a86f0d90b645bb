#include "hip_support.h"

#include <dlfcn.h>

#include <cstring>
#include <memory>

#include "anygpu_image_bench_kernels.h"

namespace anygpu_hip_bench {
namespace {

std::string hip_failure(const hip::HipFunctions& fn, hip::hipError_t result, const char* what) {
  const char* name = fn.hipGetErrorName ? fn.hipGetErrorName(result) : nullptr;
  return std::string(what) + " failed: " + (name ? name : "hipError_t") + " (" +
         std::to_string(result) + ")";
}

// Each entry point as anygpu finds it (hip_symbol_lookup, loaders/hip/hip_loader.h). Empty when
// all required ones resolved, else their names.
std::string resolve(void* library, hip::HipFunctions* fn) {
  return anygpu::resolve_functions(*fn, anygpu::hip::hip_symbol_lookup(library));
}

// The anygpu side, then the runtime it loaded, resolved.
std::string set_up_anygpu(HipRuntime& r) {
  std::string library;
  if (std::string error = anygpu_bench::set_up_anygpu(AG_BACKEND_HIP, "HIP", &r, &library);
      !error.empty())
    return error;
  void* runtime = anygpu_bench::loaded_library(
      library, "ANYGPU_HIP_LIBRARY", {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"});
  if (!runtime) return "the HIP runtime anygpu loaded (" + library + ") is not open in the process";
  const std::string missing = resolve(runtime, &r.fn);
  if (!missing.empty()) return library + " lacks " + missing;
  return "";
}

// The direct side: the same device (anygpu lists HIP devices in the runtime's order, so its first
// is the runtime's ordinal 0), and the entry anygpu picks for it from the same image.
std::string set_up_direct(HipRuntime& r) {
  const hip::HipFunctions& fn = r.fn;
  r.hip_device = 0;
  if (hip::hipError_t e = fn.hipSetDevice(r.hip_device)) return hip_failure(fn, e, "hipSetDevice");
  std::string error;
  if (!pick_amd_entry(anygpu_image_bench_kernels, anygpu_image_bench_kernels_size,
                      r.properties.architecture, &r.kernels_entry, &error))
    return error;
  if (hip::hipError_t e = fn.hipModuleLoadData(&r.hip_kernels, r.kernels_entry.data.data()))
    return hip_failure(fn, e, "hipModuleLoadData(bench_kernels)");
  return "";
}

HipRuntime initialise() {
  HipRuntime r;
  r.error = set_up_anygpu(r);
  if (r.error.empty()) r.error = set_up_direct(r);
  return r;
}

// Skip the benchmark with "<what>: <reason>" and return false unless the call succeeded.
bool hip_ok(benchmark::State& state, hip::hipError_t result, const char* what) {
  if (result == hip::hipSuccess) return true;
  state.SkipWithError(hip_failure(hip_runtime().fn, result, what).c_str());
  return false;
}

// The shared benchmarks' calls on the runtime, directly.
class DirectApi final : public anygpu_bench::GpuApi {
 public:
  explicit DirectApi(const HipRuntime& r) : r_(r), fn_(r.fn) {}

  bool get_function(benchmark::State& state, const char* name, void** function) const override {
    hip::hipFunction_t f = nullptr;
    if (!hip_ok(state, fn_.hipModuleGetFunction(&f, r_.hip_kernels, name), "hipModuleGetFunction"))
      return false;
    *function = f;
    return true;
  }
  bool stream_create(benchmark::State& state, void** stream) const override {
    hip::hipStream_t s = nullptr;
    if (!hip_ok(state, fn_.hipStreamCreateWithFlags(&s, hip::hipStreamNonBlocking),
                "hipStreamCreateWithFlags"))
      return false;
    *stream = s;
    return true;
  }
  bool stream_synchronize(benchmark::State& state, void* stream) const override {
    return hip_ok(state, fn_.hipStreamSynchronize(static_cast<hip::hipStream_t>(stream)),
                  "hipStreamSynchronize");
  }
  void stream_destroy(void* stream) const override {
    fn_.hipStreamDestroy(static_cast<hip::hipStream_t>(stream));
  }
  bool launch_single(benchmark::State& state, void* function, void* stream,
                     void** params) const override {
    return hip_ok(
        state,
        fn_.hipModuleLaunchKernel(static_cast<hip::hipFunction_t>(function), 1, 1, 1, 1, 1, 1, 0,
                                  static_cast<hip::hipStream_t>(stream), params, nullptr),
        "hipModuleLaunchKernel");
  }
  // A record per call carries the function to the callback's signature, as anygpu's HIP backend
  // does, so both sides pay the same.
  bool launch_host_func(benchmark::State& state, void* stream, void (*fn)(void*),
                        void* data) const override {
    struct Call {
      void (*fn)(void*);
      void* data;
      static void run(hip::hipStream_t, hip::hipError_t, void* call) {
        std::unique_ptr<Call> owned(static_cast<Call*>(call));
        owned->fn(owned->data);
      }
    };
    auto* call = new Call{fn, data};  // Call::run frees it once queued
    if (!hip_ok(
            state,
            fn_.hipStreamAddCallback(static_cast<hip::hipStream_t>(stream), &Call::run, call, 0),
            "hipStreamAddCallback")) {
      delete call;
      return false;
    }
    return true;
  }
  // The runtime's default pool (HIP 5.1).
  bool alloc_async(benchmark::State& state, void* stream, size_t bytes,
                   void** device) const override {
    if (!fn_.hipMallocAsync || !fn_.hipFreeAsync) {
      state.SkipWithError("the HIP runtime has no hipMallocAsync (HIP 5.1)");
      return false;
    }
    return hip_ok(state, fn_.hipMallocAsync(device, bytes, static_cast<hip::hipStream_t>(stream)),
                  "hipMallocAsync");
  }
  bool free_async(benchmark::State& state, void* stream, void* device) const override {
    return hip_ok(state, fn_.hipFreeAsync(device, static_cast<hip::hipStream_t>(stream)),
                  "hipFreeAsync");
  }
  bool alloc_host(benchmark::State& state, size_t bytes, void** host) const override {
    return hip_ok(state, fn_.hipHostMalloc(host, bytes, hip::hipHostMallocDefault),
                  "hipHostMalloc");
  }
  void free_host(void* host) const override { fn_.hipHostFree(host); }
  bool alloc(benchmark::State& state, size_t bytes, void** device) const override {
    return hip_ok(state, fn_.hipMalloc(device, bytes), "hipMalloc");
  }
  void free(void* device) const override { fn_.hipFree(device); }
  bool copy_htod(benchmark::State& state, void* device, const void* host,
                 size_t bytes) const override {
    return hip_ok(state, fn_.hipMemcpyHtoD(device, host, bytes), "hipMemcpyHtoD") &&
           hip_ok(state, fn_.hipStreamSynchronize(nullptr), "hipStreamSynchronize");
  }
  bool copy_dtoh(benchmark::State& state, void* host, const void* device,
                 size_t bytes) const override {
    return hip_ok(state, fn_.hipMemcpyDtoH(host, const_cast<void*>(device), bytes),
                  "hipMemcpyDtoH");
  }
  bool copy_dtod(benchmark::State& state, void* to, const void* from, size_t bytes) const override {
    return hip_ok(state, fn_.hipMemcpyDtoD(to, const_cast<void*>(from), bytes), "hipMemcpyDtoD") &&
           hip_ok(state, fn_.hipStreamSynchronize(nullptr), "hipStreamSynchronize");
  }
  bool copy_2d_dtod(benchmark::State& state, void* to, size_t to_pitch, const void* from,
                    size_t from_pitch, size_t width, size_t height) const override {
    return hip_ok(state,
                  fn_.hipMemcpy2D(to, to_pitch, from, from_pitch, width, height,
                                  hip::hipMemcpyDeviceToDevice),
                  "hipMemcpy2D") &&
           hip_ok(state, fn_.hipStreamSynchronize(nullptr), "hipStreamSynchronize");
  }

 private:
  const HipRuntime& r_;
  const hip::HipFunctions& fn_;
};

class Hip final : public anygpu_bench::Vendor {
 public:
  const char* prefix() const override { return "hip"; }
  // Skips with the setup failure, if any; otherwise makes the device current on the calling
  // thread (the direct calls need it).
  const anygpu_bench::GpuApi* ready(benchmark::State& state,
                                    anygpu_bench::Side side) const override {
    const HipRuntime& r = hip_runtime();
    if (!r.error.empty()) {
      state.SkipWithError(r.error.c_str());
      return nullptr;
    }
    if (!hip_ok(state, r.fn.hipSetDevice(r.hip_device), "hipSetDevice")) return nullptr;
    return anygpu_bench::side_api<DirectApi>(side, r);
  }
};

const bool registered = anygpu_bench::register_shared_benchmarks<Hip>();

}  // namespace

const HipRuntime& hip_runtime() {
  static const HipRuntime instance = initialise();
  return instance;
}

}  // namespace anygpu_hip_bench
