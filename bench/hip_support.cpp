#include "hip_support.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "anygpu_image_bench_kernels.h"

namespace anygpu_hip_bench {
namespace {

std::string ag_failure(ag_result result, const char* what) {
  const char* name = "";
  const char* detail = "";
  agGetErrorName(result, &name);
  agGetLastErrorDetail(&detail);
  return std::string(what) + ": " + name + " " + detail;
}

std::string hip_failure(const hip::HipFunctions& fn, hip::hipError_t result, const char* what) {
  const char* name = fn.hipGetErrorName ? fn.hipGetErrorName(result) : nullptr;
  return std::string(what) + " failed: " + (name ? name : "hipError_t") + " (" +
         std::to_string(result) + ")";
}

// The reason anygpu gives for its HIP backend, and the library it loaded; false when unavailable.
bool hip_backend(std::string* library, std::string* reason) {
  int count = 0;
  agBackendGetCount(&count);
  for (int i = 0; i < count; ++i) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    if (agBackendGetInfo(i, &info) != AG_SUCCESS || info.kind != AG_BACKEND_HIP) continue;
    *library = info.library ? info.library : "";
    *reason = info.available ? "" : info.reason;
    return info.available != 0;
  }
  *reason = "this anygpu has no HIP backend";
  return false;
}

// The runtime anygpu has open: its path first, then what anygpu would have tried.
void* loaded_runtime(const std::string& library) {
  const char* override_path = std::getenv("ANYGPU_HIP_LIBRARY");
  for (const char* name :
       {library.c_str(), override_path, "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"})
    if (name && *name)
      if (void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) return handle;
  return nullptr;
}

// Each entry point as anygpu finds it (loaders/hip/hip_loader.cpp): hipGetProcAddress at the same
// API version where the runtime has it (hipGetDeviceProperties at HIP 5.0's), else dlsym. Empty
// when all required ones resolved, else their names.
std::string resolve(void* library, hip::HipFunctions* fn) {
  auto get_proc = reinterpret_cast<hip::PFN_hipGetProcAddress>(dlsym(library, "hipGetProcAddress"));
  auto find = [&](const char* symbol, const char* name) -> void* {
    if (!get_proc) return dlsym(library, symbol);
    const int version = std::strcmp(name, "hipGetDeviceProperties") == 0
                            ? hip::kLegacyPropertiesApiVersion
                            : hip::kRequestedApiVersion;
    void* function = nullptr;
    hip::hipDriverProcAddressQueryResult status = hip::HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (get_proc(name, &function, version, hip::HIP_GET_PROC_ADDRESS_LEGACY_STREAM, &status) !=
            hip::hipSuccess ||
        status != hip::HIP_GET_PROC_ADDRESS_SUCCESS)
      return nullptr;
    return function;
  };
  std::string missing;
#define ANYGPU_BENCH_RESOLVE(symbol, name, result, parameters)               \
  fn->symbol = reinterpret_cast<decltype(fn->symbol)>(find(#symbol, #name)); \
  if (!fn->symbol) missing += (missing.empty() ? "" : ", ") + std::string(#symbol);
  ANYGPU_HIP_REQUIRED_FUNCTIONS(ANYGPU_BENCH_RESOLVE)
#undef ANYGPU_BENCH_RESOLVE
#define ANYGPU_BENCH_RESOLVE_OPTIONAL(symbol, name, result, parameters) \
  fn->symbol = reinterpret_cast<decltype(fn->symbol)>(find(#symbol, #name));
  ANYGPU_HIP_OPTIONAL_FUNCTIONS(ANYGPU_BENCH_RESOLVE_OPTIONAL)
#undef ANYGPU_BENCH_RESOLVE_OPTIONAL
  return missing;
}

// The anygpu side: the first HIP device and bench_kernels on it.
std::string set_up_anygpu(HipRuntime& r) {
  if (ag_result result = agInit(0)) return ag_failure(result, "agInit");
  std::string library, reason;
  if (!hip_backend(&library, &reason)) return "no HIP device: " + reason;
  int count = 0;
  agDeviceGetCount(&count);
  for (int i = 0; i < count && !r.device; ++i) {
    ag_device device = nullptr;
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (agDeviceGet(i, &device) == AG_SUCCESS && agDeviceGetProperties(device, &p) == AG_SUCCESS &&
        p.backend == AG_BACKEND_HIP) {
      r.device = device;
      r.properties = p;
    }
  }
  if (!r.device) return "no HIP device: the HIP backend lists none";
  if (ag_result result = agModuleLoadData(r.device, anygpu_image_bench_kernels,
                                          anygpu_image_bench_kernels_size, &r.kernels))
    return ag_failure(result, "agModuleLoadData(bench_kernels)");

  void* runtime = loaded_runtime(library);
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

}  // namespace

Sizes& sizes() {
  static Sizes instance;
  return instance;
}

const HipRuntime& hip_runtime() {
  static const HipRuntime instance = initialise();
  return instance;
}

bool ready(benchmark::State& state) {
  const HipRuntime& r = hip_runtime();
  if (!r.error.empty()) {
    state.SkipWithError(r.error.c_str());
    return false;
  }
  return hip_ok(state, r.fn.hipSetDevice(r.hip_device), "hipSetDevice");
}

bool ag_ok(benchmark::State& state, ag_result result, const char* what) {
  if (result == AG_SUCCESS) return true;
  state.SkipWithError(ag_failure(result, what).c_str());
  return false;
}

bool hip_ok(benchmark::State& state, hip::hipError_t result, const char* what) {
  if (result == hip::hipSuccess) return true;
  state.SkipWithError(hip_failure(hip_runtime().fn, result, what).c_str());
  return false;
}

}  // namespace anygpu_hip_bench
