#include "cuda_support.h"

#include <dlfcn.h>

#include "anygpu_image_bench_kernels.h"
#include "anygpu_image_saxpy.h"

namespace anygpu_cuda_bench {
namespace {

std::string cu_failure(const cuda::CudaFunctions& cu, cuda::CUresult result, const char* what) {
  const char* name = nullptr;
  if (cu.cuGetErrorName) cu.cuGetErrorName(result, &name);
  return std::string(what) + " failed: " + (name ? name : "CUresult") + " (" +
         std::to_string(result) + ")";
}

// Each entry point as anygpu finds it (cuda_symbol_lookup, loaders/cuda/cuda_loader.h). Empty when
// all required ones resolved, else their names.
std::string resolve(void* library, cuda::CudaFunctions* cu) {
  return anygpu::resolve_functions(*cu, anygpu::cuda::cuda_symbol_lookup(library));
}

// The anygpu side, then the driver it loaded, resolved.
std::string set_up_anygpu(CudaRuntime& r) {
  std::string library;
  if (std::string error = anygpu_bench::set_up_anygpu(AG_BACKEND_CUDA, "CUDA", &r, &library);
      !error.empty())
    return error;
  void* driver =
      anygpu_bench::loaded_library(library, "ANYGPU_CUDA_LIBRARY", {"libcuda.so.1", "libcuda.so"});
  if (!driver) return "the CUDA driver anygpu loaded (" + library + ") is not open in the process";
  const std::string missing = resolve(driver, &r.cu);
  if (!missing.empty()) return library + " lacks " + missing;
  return "";
}

// The direct side: the same device's primary context, and the same entries of the same images.
std::string set_up_direct(CudaRuntime& r) {
  const cuda::CudaFunctions& cu = r.cu;
  // anygpu lists CUDA devices in the driver's order, so its first is the driver's ordinal 0.
  if (cuda::CUresult e = cu.cuDeviceGet(&r.cu_device, 0)) return cu_failure(cu, e, "cuDeviceGet");
  if (cuda::CUresult e = cu.cuDevicePrimaryCtxRetain(&r.context, r.cu_device))
    return cu_failure(cu, e, "cuDevicePrimaryCtxRetain");
  if (cuda::CUresult e = cu.cuCtxSetCurrent(r.context)) return cu_failure(cu, e, "cuCtxSetCurrent");
  std::string error;
  if (!pick_nvidia_entry(anygpu_image_bench_kernels, anygpu_image_bench_kernels_size,
                         r.properties.architecture, &r.kernels_entry, &error) ||
      !pick_nvidia_entry(anygpu_image_saxpy, anygpu_image_saxpy_size, r.properties.architecture,
                         &r.saxpy_entry, &error))
    return error;
  if (cuda::CUresult e =
          cu.cuModuleLoadDataEx(&r.cu_kernels, r.kernels_entry.data.data(), 0, nullptr, nullptr))
    return cu_failure(cu, e, "cuModuleLoadDataEx(bench_kernels)");
  return "";
}

CudaRuntime initialise() {
  CudaRuntime r;
  r.error = set_up_anygpu(r);
  if (r.error.empty()) r.error = set_up_direct(r);
  return r;
}

cuda::CUdeviceptr address(const void* p) {
  return reinterpret_cast<cuda::CUdeviceptr>(p);
}

// The shared benchmarks' calls on the driver, directly.
class DirectApi final : public anygpu_bench::GpuApi {
 public:
  explicit DirectApi(const CudaRuntime& r) : r_(r), cu_(r.cu) {}

