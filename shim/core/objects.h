// The objects behind the C ABI's handles, and their handle tables.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "shim/code_object/kernel_name_match.h"
#include "shim/core/allocation_tracker.h"
#include "shim/core/backend.h"
#include "shim/core/handle_table.h"
#include "shim/core/mem_pool.h"
#include "shim/core/runtime_compiler.h"

namespace anygpu {

struct Device {
  int ordinal = 0;
  const BackendDescriptor* backend = nullptr;
  DeviceBackend* impl = nullptr;
  std::unique_ptr<CodeFitRules> code_rules;  // what it runs, by its backend's rules
  ag_device_properties properties{};
  AllocationTracker allocations;
  ag_device handle = nullptr;
  // Stream-ordered allocation: every pool of the device (the default one made on first use),
  // under pools_mutex. A pool's allocations are AllocationKind::stream_ordered in `allocations`.
  std::mutex pools_mutex;
  std::vector<MemPool*> pools;
  ag_mem_pool default_pool = nullptr;
  // The default pool's object once made, read without the lock (it is never destroyed).
  std::atomic<MemPool*> default_pool_object{nullptr};
  // Devices whose memory this one's kernels may use (agDeviceEnablePeerAccess), under
  // peers_mutex.
  std::mutex peers_mutex;
  std::vector<const Device*> peers_enabled;
  // agMemcpyPeer's pinned host buffer for copies that go through the host, made on first use and
  // kept until exit; staging_mutex is held while it is in use.
  std::mutex staging_mutex;
  void* staging = nullptr;
};

struct Stream {
  Device* device;
  void* native;
  int priority = 0;      // clamped to the device's range
  bool adopted = false;  // made from the application's native stream, which it does not own
};

struct Event {
  Device* device;
  void* native;
  unsigned flags = 0;  // ag_event_flags
  // The API's rule, kept here rather than in each backend: an event never recorded has nothing
  // pending (query, synchronize and a stream's wait return at once) and no time to measure.
  std::atomic<bool> recorded{false};
};

struct Function;

struct Module {
  Device* device;
  void* native;
  // The kernels its code object names, read once at load: agModuleGetFunction resolves a
  // requested name against them (kernel_name_match.h). Empty where the code object lists none.
  KernelNameTable kernel_names;
  std::mutex functions_mutex;
  // One handle per kernel, keyed by the code object's exact name, as CUDA gives: asking again,
  // by any spelling of that kernel, returns it; invalidated on unload.
  std::map<std::string, ag_function> functions;
  // The variables looked up (agModuleGetGlobal), by name: recorded in the device's allocations
  // until the module is unloaded. Under functions_mutex.
  struct Variable {
    void* address;
    size_t bytes;
  };
  std::map<std::string, Variable> variables;
};

struct Function {
  Module* module;
  Device* device;
  void* native;
  std::vector<ag_param_info> params;
  bool params_known = false;
  FunctionAttributes attributes;  // read once, when the handle is made
  // What a launch may ask for (agFunctionSetMaxDynamicShared), checked on every launch.
  std::atomic<uint64_t> max_dynamic_shared{0};
};

// A program for run-time compilation (agProgramCreate): its files, fixed at creation, and the
// result of its last compile, under `mutex` (a compile runs without it; the last to finish wins).
struct Program {
  SourceFile source;
  std::vector<SourceFile> headers;
  std::mutex mutex;
  std::string log;
  std::vector<unsigned char> image;  // empty until a compile succeeds
};

struct HandleTables {
  HandleTable<Device, HandleKind::device> devices;
  HandleTable<Stream, HandleKind::stream> streams;
  HandleTable<Event, HandleKind::event> events;
  HandleTable<Module, HandleKind::module> modules;
  HandleTable<Function, HandleKind::function> functions;
  HandleTable<MemPool, HandleKind::mem_pool> mem_pools;
  HandleTable<Program, HandleKind::program> programs;
};

HandleTables& handles();

// A call's use of an object: it is not destroyed before the reference goes (handle_table.h).
using StreamRef = HandleRef<Stream>;
using EventRef = HandleRef<Event>;
using ModuleRef = HandleRef<Module>;
using FunctionRef = HandleRef<Function>;
using MemPoolRef = HandleRef<MemPool>;
using ProgramRef = HandleRef<Program>;

}  // namespace anygpu
