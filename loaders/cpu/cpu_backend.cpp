// The CPU backend: always present; runs host code objects on a pool of worker threads.
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "cpu_compiler.h"
#include "cpu_stream.h"
#include "host_module.h"
#include "loaders/cpu/host_code_rules.h"
#include "shim/core/backend.h"
#include "shim/core/error.h"
#include "system_info.h"
#include "warp_lanes.h"
#include "worker_pool.h"

namespace anygpu {
namespace cpu {
namespace {

constexpr size_t kAllocationAlignment = 256;  // as GPU allocations are
constexpr uint64_t kSharedMemoryPerBlock = uint64_t{64} * 1024;
// A worker's dynamic shared memory is host memory mapped on demand, so a kernel may opt in to as
// much as a GPU's largest (the H200's 227 KiB) and more.
constexpr uint64_t kSharedMemoryPerBlockOptin = uint64_t{1024} * 1024;

const char* host_architecture() {
#if defined(__x86_64__)
  return "x86_64-linux-gnu";
#else
  return "aarch64-linux-gnu";
#endif
}

class CpuDevice final : public DeviceBackend {
 public:
  CpuDevice() : pool_(worker_thread_count()) {}

  ag_device_properties properties() override {
    ag_device_properties p{};
    snprintf(p.name, sizeof p.name, "%s", processor_name().c_str());
    snprintf(p.vendor, sizeof p.vendor, "%s", processor_vendor().c_str());
    p.backend = AG_BACKEND_CPU;
    snprintf(p.architecture, sizeof p.architecture, "%s", host_architecture());
    p.total_memory = physical_memory_bytes();
    p.compute_units = static_cast<int>(pool_.thread_count());
    p.max_threads_per_block = 1024;
    p.max_block_dim[0] = 1024;
    p.max_block_dim[1] = 1024;
    p.max_block_dim[2] = 64;
    p.max_grid_dim[0] = 2147483647;
    p.max_grid_dim[1] = 65535;
    p.max_grid_dim[2] = 65535;
    p.shared_memory_per_block = kSharedMemoryPerBlock;
    p.warp_size = static_cast<int>(kCpuWarpSize);
    p.pci_domain_id = p.pci_bus_id = p.pci_device_id = -1;  // no PCI device, no UUID
    p.clock_rate_khz = processor_max_clock_khz();
    p.l2_cache_bytes = l2_cache_bytes();
    p.shared_memory_per_block_optin = kSharedMemoryPerBlockOptin;
    p.managed_memory = 1;  // all of it is host memory
    p.concurrent_managed_access = 1;
    p.driver_version = AG_VERSION_MAJOR * 10000 + AG_VERSION_MINOR * 100 + AG_VERSION_PATCH;
    return p;
  }

  DeviceTarget code_target() const override { return DeviceTarget{host_architecture(), 0}; }

  // Waits with no lock held: the list is copied, and the copies keep a stream alive should it be
  // destroyed meanwhile, so that creating or destroying other streams never waits for a kernel.
  ag_result synchronize() override {
    if (ag_result r = usable()) return r;
    std::vector<std::shared_ptr<CpuStream>> snapshot;
    {
      std::lock_guard<std::mutex> lock(streams_mutex_);
      snapshot.reserve(streams_.size());
      for (const auto& entry : streams_) snapshot.push_back(entry.second);
    }
    for (const auto& stream : snapshot) stream->synchronize();
    return usable();  // a kernel may have faulted meanwhile
  }

  ag_result mem_alloc(size_t bytes, void** pointer) override {
    if (ag_result r = usable()) return r;
    void* allocated = nullptr;
    if (posix_memalign(&allocated, kAllocationAlignment, bytes) != 0)
      return fail(AG_ERROR_OUT_OF_MEMORY, "cannot allocate %zu bytes of host memory", bytes);
    *pointer = allocated;
    return AG_SUCCESS;
  }
  ag_result mem_free(void* pointer) override {
    if (ag_result r = DeviceFaultState::check_releasable()) return r;
    free(pointer);
    return AG_SUCCESS;
  }
  // The CPU reaches all host memory: pinned memory is ordinary memory here.
  ag_result host_alloc(size_t bytes, void** pointer) override { return mem_alloc(bytes, pointer); }
  ag_result host_free(void* pointer) override { return mem_free(pointer); }
  // Managed memory is ordinary memory too; prefetch and advice keep the defaults (nothing to do).
  ag_result managed_alloc(size_t bytes, void** pointer) override {
    return mem_alloc(bytes, pointer);
  }
  ag_result mem_info(size_t* free_bytes, size_t* total_bytes) override {
    if (ag_result r = usable()) return r;
    *free_bytes = available_memory_bytes();
    *total_bytes = physical_memory_bytes();
    return AG_SUCCESS;
  }

