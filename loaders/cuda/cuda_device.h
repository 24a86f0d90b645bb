// One CUDA device behind the backend interface. Its primary context is retained on first use,
// so a process that never touches a GPU creates no context on it.
#pragma once

#include <atomic>
#include <mutex>

#include "cuda_api.h"
#include "cuda_context.h"
#include "cuda_result.h"
#include "shim/core/backend.h"

namespace anygpu::cuda {

class CudaDevice final : public DeviceBackend {
 public:
  CudaDevice(const CudaFunctions& cu, CUdevice device, int driver_version)
      : cu_(cu), device_(device), driver_version_(driver_version) {}

  // Reads the properties once, at enumeration; false with the failed call in the detail.
  ag_result query_properties();

  ag_device_properties properties() override;
  DeviceTarget code_target() const override;
  ag_result synchronize() override;

  ag_result mem_alloc(size_t bytes, void** pointer) override;
  ag_result mem_free(void* pointer) override;
  ag_result host_alloc(size_t bytes, void** pointer) override;
  ag_result host_free(void* pointer) override;
  ag_result mem_info(size_t* free_bytes, size_t* total_bytes) override;
  // cuda_managed.cpp
  ag_result managed_alloc(size_t bytes, void** pointer) override;
  ag_result prefetch(const void* pointer, size_t bytes, bool to_host, void* stream) override;
  ag_result advise(const void* pointer, size_t bytes, ag_mem_advice advice, bool for_host) override;
  ag_result copy(CopyKind kind, void* dst, const void* src, size_t bytes, void* stream) override;
  ag_result copy_pitched(CopyKind kind, const PitchedCopy& c, void* stream) override;
  ag_result fill(void* dst, uint32_t value, unsigned element_size, size_t count,
                 void* stream) override;
  // cuda_pool.cpp: anygpu's pools are driver pools where the device has them.
  bool driver_pools() const override { return properties_.stream_ordered_allocation != 0; }
  ag_result pool_create(uint64_t release_threshold, void** pool) override;
  ag_result pool_destroy(void* pool) override;
  ag_result pool_alloc(void* pool, size_t bytes, void* stream, void** pointer) override;
  ag_result pool_free(void* pointer, void* stream) override;
  ag_result pool_trim(void* pool, size_t keep) override;
  ag_result pool_set_release_threshold(void* pool, uint64_t bytes) override;
  ag_result pool_usage(void* pool, uint64_t* used, uint64_t* reserved) override;
  // cuda_peer.cpp
  ag_result can_access_peer(DeviceBackend& peer, bool* can_access) override;
  ag_result enable_peer_access(DeviceBackend& peer) override;
  ag_result disable_peer_access(DeviceBackend& peer) override;
  ag_result copy_peer(void* dst, DeviceBackend& dst_device, const void* src,
                      DeviceBackend& src_device, size_t bytes, void* stream) override;

  ag_result stream_create(unsigned flags, void** stream) override;
  ag_result stream_priority_range(int* least, int* greatest) override;
  ag_result stream_create_with_priority(int priority, void** stream) override;
  ag_result stream_destroy(void* stream) override;
  ag_result stream_synchronize(void* stream) override;
  ag_result stream_query(void* stream) override;
  ag_result stream_wait_event(void* stream, void* event) override;
  ag_result launch_host_func(void* stream, void (*fn)(void*), void* data) override;

  ag_result native_device(ag_native_device& native) override;
  ag_result stream_native(void* stream, void** native) override;
  ag_result event_native(void* event, void** native) override;
  ag_result stream_adopt(void* native, void** stream, int* priority) override;
  ag_result stream_release(void* stream) override;

  ag_result event_create(unsigned flags, void** event) override;
  ag_result event_destroy(void* event) override;
  ag_result event_record(void* event, void* stream) override;
  ag_result event_synchronize(void* event) override;
  ag_result event_query(void* event) override;
  ag_result event_elapsed(float* milliseconds, void* start, void* end) override;

  ag_result module_load(const CodeObject& code, void** module) override;
  ag_result module_unload(void* module) override;
  ag_result module_get_function(void* module, const char* name, void** function,
                                std::vector<ag_param_info>& layout, bool& layout_known) override;
  ag_result module_get_global(void* module, const char* name, void** pointer,
                              size_t* bytes) override;
  ag_result launch(void* function, const LaunchConfig& config, void** params,
                   void* stream) override;

  // cuda_function.cpp: attributes and occupancy, from the driver.
  ag_result function_attributes(void* function, FunctionAttributes& attributes) override;
  ag_result function_set_max_dynamic_shared(void* function, size_t bytes) override;
  bool driver_occupancy() const override { return true; }
  ag_result occupancy_max_active_blocks(void* function, int block_size, size_t dynamic_shared,
                                        int* blocks) override;
  ag_result occupancy_max_potential_block_size(void* function, size_t dynamic_shared,
                                               int block_size_limit, int* min_grid_size,
                                               int* block_size) override;

 private:
  // Runs `call` with the primary context current (see ContextScope).
  template <typename Call>
  ag_result in_context(Call&& call) {
    CUcontext context = nullptr;
    if (ag_result r = primary_context(&context)) return r;
    ContextScope scope(cu_, context);
    if (scope.result() != CUDA_SUCCESS) return cuda_fail(scope.result(), scope.call());
    return call();
  }
  // The primary context, retained on first use.
  ag_result primary_context(CUcontext* context) {
    *context = context_.load(std::memory_order_acquire);
    return *context ? AG_SUCCESS : retain_context(context);
  }
  ag_result retain_context(CUcontext* context);
  // Whether the driver has every call a driver pool needs (CUDA 11.2).
  bool has_pool_functions() const;
  // Waits for the legacy default stream, which the synchronous forms use.
  ag_result finish_default_stream();

  const CudaFunctions& cu_;
  CUdevice device_;
  int driver_version_;
  ag_device_properties properties_{};
  std::mutex context_mutex_;
  std::atomic<CUcontext> context_{nullptr};
};

}  // namespace anygpu::cuda
