// Kernel handles by name, so that a launch shows which kernel it runs: names come from
// cuModuleGetFunction, cuLibraryGetKernel and hipModuleGetFunction, and cuKernelGetFunction's
// CUfunction takes its CUkernel's (the CUDA Runtime launches CUkernel handles cast to CUfunction).
#pragma once

#include <string>

namespace anygpu::intercept {

void remember_kernel(const void* handle, const char* name);
void remember_kernel_alias(const void* handle, const void* known_handle);
// The name, or an empty string for a handle never seen.
std::string kernel_name(const void* handle);

void lock_kernel_names();
void unlock_kernel_names();

}  // namespace anygpu::intercept
