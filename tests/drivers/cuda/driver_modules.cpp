// Modules: an image is checked as a real driver would (driver_image.h) and remembered by its
// kernel names; a function is the kernel of the same name in the host build of the test kernels.
#include <algorithm>
#include <cstring>

#include "driver_cpu.h"
#include "driver_host_kernels.h"
#include "driver_image.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {
namespace {

// A log buffer given in cuModuleLoadDataEx's options. Its size comes in by value in the value
// slot (an unsigned int), and goes out there as the bytes written, without the NUL.
struct JitLog {
  char* buffer = nullptr;
  size_t capacity = 0;
  int size_slot = -1;
};

CUresult read_options(unsigned count, const CUjit_option* options, void* const* values,
                      JitLog* info, JitLog* error) {
  if (count == 0) return CUDA_SUCCESS;
  if (!options || !values) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < count; ++i) {
    const auto value = reinterpret_cast<uintptr_t>(values[i]);
    switch (options[i]) {
      case CU_JIT_INFO_LOG_BUFFER:
        info->buffer = static_cast<char*>(values[i]);
        break;
      case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
        info->capacity = static_cast<unsigned>(value);
        info->size_slot = static_cast<int>(i);
        break;
      case CU_JIT_ERROR_LOG_BUFFER:
        error->buffer = static_cast<char*>(values[i]);
        break;
      case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
        error->capacity = static_cast<unsigned>(value);
        error->size_slot = static_cast<int>(i);
        break;
      default:  // other options change nothing here, but must exist
        if (options[i] < 0 || options[i] >= CU_JIT_NUM_OPTIONS) return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return CUDA_SUCCESS;
}

void write_log(const JitLog& log, const std::string& text, void** values) {
  if (!log.buffer || log.capacity == 0) return;
  const size_t written = std::min(text.size(), log.capacity - 1);
  memcpy(log.buffer, text.data(), written);
  log.buffer[written] = '\0';
  if (log.size_slot >= 0) values[log.size_slot] = reinterpret_cast<void*>(written);
}

}  // namespace

CUresult module_function(CUmodule module, const char* name, CUfunction* function) {
  Objects& o = objects();
  {
    std::lock_guard<std::mutex> lock(o.mutex);
    Module* found = o.module(module);
    if (!found) return CUDA_ERROR_INVALID_HANDLE;
    if (std::find(found->kernels.begin(), found->kernels.end(), name) == found->kernels.end())
      return CUDA_ERROR_NOT_FOUND;
  }
  // Loads on first use, outside the lock.
  void* host =
      test_driver::host_kernels(kDriverName, "ANYGPU_CUDA_TEST_KERNELS", config().kernels_path);
  if (!host) return CUDA_ERROR_NOT_FOUND;
  std::lock_guard<std::mutex> lock(o.mutex);
  Module* found = o.module(module);  // again: it may have been unloaded meanwhile
  if (!found) return CUDA_ERROR_INVALID_HANDLE;
  std::unique_ptr<Function>& cached = found->functions[name];
  if (!cached) {
    auto made = std::make_unique<Function>();
    made->context = found->context;
    made->loaded = !config().lazy_loading;
    bool layout_known = false;
    if (cpu().module_get_function(host, name, &made->native, made->layout, layout_known) !=
        AG_SUCCESS) {
      found->functions.erase(name);
      return CUDA_ERROR_NOT_FOUND;
    }
    cached = std::move(made);
    o.functions[cached.get()] = cached.get();
  }
  *function = handle_of<CUfunction>(cached.get());
  return CUDA_SUCCESS;
}

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuModuleLoadDataEx(CUmodule* module, const void* image,
                                                 unsigned count, CUjit_option* options,
                                                 void** values) {
  DRIVER_ENTRY(cuModuleLoadDataEx);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!module || !image) return CUDA_ERROR_INVALID_VALUE;
  JitLog info, error;
  if (CUresult r = read_options(count, options, values, &info, &error)) return r;
  ImageCheck check = check_image(image, config().arch, config().driver_version);
  write_log(info, check.info_log, values);
  write_log(error, check.error_log, values);
  if (check.result != CUDA_SUCCESS) return check.result;
  auto loaded = std::make_unique<Module>();
  loaded->context = context;
  loaded->kernels = std::move(check.kernels);
  loaded->globals = std::move(check.globals);
  add_object(&Objects::modules, std::move(loaded), module);
  return CUDA_SUCCESS;
}

