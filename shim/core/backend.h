// The backend interface: what shim/ asks of a vendor backend. One Backend per vendor, one
// DeviceBackend per device. Native objects (streams, events, modules, functions) are opaque
// pointers owned by the backend. Arguments arrive already checked by the shim; a backend checks
// only what needs the driver, and reports failures through anygpu::fail().
#pragma once

#include <anygpu/anygpu.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "shim/code_object/code_fit.h"
#include "shim/code_object/code_object.h"
#include "shim/core/pitched_copy.h"
#include "shim/core/runtime_compiler.h"

namespace anygpu {

enum class CopyKind { host_to_device, device_to_host, device_to_device };

// What a compiled kernel needs (agFunctionGetAttributes). Zero where the driver does not say.
struct FunctionAttributes {
  int max_threads_per_block = 0;  // 0: the device's limit
  int registers_per_thread = 0;
  uint64_t static_shared_bytes = 0;
  uint64_t const_bytes = 0;
  uint64_t local_bytes_per_thread = 0;
  int binary_version = 0;
};

struct LaunchConfig {
  unsigned grid[3];
  unsigned block[3];
  unsigned shared_memory_bytes;
};

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;

  // The device's properties; the shim fills struct_size and ordinal.
  virtual ag_device_properties properties() = 0;
  // What code the device runs, for selection by its backend's CodeFitRules.
  virtual DeviceTarget code_target() const = 0;
  // Waits for all work submitted to the device before the call. Like every wait for device work,
  // it holds no lock that creating or destroying other objects takes.
  virtual ag_result synchronize() = 0;

  virtual ag_result mem_alloc(size_t bytes, void** pointer) = 0;
  virtual ag_result mem_free(void* pointer) = 0;
  virtual ag_result host_alloc(size_t bytes, void** pointer) = 0;
  virtual ag_result host_free(void* pointer) = 0;
  virtual ag_result mem_info(size_t* free_bytes, size_t* total_bytes) = 0;
  // Managed memory (agMemAllocManaged), freed by mem_free. Reached only where the properties say
  // managed_memory.
  virtual ag_result managed_alloc(size_t bytes, void** pointer) { return AG_ERROR_NOT_SUPPORTED; }
  // Hints on a range of one managed allocation, checked; by default they change nothing.
  // `to_host` false: towards this device. `stream` is this device's.
  virtual ag_result prefetch(const void* pointer, size_t bytes, bool to_host, void* stream) {
    return AG_SUCCESS;
  }
  // `for_host` false: advice for this device.
  virtual ag_result advise(const void* pointer, size_t bytes, ag_mem_advice advice, bool for_host) {
    return AG_SUCCESS;
  }
  // `stream` nullptr: synchronous.
  virtual ag_result copy(CopyKind kind, void* dst, const void* src, size_t bytes, void* stream) = 0;
  // A 2-D or 3-D copy, arguments checked; `stream` nullptr: synchronous. By default one copy()
  // for contiguous rows, else one per row; a backend whose driver copies boxes overrides it.
  virtual ag_result copy_pitched(CopyKind kind, const PitchedCopy& c, void* stream) {
    if (c.contiguous()) return copy(kind, c.dst, c.src, c.width * c.height * c.depth, stream);
    ag_result result = AG_SUCCESS;
    c.for_each_row([&](void* dst, const void* src) {
      if (result == AG_SUCCESS) result = copy(kind, dst, src, c.width, stream);
    });
    return result;
  }
  // Peers (agDeviceCanAccessPeer and the calls beside it). `peer` is another device of this
  // device's backend, never this one. By default there are no peers.
  virtual ag_result can_access_peer(DeviceBackend& peer, bool* can_access) {
    *can_access = false;
    return AG_SUCCESS;
  }
  // Reached only where can_access_peer said yes; the shim keeps which peers are enabled.
  virtual ag_result enable_peer_access(DeviceBackend& peer) { return AG_ERROR_NOT_SUPPORTED; }
  virtual ag_result disable_peer_access(DeviceBackend& peer) { return AG_ERROR_NOT_SUPPORTED; }
  // Copies from `src` on `src_device` to `dst` on `dst_device`, both of this backend and one of
  // them this device (whose `stream` it is; nullptr: synchronous). AG_ERROR_NOT_SUPPORTED, with no
  // detail: the driver cannot, and the shim copies through host memory instead.
  virtual ag_result copy_peer(void* dst, DeviceBackend& dst_device, const void* src,
                              DeviceBackend& src_device, size_t bytes, void* stream) {
    return AG_ERROR_NOT_SUPPORTED;
  }
  // The driver's stream-ordered allocator (cuMemAllocFromPoolAsync, hipMallocFromPoolAsync), where
  // the backend uses it: each anygpu pool, the default one too, is a driver pool of anygpu's own.
  // False: the core's pool (mem_pool.h) serves the pool calls.
  virtual bool driver_pools() const { return false; }
  virtual ag_result pool_create(uint64_t release_threshold, void** pool) {
    return AG_ERROR_NOT_SUPPORTED;
  }
  // Allocations still live are the driver's to release once freed.
  virtual ag_result pool_destroy(void* pool) { return AG_ERROR_NOT_SUPPORTED; }
  // `bytes` non-zero, `stream` this device's.
  virtual ag_result pool_alloc(void* pool, size_t bytes, void* stream, void** pointer) {
    return AG_ERROR_NOT_SUPPORTED;
  }
  // `stream` nullptr: the device is idle (agMemFree), free it at once.
  virtual ag_result pool_free(void* pointer, void* stream) { return AG_ERROR_NOT_SUPPORTED; }
  virtual ag_result pool_trim(void* pool, size_t keep) { return AG_ERROR_NOT_SUPPORTED; }
  virtual ag_result pool_set_release_threshold(void* pool, uint64_t bytes) {
    return AG_ERROR_NOT_SUPPORTED;
  }
  virtual ag_result pool_usage(void* pool, uint64_t* used, uint64_t* reserved) {
    return AG_ERROR_NOT_SUPPORTED;
  }
  // True where device memory is host memory (the CPU device): another device's copy reads or
  // writes it as host memory.
  virtual bool memory_is_host() const { return false; }
  // `count` elements of `element_size` bytes (1, 2 or 4) set to the low bytes of `value`.
  virtual ag_result fill(void* dst, uint32_t value, unsigned element_size, size_t count,
                         void* stream) = 0;

