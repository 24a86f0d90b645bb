// What the discovery compile of a kernel source holds (anygpu_add_kernels, and the CPU backend's
// run-time compiler): with AGK_DISCOVER, every __global__ function lands in a section named
// "anygpu_kernels", and every extern __shared__ array is an undefined thread-local symbol
// (cuda_syntax.h, kernel_host.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace anygpu {

struct DiscoveredKernels {
  std::vector<std::string> kernels;        // mangled names, in symbol-table order, once each
  std::vector<std::string> extern_shared;  // symbol names, once each
};

// Adds what the object `bytes` holds to `found`. False with `error` (prefixed with `what`, the
// object's name) when it is not an ELF relocatable object.
bool discover_kernels(const unsigned char* bytes, size_t size, const std::string& what,
                      DiscoveredKernels* found, std::string* error);

}  // namespace anygpu
