// Which PTX ISA versions a CUDA driver compiles: each CUDA release raised the newest one it takes.
#pragma once

namespace anygpu::cuda {

// The newest PTX ISA version a driver of `driver_version` (cuDriverGetVersion: 12040 is CUDA
// 12.4) compiles, as ptx_version_number(8, 4) = 804; 0 for drivers older than CUDA 9.0. Drivers
// newer than the table's newest release are assumed to take what that release takes.
unsigned max_ptx_version_for_driver(int driver_version);

}  // namespace anygpu::cuda