  virtual ag_result stream_create(unsigned flags, void** stream) = 0;
  // The priorities streams may have (agDeviceGetStreamPriorityRange); none by default.
  virtual ag_result stream_priority_range(int* least, int* greatest) {
    *least = *greatest = 0;
    return AG_SUCCESS;
  }
  // A stream of `priority`, already clamped to the range; where there are none, a plain stream.
  virtual ag_result stream_create_with_priority(int priority, void** stream) {
    return stream_create(0, stream);
  }
  virtual ag_result stream_destroy(void* stream) = 0;
  virtual ag_result stream_synchronize(void* stream) = 0;
  virtual ag_result stream_query(void* stream) = 0;
  virtual ag_result stream_wait_event(void* stream, void* event) = 0;
  // Queues `fn(data)` on the stream, on a thread that is not the caller's: it runs once the
  // stream's earlier work has completed, and the stream's later work waits for it to return.
  // Once this succeeds, `fn` is called once. The CPU and Level Zero backends call it even after a
  // device failure, so that what `data` holds is released; CUDA and HIP do as their driver does.
  virtual ag_result launch_host_func(void* stream, void (*fn)(void*), void* data) = 0;

  // Native objects (agDeviceGetNativeHandle and the calls beside it). A backend without them (the
  // CPU) keeps these defaults: AG_ERROR_NOT_SUPPORTED, and the shim writes the detail.
  // `native` arrives zeroed but for struct_size and backend; the backend fills what it has.
  virtual ag_result native_device(ag_native_device& native) { return AG_ERROR_NOT_SUPPORTED; }
  virtual ag_result stream_native(void* stream, void** native) { return AG_ERROR_NOT_SUPPORTED; }
  virtual ag_result event_native(void* event, void** native) { return AG_ERROR_NOT_SUPPORTED; }
  // A stream over the application's `native` one (non-null); AG_ERROR_INVALID_VALUE, with a
  // detail, where the driver says it is not the device's. `priority` receives its priority.
  virtual ag_result stream_adopt(void* native, void** stream, int* priority) {
    return AG_ERROR_NOT_SUPPORTED;
  }
  // Destroys an adopted stream: waits for its work and leaves the native stream to its owner.
  virtual ag_result stream_release(void* stream) { return AG_ERROR_NOT_SUPPORTED; }

