#include "gpu_support.h"

#include <dlfcn.h>

#include <cstdlib>

#include "anygpu_image_bench_kernels.h"

namespace anygpu_bench {
namespace {

// The reason anygpu gives for its backend of `kind`, and the library it loaded; false when
// unavailable.
bool find_backend(ag_backend_kind kind, const char* vendor, std::string* library,
                  std::string* reason) {
  int count = 0;
  agBackendGetCount(&count);
  for (int i = 0; i < count; ++i) {
    ag_backend_info info{};
    info.struct_size = sizeof info;
    if (agBackendGetInfo(i, &info) != AG_SUCCESS || info.kind != kind) continue;
    *library = info.library ? info.library : "";
    *reason = info.available ? "" : info.reason;
    return info.available != 0;
  }
  *reason = std::string("this anygpu has no ") + vendor + " backend";
  return false;
}

}  // namespace

Sizes& sizes() {
  static Sizes instance;
  return instance;
}

std::string ag_failure(ag_result result, const char* what) {
  const char* name = "";
  const char* detail = "";
  agGetErrorName(result, &name);
  agGetLastErrorDetail(&detail);
  return std::string(what) + ": " + name + " " + detail;
}

bool ag_ok(benchmark::State& state, ag_result result, const char* what) {
  if (result == AG_SUCCESS) return true;
  state.SkipWithError(ag_failure(result, what).c_str());
  return false;
}

std::string set_up_anygpu(ag_backend_kind kind, const char* vendor, AnygpuDevice* out,
                          std::string* library) {
  if (ag_result result = agInit(0)) return ag_failure(result, "agInit");
  std::string reason;
  if (!find_backend(kind, vendor, library, &reason))
    return std::string("no ") + vendor + " device: " + reason;
  int count = 0;
  agDeviceGetCount(&count);
  for (int i = 0; i < count && !out->device; ++i) {
    ag_device device = nullptr;
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (agDeviceGet(i, &device) == AG_SUCCESS && agDeviceGetProperties(device, &p) == AG_SUCCESS &&
        p.backend == kind) {
      out->device = device;
      out->properties = p;
    }
  }
  if (!out->device)
    return std::string("no ") + vendor + " device: the " + vendor + " backend lists none";
  if (ag_result result = agModuleLoadData(out->device, anygpu_image_bench_kernels,
                                          anygpu_image_bench_kernels_size, &out->kernels))
    return ag_failure(result, "agModuleLoadData(bench_kernels)");
  return "";
}

void* loaded_library(const std::string& library, const char* override_variable,
                     std::initializer_list<const char*> names) {
  const char* override_path = std::getenv(override_variable);
  for (const char* name : {library.c_str(), override_path})
    if (name && *name)
      if (void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) return handle;
  for (const char* name : names)
    if (void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) return handle;
  return nullptr;
}

bool AnygpuApi::get_function(benchmark::State& state, const char* name, void** function) const {
  ag_function f = nullptr;
  if (!ag_ok(state, agModuleGetFunction(d_.kernels, name, &f), "agModuleGetFunction")) return false;
  *function = f;
  return true;
}

bool AnygpuApi::stream_create(benchmark::State& state, void** stream) const {
  ag_stream s = nullptr;
  if (!ag_ok(state, agStreamCreate(d_.device, 0, &s), "agStreamCreate")) return false;
  *stream = s;
  return true;
}

bool AnygpuApi::stream_synchronize(benchmark::State& state, void* stream) const {
  return ag_ok(state, agStreamSynchronize(static_cast<ag_stream>(stream)), "agStreamSynchronize");
}

void AnygpuApi::stream_destroy(void* stream) const {
  agStreamDestroy(static_cast<ag_stream>(stream));
}

bool AnygpuApi::launch_single(benchmark::State& state, void* function, void* stream,
                              void** params) const {
  return ag_ok(state,
               agLaunchKernel(static_cast<ag_function>(function), 1, 1, 1, 1, 1, 1, 0,
                              static_cast<ag_stream>(stream), params, nullptr),
               "agLaunchKernel");
}

bool AnygpuApi::launch_host_func(benchmark::State& state, void* stream, void (*fn)(void*),
                                 void* data) const {
  return ag_ok(state, agLaunchHostFunc(static_cast<ag_stream>(stream), fn, data),
               "agLaunchHostFunc");
}

bool AnygpuApi::alloc_async(benchmark::State& state, void* stream, size_t bytes,
                            void** device) const {
  return ag_ok(state, agMemAllocAsync(device, bytes, static_cast<ag_stream>(stream)),
               "agMemAllocAsync");
}

bool AnygpuApi::free_async(benchmark::State& state, void* stream, void* device) const {
  return ag_ok(state, agMemFreeAsync(device, static_cast<ag_stream>(stream)), "agMemFreeAsync");
}

bool AnygpuApi::alloc_host(benchmark::State& state, size_t bytes, void** host) const {
  return ag_ok(state, agMemAllocHost(d_.device, bytes, host), "agMemAllocHost");
}

void AnygpuApi::free_host(void* host) const {
  agMemFreeHost(d_.device, host);
}

bool AnygpuApi::alloc(benchmark::State& state, size_t bytes, void** device) const {
  return ag_ok(state, agMemAlloc(d_.device, bytes, device), "agMemAlloc");
}

void AnygpuApi::free(void* device) const {
  agMemFree(d_.device, device);
}

bool AnygpuApi::copy_htod(benchmark::State& state, void* device, const void* host,
                          size_t bytes) const {
  return ag_ok(state, agMemcpyHtoD(d_.device, device, host, bytes), "agMemcpyHtoD");
}

bool AnygpuApi::copy_dtoh(benchmark::State& state, void* host, const void* device,
                          size_t bytes) const {
  return ag_ok(state, agMemcpyDtoH(d_.device, host, device, bytes), "agMemcpyDtoH");
}

bool AnygpuApi::copy_dtod(benchmark::State& state, void* to, const void* from, size_t bytes) const {
  return ag_ok(state, agMemcpyDtoD(d_.device, to, from, bytes), "agMemcpyDtoD");
}

bool AnygpuApi::copy_2d_dtod(benchmark::State& state, void* to, size_t to_pitch, const void* from,
                             size_t from_pitch, size_t width, size_t height) const {
  return ag_ok(state, agMemcpy2D(to, to_pitch, from, from_pitch, width, height), "agMemcpy2D");
}

}  // namespace anygpu_bench
