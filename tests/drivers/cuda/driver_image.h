// What cuModuleLoadDataEx does before anything runs: find how far the image reaches (the call
// has no size), tell its format, and make the checks a real driver and its PTX JIT make, with
// their results and ptxas-style logs. Formats: PTX text, cubin, NVIDIA fatbin.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "driver_api.h"
#include "shim/code_object/cuda_arch.h"

namespace anygpu::cuda_test_driver {

// The bytes an image spans, read from its own headers (ELF, fatbin) or up to its NUL (text);
// 0 when it is none of these. Only the bytes the format says are there are read. Text that runs
// into a byte that is not text before its NUL sets `*unterminated_text` and spans up to it.
size_t image_extent(const void* image, bool* unterminated_text);

struct ImageCheck {
  CUresult result = CUDA_SUCCESS;
  std::vector<std::string> kernels;  // on success
  std::vector<std::string> globals;  // its variables (code_object_globals.h), on success
  std::string info_log;              // CU_JIT_INFO_LOG_BUFFER
  std::string error_log;             // CU_JIT_ERROR_LOG_BUFFER
};

// Whether a device of `device` architecture, under a driver of `driver_version`, loads `image`.
ImageCheck check_image(const void* image, const CudaArch& device, int driver_version);

}  // namespace anygpu::cuda_test_driver
