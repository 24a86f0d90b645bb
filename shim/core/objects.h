// The objects behind the C ABI's handles, and their handle tables.
#pragma once

#include <mutex>
#include <vector>

#include "allocation_tracker.h"
#include "backend.h"
#include "handle_table.h"

namespace anygpu {

struct Device {
  int ordinal = 0;
  Backend* backend = nullptr;
  DeviceBackend* impl = nullptr;
  ag_device_properties properties{};
  AllocationTracker allocations;
  ag_device handle = nullptr;
};

struct Stream {
  Device* device;
  void* native;
};

struct Event {
  Device* device;
  void* native;
};

struct Function;

struct Module {
  Device* device;
  void* native;
  std::mutex functions_mutex;
  std::vector<ag_function> functions;  // invalidated on unload
};

struct Function {
  Module* module;
  Device* device;
  void* native;
  std::vector<ag_param_info> params;
  bool params_known = false;
};

struct HandleTables {
  HandleTable<Device, HandleKind::device> devices;
  HandleTable<Stream, HandleKind::stream> streams;
  HandleTable<Event, HandleKind::event> events;
  HandleTable<Module, HandleKind::module> modules;
  HandleTable<Function, HandleKind::function> functions;
};

HandleTables& handles();

}  // namespace anygpu
