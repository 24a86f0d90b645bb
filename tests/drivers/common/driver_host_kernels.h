// The host build of the test kernels (a driver's ..._TEST_KERNELS variable), which runs every
// kernel a loaded image names: loaded into the CPU backend once, on first use, and kept.
#pragma once

#include <string>

namespace anygpu::test_driver {

// The CPU backend's module of the host code object at `path`, or nullptr when `path` is empty or
// does not load (said once on stderr, naming `driver` and `variable`). The first call loads; later
// calls return what it gave, whatever their arguments.
void* host_kernels(const char* driver, const char* variable, const std::string& path);

}  // namespace anygpu::test_driver
