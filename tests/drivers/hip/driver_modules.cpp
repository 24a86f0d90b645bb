// Modules: an image is checked as HIP's loader would (driver_image.h) and remembered by its kernel
// names; a function is the kernel of the same name in the host build of the test kernels.
#include "driver_modules.h"

#include <algorithm>

#include "driver_host_kernels.h"
#include "driver_image.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

std::mutex last_mutex;
LoadedImage last;

void* host_kernels() {
  return test_driver::host_kernels(kDriverName, "ANYGPU_HIP_TEST_KERNELS", config().kernels_path);
}

}  // namespace

LoadedImage last_loaded_image() {
  std::lock_guard<std::mutex> lock(last_mutex);
  return last;
}

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

// On the calling thread's current device.
ANYGPU_HIP_TEST_API hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  DRIVER_ENTRY(hipModuleLoadData);
  if (!module || !image) return hipErrorInvalidValue;
  int device = 0;
  if (hipError_t r = current_device(&device)) return r;
  ImageCheck check = check_image(image, config().target);
  if (check.result != hipSuccess) return check.result;
  auto loaded = std::make_unique<Module>();
  loaded->device = device;
  loaded->kernels = std::move(check.kernels);
  loaded->globals = std::move(check.globals);
  {
    std::lock_guard<std::mutex> lock(last_mutex);
    last = LoadedImage{check.target, check.bytes, check.from_bundle};
  }
  *module = handle_of<hipModule_t>(loaded.get());
  std::lock_guard<std::mutex> lock(objects().mutex);
  objects().modules[loaded.get()] = std::move(loaded);
  return hipSuccess;
}

ANYGPU_HIP_TEST_API hipError_t hipModuleUnload(hipModule_t module) {
  DRIVER_ENTRY(hipModuleUnload);
  std::unique_ptr<Module> taken;
  {
    Objects& o = objects();
    std::lock_guard<std::mutex> lock(o.mutex);
    const auto found = o.modules.find(module);
    if (found == o.modules.end()) return hipErrorInvalidHandle;
    for (const auto& [name, function] : found->second->functions) o.functions.erase(function.get());
    taken = std::move(found->second);
    o.modules.erase(found);
  }
  return hipSuccess;
}

// hipErrorNotFound unless the code object holds the kernel and the host build has it too. The
// same name gives the same handle.
ANYGPU_HIP_TEST_API hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module,
                                                    const char* name) {
  DRIVER_ENTRY(hipModuleGetFunction);
  if (!function || !name) return hipErrorInvalidValue;
  Objects& o = objects();
  {
    std::lock_guard<std::mutex> lock(o.mutex);
    Module* found = o.module(module);
    if (!found) return hipErrorInvalidHandle;
    if (std::find(found->kernels.begin(), found->kernels.end(), name) == found->kernels.end())
      return hipErrorNotFound;
  }
  void* host = host_kernels();  // loads on first use, outside the lock
  if (!host) return hipErrorNotFound;
  std::lock_guard<std::mutex> lock(o.mutex);
  Module* found = o.module(module);  // again: it may have been unloaded meanwhile
  if (!found) return hipErrorInvalidHandle;
  std::unique_ptr<Function>& cached = found->functions[name];
  if (!cached) {
    auto made = std::make_unique<Function>();
    made->device = found->device;
    bool layout_known = false;
    if (cpu().module_get_function(host, name, &made->native, made->layout, layout_known) !=
        AG_SUCCESS) {
      found->functions.erase(name);
      return hipErrorNotFound;
    }
    cached = std::move(made);
    o.functions[cached.get()] = cached.get();
  }
  *function = handle_of<hipFunction_t>(cached.get());
  return hipSuccess;
}

// hipErrorNotFound unless the code object holds the variable and the host build has it too: the
// address is the host build's variable, which the kernels that run read and write.
ANYGPU_HIP_TEST_API hipError_t hipModuleGetGlobal(hipDeviceptr_t* pointer, size_t* bytes,
                                                  hipModule_t module, const char* name) {
  DRIVER_ENTRY(hipModuleGetGlobal);
  if (!name) return hipErrorInvalidValue;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    Module* found = objects().module(module);
    if (!found) return hipErrorInvalidHandle;
    if (std::find(found->globals.begin(), found->globals.end(), name) == found->globals.end())
      return hipErrorNotFound;
  }
  void* host = host_kernels();
  void* address = nullptr;
  size_t size = 0;
  if (!host || cpu().module_get_global(host, name, &address, &size) != AG_SUCCESS)
    return hipErrorNotFound;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    objects().variables[reinterpret_cast<uintptr_t>(address)] = ModuleVariable{size};
  }
  if (pointer) *pointer = address;
  if (bytes) *bytes = size;
  return hipSuccess;
}

}  // namespace anygpu::hip
