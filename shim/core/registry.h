// The backends and devices of this process, found once on first use.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "shim/core/objects.h"

namespace anygpu {

struct BackendRecord {
  const BackendDescriptor* descriptor = nullptr;
  std::unique_ptr<Backend> backend;  // nullptr when not selected
  bool available = false;
  int device_count = 0;
  std::string library;
  std::string reason;
};

struct Registry {
  std::vector<BackendRecord> backends;  // every known backend, selected ones first
  std::vector<Device*> devices;         // device order: by selected backend order
};

// Initialises on the first call, from any thread (a registry may have no device). Throws only
// what the system refused while initialising (std::bad_alloc, std::system_error); nothing of that
// attempt remains, and the next call tries again.
Registry& registry();

// Looks a device handle up (initialising first). nullptr when invalid.
Device* find_device(ag_device handle);

}  // namespace anygpu
