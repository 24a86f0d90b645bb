#include "registry.h"

#include <algorithm>
#include <functional>
#include <mutex>

#include "../loaders/backends.h"
#include "environment.h"
#include "log.h"

namespace anygpu {
namespace {

struct KnownBackend {
  const char* name;
  std::function<std::unique_ptr<Backend>()> make;
};

const std::vector<KnownBackend>& known_backends() {
  static const std::vector<KnownBackend> known = {
      {"cuda", make_cuda_backend},
      {"hip", make_hip_backend},
      {"level_zero", make_level_zero_backend},
      {"cpu", make_cpu_backend},
  };
  return known;
}

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

// The names of the selected backends in order: ANYGPU_BACKENDS, else all in default order.
std::vector<std::string> selected_backend_names(const std::string& selection) {
  std::vector<std::string> selected;
  if (selection.empty()) {
    for (const KnownBackend& known : known_backends()) selected.push_back(known.name);
    return selected;
  }
  for (std::string name : split_list(selection)) {
    if (name == "ze" || name == "levelzero" || name == "level-zero") name = "level_zero";
    const bool known = std::any_of(known_backends().begin(), known_backends().end(),
                                   [&](const KnownBackend& k) { return name == k.name; });
    if (!known) {
      log(LogLevel::warn,
          "ANYGPU_BACKENDS names an unknown backend '%s' (known: cuda, hip, "
          "level_zero, cpu); ignored",
          name.c_str());
      continue;
    }
    if (std::find(selected.begin(), selected.end(), name) == selected.end())
      selected.push_back(name);
  }
  return selected;
}

void add_devices(Registry& registry, BackendRecord& record) {
  for (int i = 0; i < record.device_count; ++i) {
    auto* device = new Device;  // lives as long as the process, like the driver
    device->ordinal = static_cast<int>(registry.devices.size());
    device->backend = record.backend.get();
    device->impl = &record.backend->device(i);
    device->properties.struct_size = sizeof(ag_device_properties);
    device->impl->get_properties(device->properties);
    device->properties.ordinal = device->ordinal;
    device->handle = static_cast<ag_device>(handles().devices.insert(device));
    registry.devices.push_back(device);
  }
}

void initialise(Registry& registry) {
  const std::string selection = environment("ANYGPU_BACKENDS");
  const std::vector<std::string> selected = selected_backend_names(selection);
  for (const std::string& name : selected) {
    for (const KnownBackend& known : known_backends()) {
      if (name != known.name) continue;
      BackendRecord record;
      record.backend = known.make();
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
        log(LogLevel::info, "backend %s: %d device(s)", name.c_str(), record.device_count);
      else
        log(LogLevel::info, "backend %s skipped: %s", name.c_str(), record.reason.c_str());
      registry.backends.push_back(std::move(record));
      add_devices(registry, registry.backends.back());
    }
  }
  for (const KnownBackend& known : known_backends()) {
    if (std::find(selected.begin(), selected.end(), known.name) != selected.end()) continue;
    BackendRecord record;
    record.backend = known.make();
    record.reason = "not selected by ANYGPU_BACKENDS=" + selection;
    log(LogLevel::info, "backend %s skipped: %s", known.name, record.reason.c_str());
    registry.backends.push_back(std::move(record));
  }
  if (registry.devices.empty()) log(LogLevel::warn, "no backend has a device");
}

}  // namespace

HandleTables& handles() {
  static HandleTables* tables = new HandleTables;  // never destroyed: handles outlive main()
  return *tables;
}

Registry& registry() {
  static std::once_flag once;
  static Registry* instance = nullptr;
  std::call_once(once, [] {
    instance = new Registry;  // never destroyed, as drivers are never unloaded
    initialise(*instance);
  });
  return *instance;
}

Device* find_device(ag_device handle) {
  registry();
  return handles().devices.lookup(handle);
}

}  // namespace anygpu
