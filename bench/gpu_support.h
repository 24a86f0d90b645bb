// What anygpu_cuda_bench and anygpu_hip_bench share: the problem sizes, anygpu's side of every
// comparison (the first device of one backend, bench_kernels loaded on it), and GpuApi, the calls a
// side-by-side benchmark makes, vendor-neutral, so that one benchmark body (gpu_launch_latency.cpp,
// gpu_copy_bandwidth.cpp) runs on anygpu and on each vendor's API called directly.
#pragma once

#include <anygpu/anygpu.h>
#include <benchmark/benchmark.h>

#include <cstddef>
#include <initializer_list>
#include <string>

namespace anygpu_bench {

class RatioReporter;  // ratio_reporter.h

// Problem sizes, set from the command line (cuda_bench_main.cpp, hip_bench_main.cpp) so that a
// quick run is possible.
struct Sizes {
  int launches = 10000;                    // empty-kernel launches per timed iteration
  size_t copy_bytes = size_t{256} << 20;   // bytes per copy
  size_t saxpy_bytes = size_t{256} << 20;  // bytes per saxpy vector (anygpu_cuda_bench)
};
Sizes& sizes();

// "<what>: <error name> <last error detail>".
std::string ag_failure(ag_result result, const char* what);

// Skip the benchmark with "<what>: <reason>" and return false unless the call succeeded.
bool ag_ok(benchmark::State& state, ag_result result, const char* what);

// anygpu's side: its first device of one backend, and bench_kernels on it.
struct AnygpuDevice {
  ag_device device = nullptr;
  ag_device_properties properties{};
  ag_module kernels = nullptr;  // bench_kernels through anygpu
};

// Initialises anygpu and fills `out` for the first device of backend `kind` ("CUDA" is its
// `vendor` in messages), and `library` with the library anygpu loaded for it. Empty when it worked,
// else why not: "no <vendor> device: <reason>" when there is none.
std::string set_up_anygpu(ag_backend_kind kind, const char* vendor, AnygpuDevice* out,
                          std::string* library);

// The library anygpu has open, found with RTLD_NOLOAD (never opened anew): `library` first, then
// the path in the environment variable `override_variable`, then `names`; null when none is open.
void* loaded_library(const std::string& library, const char* override_variable,
                     std::initializer_list<const char*> names);

// The calls a benchmark makes on one side. Each skips the benchmark with "<call>: <reason>" and
// returns false when it fails. Handles are opaque pointers; device memory is a device address.
class GpuApi {
 public:
  virtual ~GpuApi() = default;

  // `name` in bench_kernels.
  virtual bool get_function(benchmark::State& state, const char* name, void** function) const = 0;
  // A non-blocking stream.
  virtual bool stream_create(benchmark::State& state, void** stream) const = 0;
  virtual bool stream_synchronize(benchmark::State& state, void* stream) const = 0;
  virtual void stream_destroy(void* stream) const = 0;
  // `function` on a grid of 1 block of 1 thread, no shared memory, queued on `stream`.
  virtual bool launch_single(benchmark::State& state, void* function, void* stream,
                             void** params) const = 0;
  // `fn(data)` queued on `stream` as a host function. Only where the vendor has such a call
  // (register_host_function's `direct`); otherwise this fails the benchmark.
  virtual bool launch_host_func(benchmark::State& state, void* stream, void (*fn)(void*),
                                void* data) const {
    state.SkipWithError("the vendor API has no host function on a stream");
    return false;
  }

  // Stream-ordered device memory on `stream`, from the vendor's default pool on the direct side.
  // Only where the vendor has a stream-ordered allocator (register_alloc_async's `direct`).
  virtual bool alloc_async(benchmark::State& state, void* stream, size_t bytes,
                           void** device) const {
    state.SkipWithError("the vendor API has no stream-ordered allocator");
    return false;
  }
  virtual bool free_async(benchmark::State& state, void* stream, void* device) const {
    state.SkipWithError("the vendor API has no stream-ordered allocator");
    return false;
  }

  // Pinned host memory, and device memory.
  virtual bool alloc_host(benchmark::State& state, size_t bytes, void** host) const = 0;
  virtual void free_host(void* host) const = 0;
  virtual bool alloc(benchmark::State& state, size_t bytes, void** device) const = 0;
  virtual void free(void* device) const = 0;
  // Copies that are done when they return (waiting where the API may return before).
  virtual bool copy_htod(benchmark::State& state, void* device, const void* host,
                         size_t bytes) const = 0;
  virtual bool copy_dtoh(benchmark::State& state, void* host, const void* device,
                         size_t bytes) const = 0;
  virtual bool copy_dtod(benchmark::State& state, void* to, const void* from,
                         size_t bytes) const = 0;
  // A pitched device-to-device copy of `height` rows of `width` bytes, done when it returns.
  virtual bool copy_2d_dtod(benchmark::State& state, void* to, size_t to_pitch, const void* from,
                            size_t from_pitch, size_t width, size_t height) const = 0;
};

// GpuApi through anygpu, on `device`.
class AnygpuApi final : public GpuApi {
 public:
  explicit AnygpuApi(const AnygpuDevice& device) : d_(device) {}

