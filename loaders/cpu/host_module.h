// Host code objects: loaded from memory (memfd_create + dlopen, no temporary file), kernels
// looked up by name with their parameter layout. A HostModule is one agModuleLoad*; the code it
// runs stays mapped after it is destroyed (see open_image in host_module.cpp).
//
// Reference-counted: module_unload drops the loader's reference, and each launch queued on a
// stream holds one until it has run, so unloading never waits for kernels (nor for a device's
// unrelated work) and never frees a kernel that is still queued.
#pragma once

#include <atomic>
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
  HostModule(const HostModule&) = delete;
  HostModule& operator=(const HostModule&) = delete;

  ag_result get_kernel(const char* name, const HostKernel** kernel);
  // The exported variable `name` (host_globals.h).
  ag_result get_global(const char* name, void** pointer, size_t* bytes) const;

  void retain() { references_.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (references_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

 private:
  explicit HostModule(void* handle) : handle_(handle) {}
  ~HostModule();
  void* handle_;
  std::atomic<int> references_{1};
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<HostKernel>> kernels_;
};

}  // namespace anygpu::cpu