  // Its device memory is the host's: a GPU copies to and from it as host memory (agMemcpyPeer).
  bool memory_is_host() const override { return true; }

  ag_result copy(CopyKind, void* dst, const void* src, size_t bytes, void* stream) override {
    if (ag_result r = usable()) return r;
    if (stream)
      static_cast<CpuStream*>(stream)->enqueue_copy(dst, src, bytes);
    else
      memmove(dst, src, bytes);
    return AG_SUCCESS;
  }
  ag_result copy_pitched(CopyKind, const PitchedCopy& c, void* stream) override {
    if (ag_result r = usable()) return r;
    if (stream)
      static_cast<CpuStream*>(stream)->enqueue_pitched_copy(c);
    else
      copy_rows(c);
    return AG_SUCCESS;
  }
  ag_result fill(void* dst, uint32_t value, unsigned element_size, size_t count,
                 void* stream) override {
    if (ag_result r = usable()) return r;
    if (stream)
      static_cast<CpuStream*>(stream)->enqueue_fill(dst, value, element_size, count);
    else
      fill_elements(dst, value, element_size, count);
    return AG_SUCCESS;
  }

  ag_result stream_create(unsigned, void** stream) override {
    if (ag_result r = usable()) return r;
    auto created = std::make_shared<CpuStream>(pool_);
    CpuStream* native = created.get();
    std::lock_guard<std::mutex> lock(streams_mutex_);
    streams_.emplace(native, std::move(created));
    *stream = native;
    return AG_SUCCESS;
  }
  // The stream goes when the last reference does: here, or at the end of a synchronize() that is
  // waiting for it. Its destructor finishes its pending work; no lock is held meanwhile.
  ag_result stream_destroy(void* stream) override {
    if (ag_result r = DeviceFaultState::check_releasable()) return r;
    std::shared_ptr<CpuStream> destroyed;
    {
      std::lock_guard<std::mutex> lock(streams_mutex_);
      const auto found = streams_.find(static_cast<CpuStream*>(stream));
      if (found != streams_.end()) {
        destroyed = std::move(found->second);
        streams_.erase(found);
      }
    }
    // Its work finishes before the call returns, as the API says. Dropping the reference alone
    // does not wait when a device synchronize on another thread holds one too (its snapshot).
    if (destroyed) destroyed->synchronize();
    destroyed.reset();
    return AG_SUCCESS;
  }
  ag_result stream_synchronize(void* stream) override {
    if (ag_result r = usable()) return r;
    static_cast<CpuStream*>(stream)->synchronize();
    return usable();  // a kernel may have faulted meanwhile
  }
  ag_result stream_query(void* stream) override {
    if (ag_result r = usable()) return r;
    return static_cast<CpuStream*>(stream)->idle() ? AG_SUCCESS : AG_ERROR_NOT_READY;
  }
  ag_result stream_wait_event(void* stream, void* event) override {
    if (ag_result r = usable()) return r;
    static_cast<CpuStream*>(stream)->enqueue_wait(static_cast<CpuEvent*>(event));
    return AG_SUCCESS;
  }

  ag_result launch_host_func(void* stream, void (*fn)(void*), void* data) override {
    if (ag_result r = usable()) return r;
    static_cast<CpuStream*>(stream)->enqueue_host_function(fn, data);
    return AG_SUCCESS;
  }

  ag_result event_create(unsigned, void** event) override {
    if (ag_result r = usable()) return r;
    *event = new CpuEvent;
    return AG_SUCCESS;
  }
  ag_result event_destroy(void* event) override {
    if (ag_result r = DeviceFaultState::check_releasable()) return r;
    static_cast<CpuEvent*>(event)->release();
    return AG_SUCCESS;
  }
  ag_result event_record(void* event, void* stream) override {
    if (ag_result r = usable()) return r;
    static_cast<CpuStream*>(stream)->enqueue_record(static_cast<CpuEvent*>(event));
    return AG_SUCCESS;
  }
  ag_result event_synchronize(void* event) override {
    if (ag_result r = usable()) return r;
    auto* e = static_cast<CpuEvent*>(event);
    uint64_t target;
    {
      std::lock_guard<std::mutex> lock(e->mutex);
      target = e->recorded;
    }
    e->wait_for(target);
    return usable();
  }
  ag_result event_query(void* event) override {
    if (ag_result r = usable()) return r;
    auto* e = static_cast<CpuEvent*>(event);
    std::lock_guard<std::mutex> lock(e->mutex);
    return e->completed >= e->recorded ? AG_SUCCESS : AG_ERROR_NOT_READY;
  }
  ag_result event_elapsed(float* milliseconds, void* start, void* end) override {
    if (ag_result r = usable()) return r;
    auto* s = static_cast<CpuEvent*>(start);
    auto* e = static_cast<CpuEvent*>(end);
    int64_t start_ns = 0, end_ns = 0;  // both set below
    for (auto [event, stamp] : {std::pair{s, &start_ns}, std::pair{e, &end_ns}}) {
      std::lock_guard<std::mutex> lock(event->mutex);
      if (event->completed < event->recorded) return AG_ERROR_NOT_READY;
      *stamp = event->timestamp_ns;
    }
    *milliseconds = static_cast<float>(end_ns - start_ns) / 1e6f;
    return AG_SUCCESS;
  }

