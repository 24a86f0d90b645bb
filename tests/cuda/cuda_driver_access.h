// Tests' direct line to the CUDA test driver anygpu loaded: its control functions (failures to
// inject, live objects, call counts: TestDriverControl) and a few driver calls made as an
// application would.
#pragma once

#include <anygpu/anygpu.h>

#include "loaders/cuda/cuda_api.h"
#include "test_driver_control.h"

namespace anygpu_test {

class CudaDriverAccess : public TestDriverControl {
 public:
  // Initialises anygpu, then finds the driver it loaded (RTLD_NOLOAD: the same copy).
  CudaDriverAccess() : TestDriverControl(ANYGPU_TEST_DRIVER_PATH, "anygpu_cuda_test") {}

  // The index-th device of the CUDA backend, nullptr without one.
  ag_device cuda_device(int index = 0) const { return device(AG_BACKEND_CUDA, index); }

  anygpu::cuda::CUcontext current_context() const;
  void set_current_context(anygpu::cuda::CUcontext context) const;
  anygpu::cuda::CUcontext retain_primary_context(int device) const;
  void release_primary_context(int device) const;
};

}  // namespace anygpu_test
