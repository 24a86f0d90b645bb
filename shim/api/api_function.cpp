// A function's attributes, its dynamic shared memory limit, and occupancy.
#include "shim/api/api_common.h"
#include "shim/core/function_limits.h"
#include "shim/core/occupancy_model.h"

using namespace anygpu;

namespace {

// What both occupancy calls refuse alike: shared memory no launch of the function could have.
ag_result require_launchable_shared(const Function& f, size_t dynamic_shared_bytes) {
  const uint64_t allowed = f.max_dynamic_shared.load(std::memory_order_relaxed);
  if (dynamic_shared_bytes > allowed)
    return fail(AG_ERROR_INVALID_VALUE,
                "%zu bytes of dynamic shared memory exceed the %llu a launch of this function may "
                "ask for; raise the limit with agFunctionSetMaxDynamicShared first",
                dynamic_shared_bytes, (unsigned long long)allowed);
  return AG_SUCCESS;
}

}  // namespace

extern "C" {

ag_result agFunctionGetAttributes(ag_function function, ag_function_attributes* attributes) try {
  AG_DEVICE_ENTRY();
  FunctionRef f;
  if (ag_result r = get_function(function, &f)) return r;
  if (ag_result r = require_pointer(attributes, "attributes")) return r;
  ag_function_attributes a{};
  a.max_threads_per_block = function_max_threads(*f);
  a.registers_per_thread = f->attributes.registers_per_thread;
  a.static_shared_bytes = f->attributes.static_shared_bytes;
  a.max_dynamic_shared_bytes = f->max_dynamic_shared.load(std::memory_order_relaxed);
  a.const_bytes = f->attributes.const_bytes;
  a.local_bytes_per_thread = f->attributes.local_bytes_per_thread;
  a.binary_version = f->attributes.binary_version;
  return write_versioned(attributes, a, "attributes");
} catch (...) {
  return fail_from_exception();
}

ag_result agFunctionSetMaxDynamicShared(ag_function function, size_t bytes) try {
  AG_DEVICE_ENTRY();
  FunctionRef f;
  if (ag_result r = get_function(function, &f)) return r;
  const uint64_t most = optin_max_dynamic_shared(*f);
  if (bytes > most)
    return fail(AG_ERROR_INVALID_VALUE,
                "%zu bytes exceed the %llu this function may opt in to (the device's "
                "shared_memory_per_block_optin less %llu bytes of static shared memory)",
                bytes, (unsigned long long)most,
                (unsigned long long)f->attributes.static_shared_bytes);
  // One setter at a time, so that the driver's limit and the runtime's agree.
  static std::mutex setting;
  std::lock_guard<std::mutex> lock(setting);
  if (ag_result r = f->device->impl->function_set_max_dynamic_shared(f->native, bytes)) return r;
  f->max_dynamic_shared.store(bytes, std::memory_order_relaxed);
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agOccupancyMaxActiveBlocksPerMultiprocessor(ag_function function, int block_size,
                                                      size_t dynamic_shared_bytes,
                                                      int* blocks) try {
  AG_DEVICE_ENTRY();
  FunctionRef f;
  if (ag_result r = get_function(function, &f)) return r;
  if (ag_result r = require_pointer(blocks, "blocks")) return r;
  const int most = function_max_threads(*f);
  if (block_size < 1 || block_size > most)
    return fail(AG_ERROR_INVALID_VALUE,
                "block_size is %d; it must be 1 to %d, this function's max_threads_per_block",
                block_size, most);
  if (ag_result r = require_launchable_shared(*f, dynamic_shared_bytes)) return r;
  int answer = 0;
  if (ag_result r = f->device->impl->occupancy_max_active_blocks(f->native, block_size,
                                                                 dynamic_shared_bytes, &answer))
    return r;
  *blocks = answer;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

ag_result agOccupancyMaxPotentialBlockSize(ag_function function, size_t dynamic_shared_bytes,
                                           int block_size_limit, int* min_grid_size,
                                           int* block_size) try {
  AG_DEVICE_ENTRY();
  FunctionRef f;
  if (ag_result r = get_function(function, &f)) return r;
  if (ag_result r = require_pointer(min_grid_size, "min_grid_size")) return r;
  if (ag_result r = require_pointer(block_size, "block_size")) return r;
  if (block_size_limit < 0)
    return fail(AG_ERROR_INVALID_VALUE, "block_size_limit is %d; pass 0 for no limit",
                block_size_limit);
  if (ag_result r = require_launchable_shared(*f, dynamic_shared_bytes)) return r;
  DeviceBackend& backend = *f->device->impl;
  const ag_device_properties& device = f->device->properties;
  int grid = 0, size = 0;
  if (backend.driver_occupancy()) {
    if (ag_result r = backend.occupancy_max_potential_block_size(f->native, dynamic_shared_bytes,
                                                                 block_size_limit, &grid, &size))
      return r;
  } else {
    const BlockSizeSearch search{function_max_threads(*f), device.warp_size, device.compute_units,
                                 block_size_limit};
    if (ag_result r =
            search_block_size(backend, f->native, search, dynamic_shared_bytes, &grid, &size))
      return r;
  }
  *min_grid_size = grid;
  *block_size = size;
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