  bool get_function(benchmark::State& state, const char* name, void** function) const override {
    cuda::CUfunction f = nullptr;
    if (!cu_ok(state, cu_.cuModuleGetFunction(&f, r_.cu_kernels, name), "cuModuleGetFunction"))
      return false;
    *function = f;
    return true;
  }
  bool stream_create(benchmark::State& state, void** stream) const override {
    cuda::CUstream s = nullptr;
    if (!cu_ok(state, cu_.cuStreamCreate(&s, cuda::CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
      return false;
    *stream = s;
    return true;
  }
  bool stream_synchronize(benchmark::State& state, void* stream) const override {
    return cu_ok(state, cu_.cuStreamSynchronize(static_cast<cuda::CUstream>(stream)),
                 "cuStreamSynchronize");
  }
  void stream_destroy(void* stream) const override {
    cu_.cuStreamDestroy_v2(static_cast<cuda::CUstream>(stream));
  }
  bool launch_single(benchmark::State& state, void* function, void* stream,
                     void** params) const override {
    return cu_ok(state,
                 cu_.cuLaunchKernel(static_cast<cuda::CUfunction>(function), 1, 1, 1, 1, 1, 1, 0,
                                    static_cast<cuda::CUstream>(stream), params, nullptr),
                 "cuLaunchKernel");
  }
  bool launch_host_func(benchmark::State& state, void* stream, void (*fn)(void*),
                        void* data) const override {
    return cu_ok(state, cu_.cuLaunchHostFunc(static_cast<cuda::CUstream>(stream), fn, data),
                 "cuLaunchHostFunc");
  }
  // The driver's default pool (CUDA 11.2).
  bool alloc_async(benchmark::State& state, void* stream, size_t bytes,
                   void** device) const override {
    if (!cu_.cuMemAllocAsync || !cu_.cuMemFreeAsync) {
      state.SkipWithError("the CUDA driver has no cuMemAllocAsync (CUDA 11.2)");
      return false;
    }
    cuda::CUdeviceptr d = 0;
    if (!cu_ok(state, cu_.cuMemAllocAsync(&d, bytes, static_cast<cuda::CUstream>(stream)),
               "cuMemAllocAsync"))
      return false;
    *device = reinterpret_cast<void*>(d);
    return true;
  }
  bool free_async(benchmark::State& state, void* stream, void* device) const override {
    return cu_ok(state, cu_.cuMemFreeAsync(address(device), static_cast<cuda::CUstream>(stream)),
                 "cuMemFreeAsync");
  }
  bool alloc_host(benchmark::State& state, size_t bytes, void** host) const override {
    return cu_ok(state, cu_.cuMemAllocHost_v2(host, bytes), "cuMemAllocHost_v2");
  }
  void free_host(void* host) const override { cu_.cuMemFreeHost(host); }
  bool alloc(benchmark::State& state, size_t bytes, void** device) const override {
    cuda::CUdeviceptr d = 0;
    if (!cu_ok(state, cu_.cuMemAlloc_v2(&d, bytes), "cuMemAlloc_v2")) return false;
    *device = reinterpret_cast<void*>(d);
    return true;
  }
  void free(void* device) const override { cu_.cuMemFree_v2(address(device)); }
  bool copy_htod(benchmark::State& state, void* device, const void* host,
                 size_t bytes) const override {
    return cu_ok(state, cu_.cuMemcpyHtoD_v2(address(device), host, bytes), "cuMemcpyHtoD_v2") &&
           cu_ok(state, cu_.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
  }
  bool copy_dtoh(benchmark::State& state, void* host, const void* device,
                 size_t bytes) const override {
    return cu_ok(state, cu_.cuMemcpyDtoH_v2(host, address(device), bytes), "cuMemcpyDtoH_v2");
  }
  bool copy_dtod(benchmark::State& state, void* to, const void* from, size_t bytes) const override {
    return cu_ok(state, cu_.cuMemcpyDtoD_v2(address(to), address(from), bytes),
                 "cuMemcpyDtoD_v2") &&
           cu_ok(state, cu_.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
  }
  // cuMemcpy2D is cuMemcpy3D of depth 1; the driver's 3-D form takes both.
  bool copy_2d_dtod(benchmark::State& state, void* to, size_t to_pitch, const void* from,
                    size_t from_pitch, size_t width, size_t height) const override {
    cuda::CUDA_MEMCPY3D c{};
    c.srcMemoryType = cuda::CU_MEMORYTYPE_DEVICE;
    c.srcDevice = address(from);
    c.srcPitch = from_pitch;
    c.srcHeight = height;
    c.dstMemoryType = cuda::CU_MEMORYTYPE_DEVICE;
    c.dstDevice = address(to);
    c.dstPitch = to_pitch;
    c.dstHeight = height;
    c.WidthInBytes = width;
    c.Height = height;
    c.Depth = 1;
    return cu_ok(state, cu_.cuMemcpy3D_v2(&c), "cuMemcpy3D_v2") &&
           cu_ok(state, cu_.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
  }

 private:
  const CudaRuntime& r_;
  const cuda::CudaFunctions& cu_;
};

class Cuda final : public anygpu_bench::Vendor {
 public:
  const char* prefix() const override { return "cuda"; }
  const anygpu_bench::GpuApi* ready(benchmark::State& state,
                                    anygpu_bench::Side side) const override {
    if (!anygpu_cuda_bench::ready(state)) return nullptr;
    return anygpu_bench::side_api<DirectApi>(side, cuda_runtime());
  }
};

const bool registered = anygpu_bench::register_shared_benchmarks<Cuda>();

}  // namespace

const CudaRuntime& cuda_runtime() {
  static const CudaRuntime instance = initialise();
  return instance;
}

bool ready(benchmark::State& state) {
  const CudaRuntime& r = cuda_runtime();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return false;
  }
  return cu_ok(state, r.cu.cuCtxSetCurrent(r.context), "cuCtxSetCurrent");
}

bool cu_ok(benchmark::State& state, cuda::CUresult result, const char* what) {
  if (result == cuda::CUDA_SUCCESS) return true;
  state.SkipWithError(cu_failure(cuda_runtime().cu, result, what).c_str());
  return false;
}

}  // namespace anygpu_cuda_bench
