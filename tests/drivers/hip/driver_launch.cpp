// hipModuleLaunchKernel: the launch is checked against the device's limits, then run by the CPU
// backend on the stream's CPU stream, or to completion for the null stream. The arguments come as
// `params` (one pointer per parameter) or as HIP's `extra` (one buffer of packed arguments, laid
// out as the kernel's parameters are by C rules).
#include "driver_objects.h"
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

bool fits_device(const unsigned grid[3], const unsigned block[3], unsigned shared_bytes) {
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (grid[i] == 0 || grid[i] > kMaxGridDim[i] || block[i] == 0 || block[i] > kMaxBlockDim[i])
      return false;
    threads *= block[i];
  }
  return threads <= kMaxThreadsPerBlock && shared_bytes <= kSharedMemoryPerBlock;
}

// The pointers into `extra`'s buffer at each parameter's offset; false when `extra` is not a
// HIP_LAUNCH_PARAM_* list with a buffer at least as long as the parameters.
bool params_from_extra(void** extra, const std::vector<ag_param_info>& layout,
                       std::vector<void*>* params) {
  unsigned char* buffer = nullptr;
  size_t* size = nullptr;
  for (int i = 0;; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_END) break;
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER)
      buffer = static_cast<unsigned char*>(extra[i + 1]);
    else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE)
      size = static_cast<size_t*>(extra[i + 1]);
    else
      return false;
  }
  if (!layout.empty() && (!buffer || !size)) return false;
  for (const ag_param_info& parameter : layout) {
    if (parameter.offset + parameter.size > *size) return false;
    params->push_back(buffer + parameter.offset);
  }
  return true;
}

}  // namespace

}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

// The function must be of the stream's device (the null stream: the calling thread's current
// device), else hipErrorInvalidHandle.
ANYGPU_HIP_TEST_API hipError_t hipModuleLaunchKernel(hipFunction_t function, unsigned grid_x,
                                                     unsigned grid_y, unsigned grid_z,
                                                     unsigned block_x, unsigned block_y,
                                                     unsigned block_z, unsigned shared_bytes,
                                                     hipStream_t stream, void** params,
                                                     void** extra) {
  DRIVER_ENTRY(hipModuleLaunchKernel);
  void* native = nullptr;
  int function_device = 0;
  size_t parameters = 0;
  std::vector<ag_param_info> layout;  // only for `extra`
  {
    std::lock_guard<std::mutex> lock(objects().mutex);
    const Function* found = objects().function(function);
    if (!found) return hipErrorInvalidHandle;
    native = found->native;
    function_device = found->device;
    parameters = found->layout.size();
    if (extra) layout = found->layout;
  }
  const LaunchConfig launch{{grid_x, grid_y, grid_z}, {block_x, block_y, block_z}, shared_bytes};
  if ((params && extra) || (parameters && !params && !extra) ||
      !fits_device(launch.grid, launch.block, shared_bytes))
    return hipErrorInvalidValue;
  std::vector<void*> from_extra;
  if (extra) {
    if (!params_from_extra(extra, layout, &from_extra)) return hipErrorInvalidValue;
    params = from_extra.data();
  }
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = stream_for_work(stream, &device, &on)) return r;
  if (device != function_device) return hipErrorInvalidHandle;
  return from_cpu(cpu().launch(native, launch, params, on ? on->native : nullptr));
}

}  // namespace anygpu::hip
