#include "shim/core/registry.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

#include "loaders/backend_list.h"
#include "shim/core/environment.h"
#include "shim/core/fork_guard.h"
#include "shim/core/log.h"

namespace anygpu {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) items.push_back(item);
    start = end + 1;
  }
  return items;
}

// The backend `name` (or one of its aliases) names; nullptr when none.
const BackendDescriptor* descriptor_named(const std::string& name) {
  for (const BackendDescriptor* descriptor : backend_descriptors()) {
    if (name == descriptor->name) return descriptor;
    const std::vector<std::string> aliases = split_list(descriptor->aliases);
    if (std::find(aliases.begin(), aliases.end(), name) != aliases.end()) return descriptor;
  }
  return nullptr;
}

std::string known_names() {
  std::string names;
  for (const BackendDescriptor* descriptor : backend_descriptors())
    names += std::string(names.empty() ? "" : ", ") + descriptor->name;
  return names;
}

// The selected backends in order: ANYGPU_BACKENDS, else all in default order.
std::vector<const BackendDescriptor*> selected_backends(const std::string& selection) {
  if (selection.empty()) return backend_descriptors();
  if (split_list(selection).empty()) {
    log(LogLevel::warn, "ANYGPU_BACKENDS='%s' names no backend; using all of them (%s)",
        selection.c_str(), known_names().c_str());
    return backend_descriptors();
  }
  std::vector<const BackendDescriptor*> selected;
  for (const std::string& name : split_list(selection)) {
    const BackendDescriptor* descriptor = descriptor_named(name);
    if (!descriptor) {
      log(LogLevel::warn, "ANYGPU_BACKENDS names an unknown backend '%s' (known: %s); ignored",
          name.c_str(), known_names().c_str());
      continue;
    }
    if (std::find(selected.begin(), selected.end(), descriptor) == selected.end())
      selected.push_back(descriptor);
  }
  return selected;
}

// Each device is in `registry.devices` as soon as its handle exists, so that a failed
// initialisation can take back every handle it gave (forget_devices).
void add_devices(Registry& registry, BackendRecord& record) {
  registry.devices.reserve(registry.devices.size() + static_cast<size_t>(record.device_count));
  for (int i = 0; i < record.device_count; ++i) {
    // Lives as long as the process, like the driver, once the registry is complete.
    auto device = std::make_unique<Device>();
    device->ordinal = static_cast<int>(registry.devices.size());
    device->backend = record.descriptor;
    device->impl = &record.backend->device(i);
    device->properties = device->impl->properties();
    device->properties.struct_size = sizeof(ag_device_properties);
    device->properties.ordinal = device->ordinal;
    device->properties.backend = record.descriptor->kind;
    device->properties.host_functions = 1;  // every backend runs them (agLaunchHostFunc)
    // A device without an opt-in maximum allows what it allows by default.
    if (device->properties.shared_memory_per_block_optin <
        device->properties.shared_memory_per_block)
      device->properties.shared_memory_per_block_optin = device->properties.shared_memory_per_block;
    device->code_rules = record.descriptor->code_rules(device->impl->code_target());
    device->handle = static_cast<ag_device>(handles().devices.insert(device.get()));
    registry.devices.push_back(device.release());  // reserved: cannot throw
  }
}

// Undoes add_devices for a registry that is not kept: no handle of it stays valid.
void forget_devices(Registry& registry) {
  for (Device* device : registry.devices) {
    handles().devices.remove(device->handle);
    delete device;
  }
  registry.devices.clear();
}

void initialise(Registry& registry) {
  const std::string selection = environment("ANYGPU_BACKENDS");
  const std::vector<const BackendDescriptor*> selected = selected_backends(selection);
  for (const BackendDescriptor* descriptor : selected) {
    BackendRecord record;
    record.descriptor = descriptor;
    record.backend = descriptor->make();
    std::string reason;
    record.available = record.backend->load(reason);
    record.library = record.backend->library();
    if (record.available) {
      record.device_count = record.backend->device_count();
      if (record.device_count == 0) {
        record.available = false;
        reason = "no device";
      }
    }
    record.reason = record.available ? "" : reason;
    if (record.available)
      log(LogLevel::info, "backend %s: %d device(s)", descriptor->name, record.device_count);
    else
      log(LogLevel::info, "backend %s skipped: %s", descriptor->name, record.reason.c_str());
    registry.backends.push_back(std::move(record));
    add_devices(registry, registry.backends.back());
  }
  for (const BackendDescriptor* descriptor : backend_descriptors()) {
    if (std::find(selected.begin(), selected.end(), descriptor) != selected.end()) continue;
    BackendRecord record;
    record.descriptor = descriptor;
    record.reason = "not selected by ANYGPU_BACKENDS=" + selection;
    log(LogLevel::info, "backend %s skipped: %s", descriptor->name, record.reason.c_str());
    registry.backends.push_back(std::move(record));
  }
  if (registry.devices.empty()) log(LogLevel::warn, "no backend has a device");
}

}  // namespace

HandleTables& handles() {
  static HandleTables* tables = new HandleTables;  // never destroyed: handles outlive main()
  return *tables;
}

// Published only once complete. An initialisation that throws (the system refused a thread or
// memory) leaves nothing behind: its devices' handles are taken back and its backends unloaded,
// and the next call starts afresh. (A mutex, not std::call_once, whose exceptional path is not
// dependable in every C++ library.)
Registry& registry() {
  static std::mutex mutex;
  static std::atomic<Registry*> instance{nullptr};
  if (Registry* ready = instance.load(std::memory_order_acquire)) return *ready;
  std::lock_guard<std::mutex> lock(mutex);
  if (Registry* ready = instance.load(std::memory_order_relaxed)) return *ready;
  watch_for_fork();
  auto fresh = std::make_unique<Registry>();
  try {
    initialise(*fresh);
  } catch (...) {
    forget_devices(*fresh);
    throw;
  }
  instance.store(fresh.release(), std::memory_order_release);  // never destroyed, as drivers
  return *instance.load(std::memory_order_relaxed);            // are never unloaded
}

Device* find_device(ag_device handle) {
  registry();
  return handles().devices.lookup(handle);
}

}  // namespace anygpu
