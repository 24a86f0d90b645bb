// The devices and everything the runtime hands out: allocations, streams, events, modules and
// their functions, each with the device it was made on. Handles are checked against these tables,
// so an unknown or destroyed handle is an error, not a crash. One mutex guards them; a call that
// blocks (a synchronize, a copy, a launch) looks its objects up under it, keeps a reference, and
// blocks after releasing it.
#pragma once

#include <anygpu/anygpu.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "driver_api.h"
#include "shim/core/backend.h"
#include "tests/drivers/common/driver_memory_pools.h"

namespace anygpu::hip_test_driver {

constexpr int kMaxDevices = 64;
constexpr size_t kDeviceMemoryBytes = size_t{16} << 30;
constexpr int kSharedMemoryPerBlock = 64 * 1024;
constexpr int kMaxThreadsPerBlock = 1024;
constexpr unsigned kMaxBlockDim[3] = {1024, 1024, 1024};
constexpr unsigned kMaxGridDim[3] = {2147483647u, 65536, 65536};
constexpr int kComputeUnits = 104;

// The CPU backend doing the work (tests/drivers/common/driver_cpu.h).
DeviceBackend& cpu();
// The hipError_t a failure of the CPU backend becomes.
hipError_t from_cpu(ag_result result);

// hipErrorInvalidDevice unless `device` is an ordinal of a device present.
hipError_t require_device(int device);
// The calling thread's current device (hipSetDevice; 0 until set): hipErrorNoDevice when the
// runtime has none.
hipError_t current_device(int* device);
void set_current_device(int device);

struct Allocation {
  int device;
  size_t bytes;
  bool host;                   // hipHostMalloc
  bool managed = false;        // hipMallocManaged: device memory that prefetch and advice take
  const void* pool = nullptr;  // the pool of a stream-ordered allocation (its block's bytes)
};

struct ModuleVariable {
  size_t bytes;
};

struct Stream {
  int device;
  void* native;  // the CPU backend's stream
  unsigned flags;
  int priority = 0;  // as created, clamped; it changes nothing on the CPU
  ~Stream();         // waits for its pending work
};

struct Event {
  int device;
  void* native;  // the CPU backend's event
  unsigned flags;
  std::atomic<bool> recorded{false};
  ~Event();
};

struct Function {
  int device;
  void* native;  // the CPU backend's kernel
  std::vector<ag_param_info> layout;
};

struct Module {
  int device;
  std::vector<std::string> kernels;                            // what the code object holds
  std::vector<std::string> globals;                            // its variables
  std::map<std::string, std::unique_ptr<Function>> functions;  // made on first request
};

struct Objects {
  std::mutex mutex;
  std::map<uintptr_t, Allocation> allocations;  // ordered: a pointer's allocation is found by range
  // The host build's variables hipModuleGetGlobal handed out: device memory copies may reach, for
  // the life of the process (the host build stays loaded).
  std::map<uintptr_t, ModuleVariable> variables;
  size_t device_bytes[kMaxDevices] = {};  // of device allocations, per device
  std::unordered_map<const void*, std::shared_ptr<Stream>> streams;
  std::unordered_map<const void*, std::shared_ptr<Event>> events;
  std::unordered_map<const void*, std::unique_ptr<Module>> modules;
  std::unordered_map<const void*, Function*> functions;  // owned by their module
  // Per device, a stream of the runtime's own on which the null stream's event records run.
  std::shared_ptr<Stream> null_streams[kMaxDevices];

  // All with `mutex` held. nullptr for a handle that is not one of these.
  std::shared_ptr<Stream> stream(hipStream_t handle) const;
  std::shared_ptr<Event> event(hipEvent_t handle) const;
  Module* module(hipModule_t handle) const;
  Function* function(hipFunction_t handle) const;
  // True when [pointer, pointer + bytes) lies inside one allocation (device or page-locked host
  // memory, both of which the device reaches).
  bool accessible(const void* pointer, size_t bytes) const;
  // The device of the allocation holding `pointer`; -1 for none.
  int device_of(const void* pointer) const;
  std::vector<std::shared_ptr<Stream>> streams_of(int device, bool blocking_only) const;
};
Objects& objects();

template <typename Handle, typename T>
Handle handle_of(T* object) {
  return reinterpret_cast<Handle>(object);
}

// Work on the null stream waits for every blocking stream of its device first.
void synchronize_blocking_streams(int device);
// Where work on `stream` goes: `*found` is nullptr for the null stream of `device` (the calling
// thread's current device), whose work runs to completion after the blocking streams' (synchronised
// here); else the stream, whose device is `*device` from then on. hipErrorInvalidHandle for a
// stream that is not one.
hipError_t stream_for_work(hipStream_t stream, int* device, std::shared_ptr<Stream>* found);
// Every stream of the device, the runtime's own included.
void synchronize_device(int device);
// The stream the null stream's event records run on; made on first use.
std::shared_ptr<Stream> null_stream(int device);
// Allocations (device and host), streams, events and modules alive.
long live_objects();
// `device`'s memory counted against its size (hipErrorOutOfMemory beyond it), and its return
// (driver_memory.cpp): what device allocations and pools' blocks are made of.
hipError_t reserve_device_memory(int device, size_t bytes, void** pointer);
void release_device_memory(int device, void* pointer, size_t bytes);
// Stream-ordered allocation's pools (driver_memory_pools.cpp), made on first use.
test_driver::MemoryPools& pools();

}  // namespace anygpu::hip_test_driver