  ag_result module_load(const CodeObject& code, void** module) override {
    if (ag_result r = usable()) return r;
    HostModule* loaded = nullptr;
    if (ag_result r = HostModule::load(code.data, code.size, &loaded)) return r;
    *module = loaded;
    return AG_SUCCESS;
  }
  ag_result module_unload(void* module) override {
    if (ag_result r = DeviceFaultState::check_releasable()) return r;
    static_cast<HostModule*>(module)->release();  // launches still queued keep it
    return usable();  // freed either way, but a faulted device says so, as CUDA's unload does
  }
  ag_result module_get_function(void* module, const char* name, void** function,
                                std::vector<ag_param_info>& layout, bool& layout_known) override {
    if (ag_result r = usable()) return r;
    const HostKernel* kernel = nullptr;
    if (ag_result r = static_cast<HostModule*>(module)->get_kernel(name, &kernel)) return r;
    if (kernel->layout.size() > kMaxParameters || kernel->argument_bytes > kMaxArgumentBytes)
      return fail(AG_ERROR_NOT_SUPPORTED,
                  "kernel '%s' takes %zu parameters in %zu bytes; the CPU backend takes at most "
                  "%zu in %zu bytes",
                  name, kernel->layout.size(), kernel->argument_bytes, kMaxParameters,
                  kMaxArgumentBytes);
    layout = kernel->layout;  // every host kernel descriptor records it
    layout_known = true;
    *function = const_cast<HostKernel*>(kernel);
    return AG_SUCCESS;
  }

  ag_result module_get_global(void* module, const char* name, void** pointer,
                              size_t* bytes) override {
    if (ag_result r = usable()) return r;
    return static_cast<const HostModule*>(module)->get_global(name, pointer, bytes);
  }

  // A host kernel's __shared__ variables are not in the block's budget, it has no registers to
  // count, and its worker runs one block at a time: the runtime's occupancy model holds.
  ag_result function_attributes(void*, FunctionAttributes&) override { return usable(); }

  ag_result launch(void* function, const LaunchConfig& config, void** params,
                   void* stream) override {
    if (ag_result r = usable()) return r;
    const uint64_t blocks = static_cast<uint64_t>(config.grid[0]) * config.grid[1] * config.grid[2];
    if (blocks > UINT32_MAX)
      return fail(AG_ERROR_INVALID_CONFIGURATION,
                  "a grid of %llu blocks exceeds the CPU backend's 2^32 - 1",
                  (unsigned long long)blocks);
    const LaunchPacket packet{static_cast<const HostKernel*>(function),
                              {config.grid[0], config.grid[1], config.grid[2]},
                              {config.block[0], config.block[1], config.block[2]},
                              config.shared_memory_bytes,
                              static_cast<uint32_t>(blocks),
                              params};
    if (stream) {
      static_cast<CpuStream*>(stream)->enqueue_launch(packet);
      return AG_SUCCESS;  // a fault is reported by a later call, as a GPU's asynchronous one
    }
    pool_.run(packet);
    return usable();
  }

 private:
  // A faulted device (or a forked child) refuses every call; see DeviceFaultState.
  ag_result usable() { return pool_.fault_state().check(); }

  WorkerPool pool_;
  std::mutex streams_mutex_;  // guards the list only; never held across a wait
  std::map<CpuStream*, std::shared_ptr<CpuStream>> streams_;
};

class CpuBackend final : public Backend {
 public:
  std::string library() const override { return ""; }
  bool load(std::string&) override {
    device_ = std::make_unique<CpuDevice>();
    return true;
  }
  int device_count() const override { return device_ ? 1 : 0; }
  DeviceBackend& device(int) override { return *device_; }

 private:
  std::unique_ptr<CpuDevice> device_;
};

}  // namespace
}  // namespace cpu

extern const BackendDescriptor cpu_backend_descriptor = {
    AG_BACKEND_CPU,
    "cpu",
    "CPU",
    "",
    [] { return std::unique_ptr<Backend>(std::make_unique<cpu::CpuBackend>()); },
    cpu::make_code_rules,
    cpu::make_runtime_compiler};

}  // namespace anygpu
