// Lazy loading, as CUDA 12.2 and later drivers do it by default (CUDA_MODULE_LOADING=LAZY): a
// module's kernel is loaded by cuFuncLoad or at its first launch (by cuModuleGetFunction when the
// driver reports CUDA 12.2 or 12.3), and that load first waits for all of the context's work. A
// launch queued behind a kernel that waits for the host therefore never returns, as on a real
// driver, unless the kernel was loaded before (anygpu loads every kernel of a module with it:
// loaders/cuda/cuda_module.cpp).
#include "driver_context.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {

CUresult finish_loading(CUfunction function) {
  Context* context = nullptr;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    const Function* found = objects().function(function);
    if (!found) return CUDA_ERROR_INVALID_HANDLE;
    if (found->loaded) return CUDA_SUCCESS;
    context = found->context;
  }
  synchronize_context(context);  // outside the lock: the context's streams take it
  std::lock_guard<std::mutex> lock(objects().mutex);
  Function* found = objects().function(function);  // again: its module may be gone meanwhile
  if (!found) return CUDA_ERROR_INVALID_HANDLE;
  found->loaded = true;
  return CUDA_SUCCESS;
}

}  // namespace anygpu::cuda_test_driver

namespace anygpu::cuda {

using namespace cuda_test_driver;

#ifndef ANYGPU_CUDA_TEST_OLD_DRIVER
namespace {

// The module's kernels the host build has, in the image's order; the first `limit` of them are
// made (and written to `functions` when it is not null).
CUresult module_functions(CUmodule module, unsigned limit, CUfunction* functions, unsigned* count) {
  std::vector<std::string> kernels;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    const Module* found = objects().module(module);
    if (!found) return CUDA_ERROR_INVALID_HANDLE;
    kernels = found->kernels;
  }
  *count = 0;
  for (const std::string& name : kernels) {
    if (*count == limit) break;
    CUfunction function = nullptr;
    const CUresult r = module_function(module, name.c_str(), &function);
    if (r == CUDA_ERROR_NOT_FOUND) continue;  // a kernel the host build lacks is not offered
    if (r != CUDA_SUCCESS) return r;
    if (functions) functions[*count] = function;
    ++*count;
  }
  return CUDA_SUCCESS;
}

}  // namespace

ANYGPU_CUDA_TEST_API CUresult cuModuleGetFunctionCount(unsigned* count, CUmodule module) {
  DRIVER_ENTRY(cuModuleGetFunctionCount);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  return module_functions(module, ~0u, nullptr, count);
}

ANYGPU_CUDA_TEST_API CUresult cuModuleEnumerateFunctions(CUfunction* functions, unsigned count,
                                                         CUmodule module) {
  DRIVER_ENTRY(cuModuleEnumerateFunctions);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!functions || count == 0) return CUDA_ERROR_INVALID_VALUE;
  unsigned written = 0;
  return module_functions(module, count, functions, &written);
}

ANYGPU_CUDA_TEST_API CUresult cuFuncLoad(CUfunction function) {
  DRIVER_ENTRY(cuFuncLoad);
  if (CUresult r = require_initialized()) return r;
  return finish_loading(function);
}
#endif

}  // namespace anygpu::cuda
