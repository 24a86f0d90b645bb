// Everything the driver hands out: allocations, streams, events, modules and their functions,
// each with the context it was made in. Handles are checked against these tables, so an unknown
// or destroyed handle is an error, not a crash. One mutex guards them; a call that blocks (a
// synchronize, a copy, a launch) looks its objects up under it, keeps a reference, and blocks
// after releasing it.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <anygpu/anygpu.h>

#include "driver_context.h"
#include "tests/drivers/common/driver_memory_pools.h"

namespace anygpu::cuda_test_driver {

struct Allocation {
  Context* context;
  size_t bytes;
  bool host;                   // cuMemAllocHost
  bool managed = false;        // cuMemAllocManaged: device memory that prefetch and advice take
  const void* pool = nullptr;  // the pool of a stream-ordered allocation (its block's bytes)
};

struct ModuleVariable {
  size_t bytes;
};

struct Stream {
  Context* context;
  void* native;  // the CPU backend's stream
  unsigned flags;
  int priority = 0;  // as created, clamped; it changes nothing on the CPU
  ~Stream();         // waits for its pending work
};

struct Event {
  Context* context;
  void* native;  // the CPU backend's event
  unsigned flags;
  std::atomic<bool> recorded{false};
  ~Event();
};

struct Function {
  Context* context;
  void* native;  // the CPU backend's kernel
  std::vector<ag_param_info> layout;
  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, with `Objects::mutex` held: the most dynamic
  // shared memory a launch may ask for (the kernels have no static shared memory), raised up to
  // the opt-in limit by cuFuncSetAttribute.
  int max_dynamic_shared = kSharedMemoryPerBlock;
  // False for a module's kernel under lazy loading until cuFuncLoad or its first launch loads it
  // (driver_function_loading.cpp), with `Objects::mutex` held.
  bool loaded = true;
};

struct Module {
  Context* context;
  std::vector<std::string> kernels;                            // what the image holds
  std::vector<std::string> globals;                            // its variables
  std::map<std::string, std::unique_ptr<Function>> functions;  // made on first request
};

// Objects by handle (their address).
template <typename Owner>
using Table = std::unordered_map<const void*, Owner>;

struct Objects {
  std::mutex mutex;
  std::map<uintptr_t, Allocation> allocations;  // ordered: a pointer's allocation is found by range
  // The host build's variables cuModuleGetGlobal handed out: device memory copies may reach, for
  // the life of the process (the host build stays loaded).
  std::map<uintptr_t, ModuleVariable> variables;
  size_t device_bytes = 0;  // of device allocations
  Table<std::shared_ptr<Stream>> streams;
  Table<std::shared_ptr<Event>> events;
  Table<std::unique_ptr<Module>> modules;
  Table<Function*> functions;  // owned by their module
  // Per context, a stream of the driver's own on which the default stream's event records run.
  std::unordered_map<Context*, std::shared_ptr<Stream>> default_streams;

  // All with `mutex` held. nullptr for a handle that is not one of these.
  std::shared_ptr<Stream> stream(CUstream handle) const;
  std::shared_ptr<Event> event(CUevent handle) const;
  Module* module(CUmodule handle) const;
  Function* function(CUfunction handle) const;
  // True when [pointer, pointer + bytes) lies inside one allocation (device or page-locked host
  // memory, both of which the device reaches).
  bool accessible(const void* pointer, size_t bytes) const;
  std::vector<std::shared_ptr<Stream>> streams_of(Context* context, bool blocking_only) const;
  // With `mutex` held, as `module` leaves `modules`: its functions' handles stop being valid.
  void forget_functions(const Module& module);
};
Objects& objects();

template <typename Handle, typename T>
Handle handle_of(T* object) {
  return reinterpret_cast<Handle>(object);
}

// Adds a new object to its table (`&Objects::streams`, ...) under the lock; `*handle` names it.
template <typename Handle, typename Owner>
void add_object(Table<Owner> Objects::* table, Owner object, Handle* handle) {
  *handle = handle_of<Handle>(object.get());
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  (o.*table)[object.get()] = std::move(object);
}

// The destroy calls (any context's object, with a current context): the object `handle` names
// leaves its table under the lock, `unlink(o, object)` first, and is destroyed after the lock is
// released (a stream's destructor waits for its pending work). CUDA_ERROR_INVALID_HANDLE for a
// handle not in the table.
template <typename Owner, typename Unlink>
CUresult destroy_object(Table<Owner> Objects::* table, const void* handle, Unlink unlink) {
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  Owner taken;  // declared before the lock, so destroyed after it
  Objects& o = objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  const auto found = (o.*table).find(handle);
  if (found == (o.*table).end()) return CUDA_ERROR_INVALID_HANDLE;
  unlink(o, *found->second);
  taken = std::move(found->second);
  (o.*table).erase(found);
  return CUDA_SUCCESS;
}
template <typename Owner>
CUresult destroy_object(Table<Owner> Objects::* table, const void* handle) {
  return destroy_object(table, handle, [](Objects&, const auto&) {});
}

// Looked up under the lock, kept by reference: a stream of `context`, or an event of any context
// (as a stream may wait on another context's event). Else CUDA_ERROR_INVALID_HANDLE.
CUresult find_stream(CUstream handle, Context* context, std::shared_ptr<Stream>* stream);
CUresult find_event(CUevent handle, std::shared_ptr<Event>* event);

// Work on the legacy default stream waits for every blocking stream of its context first.
void synchronize_blocking_streams(Context* context);
// Where work on `stream` goes: `*found` is nullptr for the legacy default stream, whose work runs
// to completion, after the blocking streams' (synchronised here). CUDA_ERROR_INVALID_HANDLE for a
// stream that is not one of `context`'s.
CUresult stream_for_work(Context* context, CUstream stream, std::shared_ptr<Stream>* found);
// Every stream of the context, the driver's own included.
void synchronize_context(Context* context);
// The kernel of `module` named `name` (the same handle for the same name), without the entry's
// bookkeeping: cuModuleGetFunction and cuModuleEnumerateFunctions share it.
CUresult module_function(CUmodule module, const char* name, CUfunction* function);
// Loads a lazily loaded function before its launch: as on a real driver, that first waits for all
// of its context's work (driver_function_loading.cpp).
CUresult finish_loading(CUfunction function);
// The stream the legacy default stream's event records run on; made on first use.
std::shared_ptr<Stream> default_stream(Context* context);
// The primary context's reset: everything made in `context` is destroyed (its stream-ordered
// allocations go back to their pools, freed).
void destroy_objects(Context* context);
// Device memory counted against the device's (CUDA_ERROR_OUT_OF_MEMORY beyond it), and its return
// (driver_memory.cpp): what device allocations and pools' blocks are made of.
CUresult reserve_device_memory(size_t bytes, void** pointer);
void release_device_memory(void* pointer, size_t bytes);
// Stream-ordered allocation's pools (driver_memory_pools.cpp), made on first use.
test_driver::MemoryPools& pools();
// Allocations (device and host), streams, events and modules alive.
long live_objects();

}  // namespace anygpu::cuda_test_driver