ANYGPU_CUDA_TEST_API CUresult cuModuleUnload(CUmodule module) {
  DRIVER_ENTRY(cuModuleUnload);
  return destroy_object(&Objects::modules, module,
                        [](Objects& o, const Module& found) { o.forget_functions(found); });
}

// CUDA_ERROR_NOT_FOUND unless the image holds the kernel and the host build has it too. The same
// name gives the same handle, as it does on a real driver.
ANYGPU_CUDA_TEST_API CUresult cuModuleGetFunction(CUfunction* function, CUmodule module,
                                                  const char* name) {
  DRIVER_ENTRY(cuModuleGetFunction);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!function || !name) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = module_function(module, name, function)) return r;
  // CUDA 12.2 and 12.3 load a lazily loaded kernel here; 12.4 and later at its first use.
  return config().driver_version < 12040 ? finish_loading(*function) : CUDA_SUCCESS;
}

// CUDA_ERROR_NOT_FOUND unless the image holds the variable and the host build has it too: the
// address is the host build's variable, which the kernels that run read and write. A kernel's name
// is CUDA_ERROR_INVALID_VALUE, as an H200's driver (580) answers.
ANYGPU_CUDA_TEST_API CUresult cuModuleGetGlobal_v2(CUdeviceptr* pointer, size_t* bytes,
                                                   CUmodule module, const char* name) {
  DRIVER_ENTRY(cuModuleGetGlobal_v2);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    Module* found = objects().module(module);
    if (!found) return CUDA_ERROR_INVALID_HANDLE;
    if (std::find(found->kernels.begin(), found->kernels.end(), name) != found->kernels.end())
      return CUDA_ERROR_INVALID_VALUE;
    if (std::find(found->globals.begin(), found->globals.end(), name) == found->globals.end())
      return CUDA_ERROR_NOT_FOUND;
  }
  void* host =
      test_driver::host_kernels(kDriverName, "ANYGPU_CUDA_TEST_KERNELS", config().kernels_path);
  void* address = nullptr;
  size_t size = 0;
  if (!host || cpu().module_get_global(host, name, &address, &size) != AG_SUCCESS)
    return CUDA_ERROR_NOT_FOUND;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    objects().variables[reinterpret_cast<uintptr_t>(address)] = ModuleVariable{size};
  }
  if (pointer) *pointer = reinterpret_cast<uintptr_t>(address);
  if (bytes) *bytes = size;
  return CUDA_SUCCESS;
}

#ifndef ANYGPU_CUDA_TEST_OLD_DRIVER
// The offset and size of a parameter, from the host build's layout (C rules, as CUDA's).
ANYGPU_CUDA_TEST_API CUresult cuFuncGetParamInfo(CUfunction function, size_t index, size_t* offset,
                                                 size_t* size) {
  DRIVER_ENTRY(cuFuncGetParamInfo);
  if (CUresult r = require_initialized()) return r;
  std::lock_guard<std::mutex> lock(objects().mutex);
  const Function* found = objects().function(function);
  if (!found) return CUDA_ERROR_INVALID_HANDLE;
  if (!offset || index >= found->layout.size()) return CUDA_ERROR_INVALID_VALUE;
  *offset = found->layout[index].offset;
  if (size) *size = found->layout[index].size;
  return CUDA_SUCCESS;
}
#endif

}  // namespace anygpu::cuda