  bool get_function(benchmark::State& state, const char* name, void** function) const override;
  bool stream_create(benchmark::State& state, void** stream) const override;
  bool stream_synchronize(benchmark::State& state, void* stream) const override;
  void stream_destroy(void* stream) const override;
  bool launch_single(benchmark::State& state, void* function, void* stream,
                     void** params) const override;
  bool launch_host_func(benchmark::State& state, void* stream, void (*fn)(void*),
                        void* data) const override;
  bool alloc_async(benchmark::State& state, void* stream, size_t bytes,
                   void** device) const override;
  bool free_async(benchmark::State& state, void* stream, void* device) const override;
  bool alloc_host(benchmark::State& state, size_t bytes, void** host) const override;
  void free_host(void* host) const override;
  bool alloc(benchmark::State& state, size_t bytes, void** device) const override;
  void free(void* device) const override;
  bool copy_htod(benchmark::State& state, void* device, const void* host,
                 size_t bytes) const override;
  bool copy_dtoh(benchmark::State& state, void* host, const void* device,
                 size_t bytes) const override;
  bool copy_dtod(benchmark::State& state, void* to, const void* from, size_t bytes) const override;
  bool copy_2d_dtod(benchmark::State& state, void* to, size_t to_pitch, const void* from,
                    size_t from_pitch, size_t width, size_t height) const override;

 private:
  const AnygpuDevice& d_;
};

enum class Side { anygpu, direct };

// One vendor's pair of sides, which the shared benchmark bodies are registered for.
class Vendor {
 public:
  virtual ~Vendor() = default;
  // The benchmarks' prefix: "cuda" names cuda_launch/anygpu, cuda_copy_htod/direct, ...
  virtual const char* prefix() const = 0;
  // Skips the benchmark with the setup failure, if any, and returns null; otherwise makes the
  // device current on the calling thread (the direct calls need it) and returns `side`'s calls.
  virtual const GpuApi* ready(benchmark::State& state, Side side) const = 0;
};

// <prefix>_launch/{anygpu,direct} (gpu_launch_latency.cpp) and
// <prefix>_copy_{htod,dtoh,dtod,2d}/{anygpu,direct} (gpu_copy_bandwidth.cpp).
void register_launch_latency(const Vendor& vendor);
void register_copy_bandwidth(const Vendor& vendor);
// <prefix>_host_func/anygpu, and /direct where the vendor has a host-function call
// (gpu_host_function.cpp).
void register_host_function(const Vendor& vendor, bool direct);
// Whether register_host_function registered a direct side (so that a ratio can be printed).
bool host_func_has_direct();
// <prefix>_alloc_async/anygpu, and /direct where the vendor has a stream-ordered allocator
// (gpu_alloc_async.cpp).
void register_alloc_async(const Vendor& vendor, bool direct);
bool alloc_async_has_direct();
// All of them, for a vendor made once; returns true (a static to initialise at start-up).
template <typename VendorType>
bool register_shared_benchmarks(bool direct_host_functions = true, bool direct_alloc_async = true) {
  static const VendorType vendor;
  register_launch_latency(vendor);
  register_copy_bandwidth(vendor);
  register_host_function(vendor, direct_host_functions);
  register_alloc_async(vendor, direct_alloc_async);
  return true;
}

// What Vendor::ready returns once the setup checked out: `side`'s calls over the vendor's set-up
// runtime `r` (anygpu's device and the direct side's state), each made once.
template <typename DirectApiType, typename Runtime>
const GpuApi* side_api(Side side, const Runtime& r) {
  static const AnygpuApi anygpu(r);
  static const DirectApiType direct(r);
  if (side == Side::anygpu) return &anygpu;
  return &direct;
}

// The main of anygpu_<prefix>_bench: Google Benchmark's flags and --launches=N, --copy_mib=N (and
// --saxpy_mib=N when `saxpy`) into sizes(); runs the benchmarks, then prints the ratios of the
// shared ones and `more_ratios`' (when not null). Returns 2 on a bad argument, 1 when a benchmark
// failed for another reason than "no <label> device", else 0.
int gpu_bench_main(int argc, char** argv, const char* prefix, const char* label, bool saxpy,
                   void (*more_ratios)(const RatioReporter& reporter));

}  // namespace anygpu_bench
