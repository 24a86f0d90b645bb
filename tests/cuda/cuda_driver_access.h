// Tests' direct line to the CUDA test driver anygpu loaded: its control functions (failures to
// inject, live objects, call counts) and a few driver calls made as an application would.
#pragma once

#include <anygpu/anygpu.h>

#include <string>

#include "loaders/cuda/cuda_api.h"

namespace anygpu_test {

class CudaDriverAccess {
 public:
  // Initialises anygpu, then finds the driver it loaded (RTLD_NOLOAD: the same copy).
  CudaDriverAccess();

  bool loaded() const { return handle_ != nullptr; }
  // The nth call from now (1: the next) of `function` returns `result` without doing anything.
  void fail(const char* function, int result, int nth = 1) const;
  void clear_failures() const;
  long live_objects() const;
  long calls(const char* function) const;

  // The first device of the CUDA backend, nullptr without one.
  ag_device cuda_device(int index = 0) const;

  anygpu::cuda::CUcontext current_context() const;
  void set_current_context(anygpu::cuda::CUcontext context) const;
  anygpu::cuda::CUcontext retain_primary_context(int device) const;
  void release_primary_context(int device) const;

 private:
  void* symbol(const char* name) const;
  void* handle_ = nullptr;
};

}  // namespace anygpu_test
