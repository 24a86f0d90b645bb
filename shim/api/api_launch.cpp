// agLaunchKernel: the hot path. Checks against the device's limits, then hands over to the
// backend; allocates nothing and formats a string only on failure.
#include "shim/api/api_common.h"
#include "shim/core/function_limits.h"

using namespace anygpu;

namespace {

ag_result check_dimensions(const Function& f, const LaunchConfig& config) {
  static const char* const axis = "xyz";
  const ag_device_properties& limits = f.device->properties;
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (config.grid[i] == 0 || config.block[i] == 0)
      return fail(AG_ERROR_INVALID_CONFIGURATION,
                  "grid %ux%ux%u, block %ux%ux%u: no dimension may be 0", config.grid[0],
                  config.grid[1], config.grid[2], config.block[0], config.block[1],
                  config.block[2]);
    if (config.block[i] > static_cast<unsigned>(limits.max_block_dim[i]))
      return fail(AG_ERROR_INVALID_CONFIGURATION, "block.%c = %u exceeds the device's %d", axis[i],
                  config.block[i], limits.max_block_dim[i]);
    if (config.grid[i] > static_cast<unsigned>(limits.max_grid_dim[i]))
      return fail(AG_ERROR_INVALID_CONFIGURATION, "grid.%c = %u exceeds the device's %d", axis[i],
                  config.grid[i], limits.max_grid_dim[i]);
    threads *= config.block[i];
  }
  const int max_threads = function_max_threads(f);
  if (threads > static_cast<uint64_t>(max_threads))
    return fail(AG_ERROR_INVALID_CONFIGURATION,
                "a block of %llu threads exceeds this function's %d (agFunctionGetAttributes)",
                (unsigned long long)threads, max_threads);
  const uint64_t shared = f.max_dynamic_shared.load(std::memory_order_relaxed);
  if (config.shared_memory_bytes > shared)
    return fail(AG_ERROR_INVALID_CONFIGURATION,
                "%u bytes of dynamic shared memory exceed the %llu this function may ask for; "
                "agFunctionSetMaxDynamicShared raises it up to the device's opt-in limit",
                config.shared_memory_bytes, (unsigned long long)shared);
  return AG_SUCCESS;
}

// What both launch forms do once the function is known: the checks, then the backend.
ag_result launch(Function* f, const LaunchConfig& config, ag_stream stream, void** params,
                 void** extra) {
  if (extra) return fail(AG_ERROR_NOT_SUPPORTED, "extra must be NULL; pass arguments in params");
  if (ag_result r = check_dimensions(*f, config)) return r;
  if (!f->params.empty()) {
    if (!params)
      return fail(AG_ERROR_INVALID_VALUE, "params is NULL but the kernel takes %zu parameters",
                  f->params.size());
    for (size_t i = 0; i < f->params.size(); ++i)
      if (!params[i]) return fail(AG_ERROR_INVALID_VALUE, "params[%zu] is NULL", i);
  }
  void* native_stream = nullptr;
  StreamRef s;  // held until the backend has the launch: a destroy waits for it
  if (stream) {
    if (ag_result r = get_stream(stream, &s)) return r;
    if (s->device != f->device)
      return fail(AG_ERROR_INVALID_VALUE, "the stream is on device %d, the function on device %d",
                  s->device->ordinal, f->device->ordinal);
    native_stream = s->native;
  }
  return f->device->impl->launch(f->native, config, params, native_stream);
}

}  // namespace

extern "C" {

ag_result agLaunchKernel(ag_function function, unsigned int grid_x, unsigned int grid_y,
                         unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                         unsigned int block_z, unsigned int shared_memory_bytes, ag_stream stream,
                         void** params, void** extra) try {
  AG_DEVICE_ENTRY();
  FunctionRef f;
  if (ag_result r = get_function(function, &f)) return r;
  return launch(
      f.get(),
      LaunchConfig{{grid_x, grid_y, grid_z}, {block_x, block_y, block_z}, shared_memory_bytes},
      stream, params, extra);
} catch (...) {
  return fail_from_exception();
}

ag_result agLaunchKernelChecked(ag_function function, unsigned int grid_x, unsigned int grid_y,
                                unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                unsigned int block_z, unsigned int shared_memory_bytes,
                                ag_stream stream, void** params, size_t param_count,
                                void** extra) try {
  AG_DEVICE_ENTRY();
  FunctionRef f;
  if (ag_result r = get_function(function, &f)) return r;
  if (!f->params_known)
    return fail(AG_ERROR_NOT_SUPPORTED,
                "the code object records no parameter layout for this kernel, so the count "
                "cannot be checked; launch it with agLaunchKernel");
  if (param_count != f->params.size())
    return fail(AG_ERROR_INVALID_VALUE,
                "param_count is %zu but the kernel takes %zu parameters; pass one params entry "
                "per parameter",
                param_count, f->params.size());
  return launch(
      f.get(),
      LaunchConfig{{grid_x, grid_y, grid_z}, {block_x, block_y, block_z}, shared_memory_bytes},
      stream, params, extra);
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
