// cuLibraryLoadData, cuLibraryGetKernel, cuKernelGetFunction, cuLibraryUnload: what the CUDA
// Runtime uses for a program's kernels (it registers the fatbin nvcc embedded, loads it as a
// library and launches with cuLaunchKernel given the CUkernel). The image is checked as
// cuModuleLoadDataEx checks it; a kernel runs from the host build, as a module's function does.
#include "driver_library.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>

#include "driver_cpu.h"
#include "driver_host_kernels.h"
#include "driver_image.h"
#include "driver_objects.h"
#include "driver_state.h"

#ifndef ANYGPU_CUDA_TEST_OLD_DRIVER
namespace anygpu::cuda_test_driver {
namespace {

struct Kernel {
  std::string name;
  std::map<Context*, std::unique_ptr<Function>> functions;  // made on first launch in a context
};

struct Library {
  std::vector<std::string> names;                          // what the image holds
  std::map<std::string, std::unique_ptr<Kernel>> kernels;  // made on first request
};

// Guarded by objects().mutex, as the functions they own are listed in objects().functions.
Table<std::unique_ptr<Library>>& libraries() {
  static auto* const table = new Table<std::unique_ptr<Library>>;
  return *table;
}
Table<Kernel*>& kernels() {
  static auto* const table = new Table<Kernel*>;
  return *table;
}

// What nvcc embeds and the CUDA Runtime passes: a wrapper around the fatbin (cuda's
// fatbinary_section.h: magic, version, the fatbin, and a field for separate compilation).
struct FatbinWrapper {
  uint32_t magic;
  uint32_t version;
  const void* fatbin;
  const void* unused;
};
constexpr uint32_t kFatbinWrapperMagic = 0x466243b1;

const void* unwrap(const void* code) {
  FatbinWrapper wrapper;
  memcpy(&wrapper, code, sizeof wrapper.magic);
  if (wrapper.magic != kFatbinWrapperMagic) return code;
  memcpy(&wrapper, code, sizeof wrapper);
  return wrapper.fatbin;
}

// With objects().mutex held: the kernel's function in `context`, made from the host build.
CUresult make_function(Kernel* kernel, Context* context, void* host, CUfunction* function) {
  std::unique_ptr<Function>& cached = kernel->functions[context];
  if (!cached) {
    auto made = std::make_unique<Function>();
    made->context = context;
    bool layout_known = false;
    if (cpu().module_get_function(host, kernel->name.c_str(), &made->native, made->layout,
                                  layout_known) != AG_SUCCESS) {
      kernel->functions.erase(context);
      return CUDA_ERROR_NOT_FOUND;
    }
    cached = std::move(made);
    objects().functions[cached.get()] = cached.get();
  }
  *function = handle_of<CUfunction>(cached.get());
  return CUDA_SUCCESS;
}

void* host_build() {
  return test_driver::host_kernels(kDriverName, "ANYGPU_CUDA_TEST_KERNELS", config().kernels_path);
}

}  // namespace

CUresult function_for_launch(CUfunction handle, Context* context, CUfunction* function) {
  *function = handle;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    if (!kernels().count(handle)) return CUDA_SUCCESS;
  }
  void* host = host_build();  // loads on first use, outside the lock
  if (!host) return CUDA_ERROR_NOT_FOUND;
  std::lock_guard<std::mutex> lock(objects().mutex);
  const auto found = kernels().find(handle);  // again: its library may have been unloaded
  if (found == kernels().end()) return CUDA_ERROR_INVALID_HANDLE;
  return make_function(found->second, context, host, function);
}

long live_libraries() {
  std::lock_guard<std::mutex> lock(objects().mutex);
  return static_cast<long>(libraries().size());
}

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

// JIT and library options change nothing here.
ANYGPU_CUDA_TEST_API CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option*,
                                                void**, unsigned, CUlibraryOption*, void**,
                                                unsigned) {
  DRIVER_ENTRY(cuLibraryLoadData);
  if (CUresult r = require_initialized()) return r;
  if (!library || !code) return CUDA_ERROR_INVALID_VALUE;
  ImageCheck check = check_image(unwrap(code), config().arch, config().driver_version);
  if (check.result != CUDA_SUCCESS) return check.result;
  auto loaded = std::make_unique<Library>();
  loaded->names = std::move(check.kernels);
  *library = handle_of<CUlibrary>(loaded.get());
  std::lock_guard<std::mutex> lock(objects().mutex);
  libraries()[loaded.get()] = std::move(loaded);
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuLibraryUnload(CUlibrary library) {
  DRIVER_ENTRY(cuLibraryUnload);
  if (CUresult r = require_initialized()) return r;
  std::unique_ptr<Library> taken;  // destroyed after the lock is released
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  const auto found = libraries().find(library);
  if (found == libraries().end()) return CUDA_ERROR_INVALID_HANDLE;
  for (auto& [name, kernel] : found->second->kernels) {
    kernels().erase(kernel.get());
    for (auto& [context, function] : kernel->functions) o.functions.erase(function.get());
  }
  taken = std::move(found->second);
  libraries().erase(found);
  return CUDA_SUCCESS;
}

// CUDA_ERROR_NOT_FOUND unless the image holds the kernel; the same name gives the same handle.
ANYGPU_CUDA_TEST_API CUresult cuLibraryGetKernel(CUkernel* kernel, CUlibrary library,
                                                 const char* name) {
  DRIVER_ENTRY(cuLibraryGetKernel);
  if (CUresult r = require_initialized()) return r;
  if (!kernel || !name) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(objects().mutex);
  const auto found = libraries().find(library);
  if (found == libraries().end()) return CUDA_ERROR_INVALID_HANDLE;
  Library& loaded = *found->second;
  if (std::find(loaded.names.begin(), loaded.names.end(), name) == loaded.names.end())
    return CUDA_ERROR_NOT_FOUND;
  std::unique_ptr<Kernel>& cached = loaded.kernels[name];
  if (!cached) {
    cached = std::make_unique<Kernel>();
    cached->name = name;
    kernels()[cached.get()] = cached.get();
  }
  *kernel = handle_of<CUkernel>(cached.get());
  return CUDA_SUCCESS;
}

// The kernel's function in the current context.
ANYGPU_CUDA_TEST_API CUresult cuKernelGetFunction(CUfunction* function, CUkernel kernel) {
  DRIVER_ENTRY(cuKernelGetFunction);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!function) return CUDA_ERROR_INVALID_VALUE;
  const auto handle = reinterpret_cast<CUfunction>(kernel);
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    if (!kernels().count(handle)) return CUDA_ERROR_INVALID_HANDLE;
  }
  return function_for_launch(handle, context, function);
}

}  // namespace anygpu::cuda
#endif

#ifdef ANYGPU_CUDA_TEST_OLD_DRIVER
long anygpu::cuda_test_driver::live_libraries() {
  return 0;
}
#endif
