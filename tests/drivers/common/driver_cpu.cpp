#include "driver_cpu.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "loaders/backend_list.h"

namespace anygpu::test_driver {

DeviceBackend& cpu(const char* driver) {
  static Backend* const backend = [driver] {
    Backend* created = find_backend_descriptor(AG_BACKEND_CPU)->make().release();
    std::string reason;
    if (!created->load(reason) || created->device_count() < 1) {
      fprintf(stderr, "%s: the CPU backend did not load: %s\n", driver, reason.c_str());
      abort();
    }
    return created;
  }();
  return backend->device(0);
}

}  // namespace anygpu::test_driver
