// The host build of the test kernels (ANYGPU_CUDA_TEST_KERNELS), which runs every kernel a loaded
// image names: loaded into the CPU backend once, on first use, and kept.
#pragma once

namespace anygpu::cuda_test_driver {

// The CPU backend's module, or nullptr when the variable is unset or the file does not load
// (said once on stderr).
void* host_kernels();

}  // namespace anygpu::cuda_test_driver
