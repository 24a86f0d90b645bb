// What the build's discovery compile of a kernel source holds: with AGK_DISCOVER, every
// __global__ function lands in a section named "anygpu_kernels", and every extern __shared__ array
// is an undefined thread-local symbol (cuda_syntax.h, kernel_host.h).
#pragma once

#include <string>
#include <vector>

namespace anygpu_pack {

struct DiscoveredKernels {
  std::vector<std::string> kernels;        // mangled names, in symbol-table order, once each
  std::vector<std::string> extern_shared;  // symbol names, once each
};

// False with `error` when `path` is not a readable ELF relocatable object.
bool discover_kernels(const std::string& path, DiscoveredKernels* found, std::string* error);

}  // namespace anygpu_pack
