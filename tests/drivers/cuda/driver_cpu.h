// The CPU backend that does the driver's work: device memory is its host memory, streams and
// events are its own, and kernels run from the host build of the test kernels.
#pragma once

#include "driver_api.h"
#include "driver_state.h"
#include "shim/core/backend.h"
#include "tests/drivers/common/driver_cpu.h"

namespace anygpu::cuda_test_driver {

// The test drivers' shared CPU backend (tests/drivers/common), made on first use and kept.
inline DeviceBackend& cpu() {
  return test_driver::cpu(kDriverName);
}

// The CUresult a failure of the CPU backend becomes.
CUresult from_cpu(ag_result result);

}  // namespace anygpu::cuda_test_driver
