#include "cuda_support.h"

#include <dlfcn.h>

#include <cstdlib>

#include "anygpu_image_bench_kernels.h"
#include "anygpu_image_saxpy.h"

namespace anygpu_cuda_bench {
namespace {

std::string ag_failure(ag_result result, const char* what) {
  const char* name = "";
  const char* detail = "";
  agGetErrorName(result, &name);
  agGetLastErrorDetail(&detail);
  return std::string(what) + ": " + name + " " + detail;
}

std::string cu_failure(const cuda::CudaFunctions& cu, cuda::CUresult result, const char* what) {
  const char* name = nullptr;
  if (cu.cuGetErrorName) cu.cuGetErrorName(result, &name);
  return std::string(what) + " failed: " + (name ? name : "CUresult") + " (" +
         std::to_string(result) + ")";
}

// The reason anygpu gives for its CUDA backend, and the library it loaded; false when unavailable.
bool cuda_backend(std::string* library, std::string* reason) {
  int count = 0;
  agBackendGetCount(&count);
  for (int i = 0; i < count; ++i) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    if (agBackendGetInfo(i, &info) != AG_SUCCESS || info.kind != AG_BACKEND_CUDA) continue;
    *library = info.library ? info.library : "";
    *reason = info.available ? "" : info.reason;
    return info.available != 0;
  }
  *reason = "this anygpu has no CUDA backend";
  return false;
}

// The driver anygpu has open: its path first, then what anygpu would have tried.
void* loaded_driver(const std::string& library) {
  const char* override_path = std::getenv("ANYGPU_CUDA_LIBRARY");
  for (const char* name : {library.c_str(), override_path, "libcuda.so.1", "libcuda.so"})
    if (name && *name)
      if (void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) return handle;
  return nullptr;
}

// Each entry point as anygpu finds it (loaders/cuda/cuda_loader.cpp): cuGetProcAddress_v2 at the
// same API version where the driver has it, else the versioned symbol. Empty when all resolved.
std::string resolve(void* library, cuda::CudaFunctions* cu) {
  auto get_proc =
      reinterpret_cast<cuda::PFN_cuGetProcAddress_v2>(dlsym(library, "cuGetProcAddress_v2"));
  auto find = [&](const char* symbol, const char* name) -> void* {
    if (!get_proc) return dlsym(library, symbol);
    void* function = nullptr;
    cuda::CUdriverProcAddressQueryResult status = cuda::CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (get_proc(name, &function, cuda::kRequestedApiVersion,
                 cuda::CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status) != cuda::CUDA_SUCCESS ||
        status != cuda::CU_GET_PROC_ADDRESS_SUCCESS)
      return nullptr;
    return function;
  };
  std::string missing;
#define ANYGPU_BENCH_RESOLVE(symbol, name, result, parameters)               \
  cu->symbol = reinterpret_cast<decltype(cu->symbol)>(find(#symbol, #name)); \
  if (!cu->symbol) missing += (missing.empty() ? "" : ", ") + std::string(#symbol);
  ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_BENCH_RESOLVE)
#undef ANYGPU_BENCH_RESOLVE
#define ANYGPU_BENCH_RESOLVE_OPTIONAL(symbol, name, result, parameters) \
  cu->symbol = reinterpret_cast<decltype(cu->symbol)>(find(#symbol, #name));
  ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_BENCH_RESOLVE_OPTIONAL)
#undef ANYGPU_BENCH_RESOLVE_OPTIONAL
  return missing;
}

// The anygpu side: the first CUDA device and bench_kernels on it.
std::string set_up_anygpu(CudaRuntime& r) {
  if (ag_result result = agInit(0)) return ag_failure(result, "agInit");
  std::string library, reason;
  if (!cuda_backend(&library, &reason)) return "no CUDA device: " + reason;
  int count = 0;
  agDeviceGetCount(&count);
  for (int i = 0; i < count && !r.device; ++i) {
    ag_device device = nullptr;
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (agDeviceGet(i, &device) == AG_SUCCESS && agDeviceGetProperties(device, &p) == AG_SUCCESS &&
        p.backend == AG_BACKEND_CUDA) {
      r.device = device;
      r.properties = p;
    }
  }
  if (!r.device) return "no CUDA device: the CUDA backend lists none";
  if (ag_result result = agModuleLoadData(r.device, anygpu_image_bench_kernels,
                                          anygpu_image_bench_kernels_size, &r.kernels))
    return ag_failure(result, "agModuleLoadData(bench_kernels)");

  void* driver = loaded_driver(library);
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

}  // namespace

Sizes& sizes() {
  static Sizes instance;
  return instance;
}

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

bool ag_ok(benchmark::State& state, ag_result result, const char* what) {
  if (result == AG_SUCCESS) return true;
  state.SkipWithError(ag_failure(result, what).c_str());
  return false;
}

bool cu_ok(benchmark::State& state, cuda::CUresult result, const char* what) {
  if (result == cuda::CUDA_SUCCESS) return true;
  state.SkipWithError(cu_failure(cuda_runtime().cu, result, what).c_str());
  return false;
}

}  // namespace anygpu_cuda_bench
