// Loading the CUDA driver: the library (never dlclose'd), cuInit, the version check, and every
// entry point by its versioned name.
#pragma once

#include <string>

#include "loaders/cuda/cuda_api.h"

namespace anygpu::cuda {

struct CudaDriver {
  std::string path;  // the library opened, or the last name tried
  int version = 0;   // cuDriverGetVersion: 12040 is CUDA 12.4
  bool through_get_proc_address = false;
  CudaFunctions fn;
};

// "12.4" for 12040.
std::string cuda_version_text(int version);

// Opens and initialises the driver and resolves its functions. False with `reason` (naming the
// driver's own error, or the missing functions) when it cannot be used.
bool load_cuda_driver(CudaDriver* driver, std::string* reason);

}  // namespace anygpu::cuda
