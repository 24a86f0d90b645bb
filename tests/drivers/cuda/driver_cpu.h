// The CPU backend that does the driver's work: device memory is its host memory, streams and
// events are its own, and kernels run from the host build of the test kernels.
#pragma once

#include "driver_api.h"
#include "shim/backend.h"

namespace anygpu::cuda_test_driver {

// Created on first use, shared by every device, kept for the life of the process (a driver is
// never unloaded, and its worker threads must not be joined during exit).
DeviceBackend& cpu();

// The CUresult a failure of the CPU backend becomes.
CUresult from_cpu(ag_result result);

}  // namespace anygpu::cuda_test_driver
