// Host code objects: loaded from memory (memfd_create + dlopen, no temporary file), kernels
// looked up by name with their parameter layout. A HostModule is one agModuleLoad*; the code it
// runs stays mapped after it is destroyed (see open_image in host_module.cpp).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "host_kernel.h"

namespace anygpu::cpu {

class HostModule {
 public:
  // Records the detail and returns the error on failure.
  static ag_result load(const unsigned char* image, size_t bytes, HostModule** module);
  ~HostModule();

  ag_result get_kernel(const char* name, const HostKernel** kernel);

 private:
  explicit HostModule(void* handle) : handle_(handle) {}
  void* handle_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<HostKernel>> kernels_;
};

}  // namespace anygpu::cpu