  // `flags`: checked ag_event_flags bits, which a backend may use or ignore.
  virtual ag_result event_create(unsigned flags, void** event) = 0;
  virtual ag_result event_destroy(void* event) = 0;
  virtual ag_result event_record(void* event, void* stream) = 0;
  virtual ag_result event_synchronize(void* event) = 0;
  virtual ag_result event_query(void* event) = 0;
  virtual ag_result event_elapsed(float* milliseconds, void* start, void* end) = 0;

  virtual ag_result module_load(const CodeObject& code, void** module) = 0;
  // Launches already queued must still run: the backend keeps their code alive (the CPU by
  // reference from each queued launch) or waits for them (the GPU backends synchronize first).
  // No lock of the runtime may be held across that wait.
  virtual ag_result module_unload(void* module) = 0;
  // `layout` receives the parameter layout; `layout_known` false where the code object records
  // none (then `layout` is empty and says nothing).
  virtual ag_result module_get_function(void* module, const char* name, void** function,
                                        std::vector<ag_param_info>& layout, bool& layout_known) = 0;
  // The module-scope variable `name`: its device address and size (both written on success
  // only). AG_ERROR_NOT_FOUND, with a detail, when the module has none.
  virtual ag_result module_get_global(void* module, const char* name, void** pointer,
                                      size_t* bytes) = 0;
  // Asked once, when the function's handle is made.
  virtual ag_result function_attributes(void* function, FunctionAttributes& attributes) = 0;
  // Tells the driver that launches may ask for up to `bytes` of dynamic shared memory, already
  // checked against the device's opt-in limit. Only drivers with an opt-in need to hear it.
  virtual ag_result function_set_max_dynamic_shared(void* function, size_t bytes) {
    return AG_SUCCESS;
  }
  // True where the driver computes occupancy (the two calls below); otherwise the runtime's own
  // model answers: one resident block per compute unit.
  virtual bool driver_occupancy() const { return false; }
  // Arguments already checked: block_size within the function's limit, the shared memory within
  // what a launch may ask for.
  virtual ag_result occupancy_max_active_blocks(void* function, int block_size,
                                                size_t dynamic_shared, int* blocks) {
    *blocks = 1;
    return AG_SUCCESS;
  }
  virtual ag_result occupancy_max_potential_block_size(void* function, size_t dynamic_shared,
                                                       int block_size_limit, int* min_grid_size,
                                                       int* block_size) {
    return AG_ERROR_NOT_SUPPORTED;  // not reached: driver_occupancy() is false
  }
  // `stream` nullptr: run to completion before returning.
  virtual ag_result launch(void* function, const LaunchConfig& config, void** params,
                           void* stream) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Loads the driver and enumerates devices; false with `reason` when it cannot be used.
  virtual bool load(std::string& reason) = 0;
  // The library loaded or last tried ("" when none).
  virtual std::string library() const = 0;
  virtual int device_count() const = 0;
  virtual DeviceBackend& device(int index) = 0;
};

// What a backend says of itself: one constant in its folder, listed once in
// loaders/backend_list.inc. Nothing outside loaders/ asks which backend a device has.
struct BackendDescriptor {
  ag_backend_kind kind;
  const char* name;     // "level_zero": ANYGPU_BACKENDS, ag_backend_info.name
  const char* label;    // "Level Zero": ag_backend_info.label, anygpu-info
  const char* aliases;  // other names ANYGPU_BACKENDS takes, comma-separated ("ze,levelzero")
  std::unique_ptr<Backend> (*make)();
  CodeFitRulesFactory code_rules;  // what its devices run, and how to say so
  // Its run-time compiler (runtime_compiler.h); nullptr where the backend has none.
  RuntimeCompilerFactory compiler;
};

}  // namespace anygpu
