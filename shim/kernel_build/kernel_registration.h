// The generated files of a CUDA-syntax kernel source's build (anygpu_add_kernels through
// anygpu-pack, and the CPU backend's run-time compiler): the registration file every target
// compiles in place of the source, and the host's storage of the extern __shared__ arrays.
#pragma once

#include <string>
#include <vector>

#include "shim/kernel_build/kernel_discovery.h"

namespace anygpu {

// The registration file of `source` (the path it includes, written into the text): `prelude`
// (when not empty) included first, then the source, then AGK_REGISTER_KERNEL for each kernel
// `found` (anygpu/detail/cuda_syntax.h). False with `error` naming the source and the kernel
// when a kernel's name cannot be read.
bool kernel_registration_file(const std::string& source, const std::string& prelude,
                              const DiscoveredKernels& found, std::string* text,
                              std::string* error);

// The assembly that defines the extern __shared__ arrays `names` on the host: thread-local, every
// array at one address, `bytes` large (the CPU device's shared memory per block), as the launch's
// dynamic shared memory is in CUDA.
std::string host_shared_memory_assembly(const std::vector<std::string>& names, unsigned long bytes);

}  // namespace anygpu
