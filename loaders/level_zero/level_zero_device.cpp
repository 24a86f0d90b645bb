#include "level_zero_device.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>

#include "level_zero_host_functions.h"
#include "level_zero_module.h"
#include "level_zero_objects.h"
#include "shim/core/error.h"
#include "shim/kernel_build/spirv_subgroup_size.h"

namespace anygpu::level_zero {

namespace {

ZeStream* as_stream(void* stream) {
  return static_cast<ZeStream*>(stream);
}
ZeEvent* as_event(void* event) {
  return static_cast<ZeEvent*>(event);
}

// Minimum alignment of allocations, as CUDA gives.
constexpr size_t kAllocationAlignment = 256;

}  // namespace

LevelZeroDevice::~LevelZeroDevice() {
  // Backends live until exit; a list left is destroyed when the driver tears the context down.
}

ag_result LevelZeroDevice::query_properties(const ze_device_properties_t& device,
                                            uint32_t api_version) {
  ag_device_properties& p = properties_;
  p.driver_version = static_cast<int>(api_version);
  snprintf(p.name, sizeof p.name, "%.*s", static_cast<int>(sizeof device.name), device.name);
  if (device.vendorId == 0x8086)
    snprintf(p.vendor, sizeof p.vendor, "Intel");
  else
    snprintf(p.vendor, sizeof p.vendor, "PCI vendor 0x%04x", device.vendorId);
  snprintf(p.architecture, sizeof p.architecture, "spirv64 (device 0x%04x)", device.deviceId);
  p.compute_units =
      static_cast<int>(device.numSlices * device.numSubslicesPerSlice * device.numEUsPerSubslice);
  // The core API says no more: the PCI address and the caches are in extensions or calls anygpu
  // does not load (docs/level-zero-backend.md).
  memcpy(p.uuid, device.uuid, sizeof p.uuid);
  p.clock_rate_khz =
      static_cast<int>(std::min<uint64_t>(device.coreClockRate * 1000ull, INT32_MAX));
  p.pci_domain_id = p.pci_bus_id = p.pci_device_id = -1;
  timer_resolution_ns_ = device.timerResolution ? device.timerResolution : 1;
  timestamp_bits_ = device.kernelTimestampValidBits ? device.kernelTimestampValidBits : 64;

  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  if (ze_result_t r = ze_.zeDeviceGetComputeProperties(device_, &compute))
    return ze_fail(r, "zeDeviceGetComputeProperties");
  auto clamp = [](uint32_t value) {
    return static_cast<int>(std::min<uint32_t>(value, INT32_MAX));
  };
  p.max_threads_per_block = clamp(compute.maxTotalGroupSize);
  p.max_block_dim[0] = clamp(compute.maxGroupSizeX);
  p.max_block_dim[1] = clamp(compute.maxGroupSizeY);
  p.max_block_dim[2] = clamp(compute.maxGroupSizeZ);
  p.max_grid_dim[0] = clamp(compute.maxGroupCountX);
  p.max_grid_dim[1] = clamp(compute.maxGroupCountY);
  p.max_grid_dim[2] = clamp(compute.maxGroupCountZ);
  p.shared_memory_per_block = compute.maxSharedLocalMemory;
  // Kernels with warp functions require 32-lane sub-groups (spirv_subgroup_size.h): that is the
  // warp size where the device offers it; elsewhere such kernels do not load, and the widest size
  // is what a kernel compiled without a request may get.
  subgroup_sizes_.assign(compute.subGroupSizes,
                         compute.subGroupSizes + std::min<uint32_t>(compute.numSubGroupSizes, 8));
  uint32_t widest = 0;
  for (uint32_t size : subgroup_sizes_) widest = std::max(widest, size);
  const bool offers_warp =
      std::count(subgroup_sizes_.begin(), subgroup_sizes_.end(), kSpirvWarpLanes) > 0;
  p.warp_size = offers_warp ? static_cast<int>(kSpirvWarpLanes)
                : widest    ? static_cast<int>(widest)
                            : 1;

  uint32_t count = 0;
  if (ze_result_t r = ze_.zeDeviceGetMemoryProperties(device_, &count, nullptr))
    return ze_fail(r, "zeDeviceGetMemoryProperties");
  std::vector<ze_device_memory_properties_t> memories(count);
  for (auto& m : memories) {
    m = {};
    m.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  }
  if (count) {
    if (ze_result_t r = ze_.zeDeviceGetMemoryProperties(device_, &count, memories.data()))
      return ze_fail(r, "zeDeviceGetMemoryProperties");
  }
  p.total_memory = 0;
  for (uint32_t i = 0; i < count && i < memories.size(); ++i)
    p.total_memory += memories[i].totalSize;

  // Shared allocations of one device are anygpu's managed memory.
  ze_device_memory_access_properties_t access{};
  access.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES;
  if (ze_result_t r = ze_.zeDeviceGetMemoryAccessProperties(device_, &access))
    return ze_fail(r, "zeDeviceGetMemoryAccessProperties");
  const uint32_t shared = access.sharedSingleDeviceAllocCapabilities;
  p.managed_memory = (shared & ZE_MEMORY_ACCESS_CAP_FLAG_RW) ? 1 : 0;
  p.concurrent_managed_access = (shared & ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT) ? 1 : 0;
  p.backend = AG_BACKEND_LEVEL_ZERO;
  return AG_SUCCESS;
}

ag_device_properties LevelZeroDevice::properties() {
  return properties_;
}

DeviceTarget LevelZeroDevice::code_target() const {
  return DeviceTarget{properties_.architecture, 0};
}

ag_result LevelZeroDevice::create_list(ze_command_list_handle_t* list, uint32_t priority) {
  ze_command_queue_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  desc.ordinal = 0;  // the first queue group, compute on every Intel GPU
  desc.index = 0;
  desc.flags = ZE_COMMAND_QUEUE_FLAG_IN_ORDER;
  desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  desc.priority = priority;
  return ze_fail(ze_.zeCommandListCreateImmediate(context_, device_, &desc, list),
                 "zeCommandListCreateImmediate");
}

ag_result LevelZeroDevice::create_stream(ZeStream** stream, uint32_t priority,
                                         ze_command_list_handle_t list) {
  auto created = std::make_unique<ZeStream>();
  created->adopted = created->shared = list != nullptr;
  if (list)
    created->list = list;
  else if (ag_result r = create_list(&created->list, priority))
    return r;
  // Only the list anygpu made is destroyed on the failures below.
  auto destroy_list = [&] {
    if (!created->adopted) ze_.zeCommandListDestroy(created->list);
  };
  ze_event_pool_desc_t pool_desc{};
  pool_desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
  pool_desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
  pool_desc.count = 1;
  if (ze_result_t r = ze_.zeEventPoolCreate(context_, &pool_desc, 1, &device_, &created->pool)) {
    destroy_list();
    return ze_fail(r, "zeEventPoolCreate");
  }
  ze_event_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
  desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
  desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  if (ze_result_t r = ze_.zeEventCreate(created->pool, &desc, &created->done)) {
    ze_.zeEventPoolDestroy(created->pool);
    destroy_list();
    return ze_fail(r, "zeEventCreate");
  }
  *stream = created.release();
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::destroy_stream(ZeStream* s) {
  s->host_functions.reset();  // the stream finished: every function returned
  ze_result_t r = ze_.zeEventDestroy(s->done);
  const char* call = "zeEventDestroy";
  if (ze_result_t p = ze_.zeEventPoolDestroy(s->pool); p && !r) {
    r = p;
    call = "zeEventPoolDestroy";
  }
  if (!s->adopted) {
    if (ze_result_t l = ze_.zeCommandListDestroy(s->list); l && !r) {
      r = l;
      call = "zeCommandListDestroy";
    }
  }
  delete s;
  return ze_fail(r, call);
}

// Called with the stream's lock held. `wait` false: only asks.
ag_result LevelZeroDevice::finish(ZeStream* s, bool wait) {
  bool barrier_passed = false;
  if (s->barrier_pending) {
    const ze_result_t r =
        wait ? ze_.zeEventHostSynchronize(s->done, kWaitForever) : ze_.zeEventQueryStatus(s->done);
    if (r == ZE_RESULT_NOT_READY) return AG_ERROR_NOT_READY;
    if (r) return ze_fail(r, wait ? "zeEventHostSynchronize" : "zeEventQueryStatus");
    s->barrier_pending = false;
    barrier_passed = true;
  }
  // A shared list may hold work `appended` does not know of: a wait always puts a barrier after
  // it. A query that saw its barrier pass answers from that, or polling would never end.
  const bool unknown_work = s->shared.load(std::memory_order_relaxed) && (wait || !barrier_passed);
  if (!s->appended && !unknown_work) {
    if (s->host_functions) s->host_functions->reclaim();  // the list passed all their events
    return AG_SUCCESS;
  }
  if (ze_result_t r = ze_.zeEventHostReset(s->done)) return ze_fail(r, "zeEventHostReset");
  if (ze_result_t r = ze_.zeCommandListAppendBarrier(s->list, s->done, 0, nullptr))
    return ze_fail(r, "zeCommandListAppendBarrier");
  s->appended = false;
  s->barrier_pending = true;
  const ze_result_t r =
      wait ? ze_.zeEventHostSynchronize(s->done, kWaitForever) : ze_.zeEventQueryStatus(s->done);
  if (r == ZE_RESULT_NOT_READY) return AG_ERROR_NOT_READY;
  if (r) return ze_fail(r, wait ? "zeEventHostSynchronize" : "zeEventQueryStatus");
  s->barrier_pending = false;
  if (s->host_functions) s->host_functions->reclaim();  // the list passed all their events
  return AG_SUCCESS;
}

template <typename Append>
ag_result LevelZeroDevice::on_stream(void* stream, Append&& append) {
  if (stream) {
    ZeStream* s = as_stream(stream);
    std::lock_guard<std::mutex> lock(s->mutex);
    ag_result r = append(s->list);
    if (r == AG_SUCCESS) s->appended = true;
    return r;
  }
  std::lock_guard<std::mutex> lock(sync_mutex_);
  if (!sync_stream_) {
    if (ag_result r = create_stream(&sync_stream_)) return r;
  }
  std::lock_guard<std::mutex> stream_lock(sync_stream_->mutex);
  if (ag_result r = append(sync_stream_->list)) return r;
  sync_stream_->appended = true;
  return finish(sync_stream_, true);
}

ag_result LevelZeroDevice::synchronize() {
  return after_wait(wait_for_all_streams());
}

ag_result LevelZeroDevice::wait_for_all_streams() {
  reap_events();
  {
    std::lock_guard<std::mutex> lock(sync_mutex_);
    if (sync_stream_) {
      std::lock_guard<std::mutex> stream_lock(sync_stream_->mutex);
      if (ag_result r = finish(sync_stream_, true)) return r;
    }
  }
  // The list is copied and the waits run without streams_mutex_, so that creating or destroying
  // other streams never waits for a kernel. A stream is claimed only while this waits for it
  // (one destroyed before its turn is skipped), so destroying a stream waits at most for that
  // stream's own work, never for another stream's.
  std::vector<ZeStream*> snapshot;
  {
    std::lock_guard<std::mutex> lock(streams_mutex_);
    snapshot.assign(streams_.begin(), streams_.end());
  }
  ag_result result = AG_SUCCESS;
  for (ZeStream* s : snapshot) {
    {
      std::lock_guard<std::mutex> lock(streams_mutex_);
      if (!streams_.count(s)) continue;  // destroyed meanwhile (only the address is compared)
      ++s->synchronizing;
    }
    {
      std::lock_guard<std::mutex> stream_lock(s->mutex);
      if (result == AG_SUCCESS) result = finish(s, true);
    }
    {
      std::lock_guard<std::mutex> lock(streams_mutex_);
      --s->synchronizing;
    }
    synchronized_.notify_all();
  }
  return result;
}

// ---- memory -------------------------------------------------------------------------------------

ag_result LevelZeroDevice::mem_alloc(size_t bytes, void** pointer) {
  ze_device_mem_alloc_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  return ze_fail(
      ze_.zeMemAllocDevice(context_, &desc, bytes, kAllocationAlignment, device_, pointer),
      "zeMemAllocDevice");
}

ag_result LevelZeroDevice::mem_free(void* pointer) {
  return ze_fail(ze_.zeMemFree(context_, pointer), "zeMemFree");
}

ag_result LevelZeroDevice::host_alloc(size_t bytes, void** pointer) {
  ze_host_mem_alloc_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  return ze_fail(ze_.zeMemAllocHost(context_, &desc, bytes, kAllocationAlignment, pointer),
                 "zeMemAllocHost");
}

ag_result LevelZeroDevice::host_free(void* pointer) {
  return ze_fail(ze_.zeMemFree(context_, pointer), "zeMemFree");
}

ag_result LevelZeroDevice::managed_alloc(size_t bytes, void** pointer) {
  ze_device_mem_alloc_desc_t device_desc{};
  device_desc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  ze_host_mem_alloc_desc_t host_desc{};
  host_desc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  return ze_fail(ze_.zeMemAllocShared(context_, &device_desc, &host_desc, bytes,
                                      kAllocationAlignment, device_, pointer),
                 "zeMemAllocShared");
}

// Level Zero prefetches towards the device only: towards the host there is nothing to append.
ag_result LevelZeroDevice::prefetch(const void* pointer, size_t bytes, bool to_host, void* stream) {
  if (to_host) return AG_SUCCESS;
  return on_stream(stream, [&](ze_command_list_handle_t list) {
    return ze_fail(ze_.zeCommandListAppendMemoryPrefetch(list, pointer, bytes),
                   "zeCommandListAppendMemoryPrefetch");
  });
}

// Read-mostly is Level Zero's read-only advice and the preferred location its own for the
// device; the host as preferred location and accessed-by have no 1.0 advice and change nothing.
ag_result LevelZeroDevice::advise(const void* pointer, size_t bytes, ag_mem_advice advice,
                                  bool for_host) {
  ze_memory_advice_t native = 0;
  switch (advice) {
    case AG_MEM_ADVISE_SET_READ_MOSTLY:
      native = ZE_MEMORY_ADVICE_SET_READ_ONLY;
      break;
    case AG_MEM_ADVISE_UNSET_READ_MOSTLY:
      native = ZE_MEMORY_ADVICE_CLEAR_READ_ONLY;
      break;
    case AG_MEM_ADVISE_SET_PREFERRED_LOCATION:
      if (for_host) return AG_SUCCESS;
      native = ZE_MEMORY_ADVICE_SET_PREFERRED_LOCATION;
      break;
    case AG_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
      if (for_host) return AG_SUCCESS;
      native = ZE_MEMORY_ADVICE_CLEAR_PREFERRED_LOCATION;
      break;
    default:
      return AG_SUCCESS;
  }
  // Advice goes through a list: the device's own, waited for.
  return on_stream(nullptr, [&](ze_command_list_handle_t list) {
    return ze_fail(ze_.zeCommandListAppendMemAdvise(list, device_, pointer, bytes, native),
                   "zeCommandListAppendMemAdvise");
  });
}

ag_result LevelZeroDevice::mem_info(size_t* free_bytes, size_t* total_bytes) {
  // Level Zero's core API has no free-memory query (zes or an extension would be needed): the
  // total is reported for both.
  *total_bytes = properties_.total_memory;
  *free_bytes = properties_.total_memory;
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::copy_on(void* stream, void* dst, const void* src, size_t bytes) {
  // Unified addressing: one call copies in every direction.
  return on_stream(stream, [&](ze_command_list_handle_t list) {
    return ze_fail(ze_.zeCommandListAppendMemoryCopy(list, dst, src, bytes, nullptr, 0, nullptr),
                   "zeCommandListAppendMemoryCopy");
  });
}

ag_result LevelZeroDevice::copy(CopyKind, void* dst, const void* src, size_t bytes, void* stream) {
  const ag_result r = copy_on(stream, dst, src, bytes);
  return stream ? r : after_wait(r);  // a synchronous copy waited for the device
}

// One zeCommandListAppendMemoryCopyRegion for the box. Its pitches and sizes are 32-bit: a box
// beyond them goes row by row.
ag_result LevelZeroDevice::copy_pitched(CopyKind kind, const PitchedCopy& c, void* stream) {
  const size_t most = UINT32_MAX;
  const bool fits = c.width <= most && c.height <= most && c.depth <= most && c.dst_pitch <= most &&
                    c.src_pitch <= most &&
                    (c.depth == 1 || (c.dst_slice() <= most && c.src_slice() <= most));
  if (!fits) return DeviceBackend::copy_pitched(kind, c, stream);
  const ze_copy_region_t region{0,
                                0,
                                0,
                                static_cast<uint32_t>(c.width),
                                static_cast<uint32_t>(c.height),
                                static_cast<uint32_t>(c.depth)};
  const auto dst_slice = static_cast<uint32_t>(c.depth == 1 ? 0 : c.dst_slice());
  const auto src_slice = static_cast<uint32_t>(c.depth == 1 ? 0 : c.src_slice());
  const ag_result r = on_stream(stream, [&](ze_command_list_handle_t list) {
    return ze_fail(ze_.zeCommandListAppendMemoryCopyRegion(
                       list, c.dst, &region, static_cast<uint32_t>(c.dst_pitch), dst_slice, c.src,
                       &region, static_cast<uint32_t>(c.src_pitch), src_slice, nullptr, 0, nullptr),
                   "zeCommandListAppendMemoryCopyRegion");
  });
  return stream ? r : after_wait(r);  // a synchronous copy waited for the device
}

ag_result LevelZeroDevice::fill(void* dst, uint32_t value, unsigned element_size, size_t count,
                                void* stream) {
  // The pattern is the element's bytes: the low bytes of `value` on this little-endian host.
  const ag_result r = on_stream(stream, [&](ze_command_list_handle_t list) {
    return ze_fail(ze_.zeCommandListAppendMemoryFill(list, dst, &value, element_size,
                                                     count * element_size, nullptr, 0, nullptr),
                   "zeCommandListAppendMemoryFill");
  });
  return stream ? r : after_wait(r);  // a synchronous fill waited for the device
}

// ---- streams and events -------------------------------------------------------------------------

ag_result LevelZeroDevice::stream_create(unsigned, void** stream) {
  return stream_create_with_priority(0, stream);
}

// Two of Level Zero's three queue priorities, in CUDA's numbers: 0 normal (the default), -1 high.
// The low one is left out, so that 0 stays the least urgent, as CUDA programs expect.
ag_result LevelZeroDevice::stream_priority_range(int* least, int* greatest) {
  *least = 0;
  *greatest = -1;
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::stream_create_with_priority(int priority, void** stream) {
  ZeStream* created = nullptr;
  if (ag_result r = create_stream(&created, priority < 0 ? ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH
                                                         : ZE_COMMAND_QUEUE_PRIORITY_NORMAL))
    return r;
  track_stream(created);
  *stream = created;
  return AG_SUCCESS;
}

void LevelZeroDevice::track_stream(ZeStream* stream) {
  std::lock_guard<std::mutex> lock(streams_mutex_);
  streams_.insert(stream);
}

ag_result LevelZeroDevice::stream_destroy(void* stream) {
  ZeStream* s = as_stream(stream);
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    if (ag_result r = finish(s, true)) return r;
  }
  {
    std::unique_lock<std::mutex> lock(streams_mutex_);
    streams_.erase(s);
    synchronized_.wait(lock, [s] { return s->synchronizing == 0; });
  }
  return destroy_stream(s);
}

ag_result LevelZeroDevice::stream_synchronize(void* stream) {
  ZeStream* s = as_stream(stream);
  ag_result r = AG_SUCCESS;
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    r = finish(s, true);
  }
  return after_wait(r);
}

ag_result LevelZeroDevice::stream_query(void* stream) {
  ZeStream* s = as_stream(stream);
  ag_result r = AG_SUCCESS;
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    r = finish(s, false);
  }
  return after_wait(r);
}

ag_result LevelZeroDevice::stream_wait_event(void* stream, void* event) {
  ZeEvent* e = as_event(event);
  ZeStream* s = as_stream(stream);
  std::lock_guard<std::mutex> lock(s->mutex);
  if (ze_result_t r = ze_.zeCommandListAppendWaitOnEvents(s->list, 1, &e->event))
    return ze_fail(r, "zeCommandListAppendWaitOnEvents");
  s->appended = true;
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::launch_host_func(void* stream, void (*fn)(void*), void* data) {
  ZeStream* s = as_stream(stream);
  std::lock_guard<std::mutex> lock(s->mutex);
  if (!s->host_functions)
    s->host_functions = std::make_unique<HostFunctionRunner>(ze_, context_, device_);
  const ag_result r = s->host_functions->append(s->list, fn, data);
  s->appended = true;  // the signal may be in the list even when the wait is not
  return r;
}

ag_result LevelZeroDevice::event_create(unsigned flags, void** event) {
  auto* created = new ZeEvent;
  ze_event_pool_desc_t pool_desc{};
  pool_desc.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
  // An event without timing needs no timestamps (agEventElapsedTime refuses it in the core).
  pool_desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
  if (!(flags & AG_EVENT_DISABLE_TIMING)) pool_desc.flags |= ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
  pool_desc.count = 1;
  // For every device of the driver, not this one only: a stream of another of its devices may
  // wait on the event (agStreamWaitEvent), and a pool's events may be used only on its devices.
  if (ze_result_t r = ze_.zeEventPoolCreate(context_, &pool_desc, 0, nullptr, &created->pool)) {
    delete created;
    return ze_fail(r, "zeEventPoolCreate");
  }
  ze_event_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
  desc.index = 0;
  desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
  desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  if (ze_result_t r = ze_.zeEventCreate(created->pool, &desc, &created->event)) {
    ze_.zeEventPoolDestroy(created->pool);
    delete created;
    return ze_fail(r, "zeEventCreate");
  }
  *event = created;
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::destroy_event(ZeEvent* e) {
  ze_result_t r = ze_.zeEventDestroy(e->event);
  const char* call = "zeEventDestroy";
  if (ze_result_t p = ze_.zeEventPoolDestroy(e->pool); p && !r) {
    r = p;
    call = "zeEventPoolDestroy";
  }
  delete e;
  return ze_fail(r, call);
}

// Destroys the events whose destruction waited for a pending signal, once it has landed.
void LevelZeroDevice::reap_events() {
  std::lock_guard<std::mutex> lock(graveyard_mutex_);
  for (size_t i = 0; i < graveyard_.size();) {
    auto* e = static_cast<ZeEvent*>(graveyard_[i]);
    if (ze_.zeEventQueryStatus(e->event) == ZE_RESULT_NOT_READY) {
      ++i;
      continue;
    }
    destroy_event(e);
    graveyard_[i] = graveyard_.back();
    graveyard_.pop_back();
  }
}

// As CUDA allows, an event may be destroyed while a record is pending: a signal must not land in
// a destroyed Level Zero event, so it is destroyed once the signal has landed.
ag_result LevelZeroDevice::event_destroy(void* event) {
  ZeEvent* e = as_event(event);
  reap_events();
  if (e->recorded.load(std::memory_order_acquire) &&
      ze_.zeEventQueryStatus(e->event) == ZE_RESULT_NOT_READY) {
    std::lock_guard<std::mutex> lock(graveyard_mutex_);
    graveyard_.push_back(e);
    return AG_SUCCESS;
  }
  return destroy_event(e);
}

ag_result LevelZeroDevice::event_record(void* event, void* stream) {
  ZeEvent* e = as_event(event);
  const bool again = e->recorded.load(std::memory_order_acquire);
  // A barrier that signals the event writes its timestamps when the work before it is done.
  ag_result r = on_stream(stream, [&](ze_command_list_handle_t list) {
    if (again) {
      if (ze_result_t z = ze_.zeCommandListAppendEventReset(list, e->event))
        return ze_fail(z, "zeCommandListAppendEventReset");
    }
    return ze_fail(ze_.zeCommandListAppendBarrier(list, e->event, 0, nullptr),
                   "zeCommandListAppendBarrier");
  });
  if (r == AG_SUCCESS) e->recorded.store(true, std::memory_order_release);
  return r;
}

ag_result LevelZeroDevice::event_synchronize(void* event) {
  ZeEvent* e = as_event(event);
  return after_wait(
      ze_fail(ze_.zeEventHostSynchronize(e->event, kWaitForever), "zeEventHostSynchronize"));
}

ag_result LevelZeroDevice::event_query(void* event) {
  ZeEvent* e = as_event(event);
  const ze_result_t r = ze_.zeEventQueryStatus(e->event);
  return r == ZE_RESULT_NOT_READY ? AG_ERROR_NOT_READY
                                  : after_wait(ze_fail(r, "zeEventQueryStatus"));
}

ag_result LevelZeroDevice::event_elapsed(float* milliseconds, void* start, void* end) {
  ZeEvent *first = as_event(start), *second = as_event(end);
  ze_kernel_timestamp_result_t stamps[2]{};
  ZeEvent* events[2] = {first, second};
  for (int i = 0; i < 2; ++i) {
    const ze_result_t status = ze_.zeEventQueryStatus(events[i]->event);
    if (status == ZE_RESULT_NOT_READY) return AG_ERROR_NOT_READY;
    if (status) return ze_fail(status, "zeEventQueryStatus");
    if (ze_result_t r = ze_.zeEventQueryKernelTimestamp(events[i]->event, &stamps[i]))
      return ze_fail(r, "zeEventQueryKernelTimestamp");
  }
  // The counter has timestamp_bits_ valid bits and wraps: the difference is taken modulo
  // 2^bits and read as signed (an end recorded before the start gives a negative time).
  const unsigned bits = timestamp_bits_ >= 64 ? 64 : timestamp_bits_;
  uint64_t ticks = stamps[1].global.kernelEnd - stamps[0].global.kernelEnd;
  int64_t signed_ticks = 0;
  if (bits == 64) {
    signed_ticks = static_cast<int64_t>(ticks);
  } else {
    ticks &= (uint64_t{1} << bits) - 1;
    signed_ticks = ticks >= (uint64_t{1} << (bits - 1))
                       ? static_cast<int64_t>(ticks) - (int64_t{1} << bits)
                       : static_cast<int64_t>(ticks);
  }
  *milliseconds = static_cast<float>(static_cast<double>(signed_ticks) *
                                     static_cast<double>(timer_resolution_ns_) / 1e6);
  return AG_SUCCESS;
}

// ---- modules and launch -------------------------------------------------------------------------

ag_result LevelZeroDevice::module_load(const CodeObject& code, void** module) {
  ZeModule* loaded = nullptr;
  if (ag_result r = load_ze_module(ze_, context_, device_, subgroup_sizes_, code, &loaded))
    return r;
  const auto copy_and_wait = [this](void* device, const void* host, size_t bytes) {
    return copy_on(nullptr, device, host, bytes);
  };
  if (ag_result r = asserts_.attach(loaded, copy_and_wait)) {
    unload_ze_module(ze_, loaded);
    return r;
  }
  *module = loaded;
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::module_unload(void* module) {
  // Queued launches may still use the code; a failed assertion is for a wait to report.
  if (ag_result r = wait_for_all_streams()) return r;
  asserts_.detach(static_cast<ZeModule*>(module));
  return unload_ze_module(ze_, static_cast<ZeModule*>(module));
}

ag_result LevelZeroDevice::module_get_function(void* module, const char* name, void** function,
                                               std::vector<ag_param_info>& layout,
                                               bool& layout_known) {
  ZeFunction* found = nullptr;
  if (ag_result r = get_ze_function(ze_, static_cast<ZeModule*>(module), name, &found)) return r;
  layout = found->layout;
  layout_known = found->layout_known;
  *function = found;
  return AG_SUCCESS;
}

ag_result LevelZeroDevice::module_get_global(void* module, const char* name, void** pointer,
                                             size_t* bytes) {
  return get_ze_global(ze_, static_cast<ZeModule*>(module), name, pointer, bytes);
}

ag_result LevelZeroDevice::launch(void* function, const LaunchConfig& c, void** params,
                                  void* stream) {
  auto* f = static_cast<ZeFunction*>(function);
  return on_stream(stream, [&](ze_command_list_handle_t list) {
    return append_ze_launch(ze_, f, c, params, list);
  });
}

}  // namespace anygpu::level_zero
