// One Level Zero GPU behind the backend interface. The context is its driver's (one per driver,
// owned by the backend); streams are in-order immediate command lists; synchronous operations go
// through one more immediate command list of the device's own, then wait for it.
#pragma once

#include <condition_variable>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "level_zero_api.h"
#include "level_zero_assert_reports.h"
#include "level_zero_result.h"
#include "shim/core/backend.h"

namespace anygpu::level_zero {

struct ZeStream;
struct ZeEvent;

class LevelZeroDevice final : public DeviceBackend {
 public:
  LevelZeroDevice(const LevelZeroFunctions& ze, ze_driver_handle_t driver,
                  ze_context_handle_t context, ze_device_handle_t device)
      : ze_(ze), driver_(driver), context_(context), device_(device), asserts_(ze, context) {}
  ~LevelZeroDevice() override;

  // Reads the properties once, at enumeration; the failed call is in the detail.
  // `api_version`: its driver's (zeDriverGetApiVersion), major << 16 | minor.
  ag_result query_properties(const ze_device_properties_t& properties, uint32_t api_version);

  ag_device_properties properties() override;
  DeviceTarget code_target() const override;
  ag_result synchronize() override;

  ag_result mem_alloc(size_t bytes, void** pointer) override;
  ag_result mem_free(void* pointer) override;
  ag_result host_alloc(size_t bytes, void** pointer) override;
  ag_result host_free(void* pointer) override;
  ag_result mem_info(size_t* free_bytes, size_t* total_bytes) override;
  // Shared allocations of the device; prefetch and advice on its lists.
  ag_result managed_alloc(size_t bytes, void** pointer) override;
  ag_result prefetch(const void* pointer, size_t bytes, bool to_host, void* stream) override;
  ag_result advise(const void* pointer, size_t bytes, ag_mem_advice advice, bool for_host) override;
  ag_result copy(CopyKind kind, void* dst, const void* src, size_t bytes, void* stream) override;
  ag_result copy_pitched(CopyKind kind, const PitchedCopy& c, void* stream) override;
  ag_result fill(void* dst, uint32_t value, unsigned element_size, size_t count,
                 void* stream) override;
  // level_zero_peer.cpp
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

  // level_zero_native.cpp
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
  // level_zero_function.cpp. Occupancy is the runtime's model: the core API has no calculator.
  ag_result function_attributes(void* function, FunctionAttributes& attributes) override;

 private:
  // `priority` a ZE_COMMAND_QUEUE_PRIORITY_*.
  ag_result create_list(ze_command_list_handle_t* list, uint32_t priority);
  // `list` nullptr: a list of its own, else the application's list (adopted, never destroyed).
  ag_result create_stream(ZeStream** stream, uint32_t priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
                          ze_command_list_handle_t list = nullptr);
  // Adds a made stream to those synchronize() waits for.
  void track_stream(ZeStream* stream);
  ag_result destroy_stream(ZeStream* stream);
  // Waits for (or, `wait` false, asks about) the work appended to the stream; its lock is held.
  ag_result finish(ZeStream* stream, bool wait);
  // copy() without the report of failed assertions.
  ag_result copy_on(void* stream, void* dst, const void* src, size_t bytes);
  // synchronize() without the report of failed assertions.
  ag_result wait_for_all_streams();
  // `waited` when it succeeded, else AG_ERROR_LAUNCH_FAILED for a failed assertion.
  ag_result after_wait(ag_result waited) { return waited ? waited : asserts_.check(); }
  ag_result destroy_event(ZeEvent* event);
  void reap_events();
  // Runs `append` on the stream's list (under its lock), or on the device's own list followed by
  // a wait when `stream` is nullptr.
  template <typename Append>
  ag_result on_stream(void* stream, Append&& append);

  const LevelZeroFunctions& ze_;
  ze_driver_handle_t driver_;
  ze_context_handle_t context_;
  ze_device_handle_t device_;
  ag_device_properties properties_{};
  uint64_t timer_resolution_ns_ = 1;
  uint32_t timestamp_bits_ = 64;
  std::vector<uint32_t> subgroup_sizes_;  // zeDeviceGetComputeProperties' subGroupSizes

  std::mutex sync_mutex_;  // creates the device's own stream
  ZeStream* sync_stream_ = nullptr;
  std::mutex streams_mutex_;  // guards the list only; never held across a wait for the device
  std::unordered_set<ZeStream*> streams_;
  std::condition_variable synchronized_;  // a synchronize() let go of its streams
  std::mutex graveyard_mutex_;
  std::vector<void*> graveyard_;  // events destroyed while a signal was pending
  AssertReports asserts_;
};

}  // namespace anygpu::level_zero
