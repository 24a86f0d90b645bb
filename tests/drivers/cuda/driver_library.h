// Libraries (CUDA 12.0): how the CUDA Runtime loads a program's kernels. A library belongs to no
// context; its kernel becomes a function of the context it is launched in.
#pragma once

#include "driver_context.h"

namespace anygpu::cuda_test_driver {

// The function of `context` that a kernel handle stands for, as cuLaunchKernel takes either;
// `handle` itself when it is not a kernel. CUDA_ERROR_NOT_FOUND when the host build lacks it.
CUresult function_for_launch(CUfunction handle, Context* context, CUfunction* function);
// Libraries loaded and not unloaded (0 for the old driver build, which has none).
long live_libraries();

}  // namespace anygpu::cuda_test_driver
