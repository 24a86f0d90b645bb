// cuLaunchKernel (of a function, or of a library's kernel): the launch is checked against the
// device's limits and the function's dynamic shared memory limit, then run by the CPU backend on
// the stream's CPU stream, or to completion for the legacy default stream.
#include "driver_cpu.h"
#include "driver_library.h"
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::cuda_test_driver {
namespace {

// `max_shared`: the function's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, the device's
// per-block shared memory unless cuFuncSetAttribute raised it.
bool fits_device(const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
                 int max_shared) {
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (grid[i] == 0 || grid[i] > kMaxGridDim[i] || block[i] == 0 || block[i] > kMaxBlockDim[i])
      return false;
    threads *= block[i];
  }
  return threads <= kMaxThreadsPerBlock && shared_bytes <= static_cast<unsigned>(max_shared);
}

}  // namespace

}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuLaunchKernel(CUfunction function, unsigned grid_x, unsigned grid_y,
                                             unsigned grid_z, unsigned block_x, unsigned block_y,
                                             unsigned block_z, unsigned shared_bytes,
                                             CUstream stream, void** params, void** extra) {
  DRIVER_ENTRY(cuLaunchKernel);
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
#ifndef ANYGPU_CUDA_TEST_OLD_DRIVER
  // A CUkernel (the CUDA Runtime's launches) stands for its function in this context.
  if (CUresult r = function_for_launch(function, context, &function)) return r;
#endif
  void* native = nullptr;
  size_t parameters = 0;
  int max_shared = 0;
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    const Function* found = objects().function(function);
    if (!found || found->context != context) return CUDA_ERROR_INVALID_HANDLE;
    native = found->native;
    parameters = found->layout.size();
    max_shared = found->max_dynamic_shared;
  }
  const LaunchConfig launch{{grid_x, grid_y, grid_z}, {block_x, block_y, block_z}, shared_bytes};
  if (extra || (parameters && !params) ||
      !fits_device(launch.grid, launch.block, shared_bytes, max_shared))
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = finish_loading(function)) return r;
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  return from_cpu(cpu().launch(native, launch, params, on ? on->native : nullptr));
}

}  // namespace anygpu::cuda
