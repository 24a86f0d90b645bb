// The CPU backend that does a test driver's work: device memory is its host memory, streams and
// events are its own, and kernels run from the host build of the test kernels.
#pragma once

#include "shim/core/backend.h"

namespace anygpu::test_driver {

// Created on first use, shared by every device of the driver, kept for the life of the process (a
// driver is never unloaded, and its worker threads must not be joined during exit). A CPU backend
// that does not load aborts, naming `driver`.
DeviceBackend& cpu(const char* driver);

}  // namespace anygpu::test_driver
