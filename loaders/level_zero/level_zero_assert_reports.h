// Failed assertions in SPIR-V kernels. SPIR-V cannot stop a kernel, so a failed assert writes its
// line where the module's variable __anygpu_assert_report points (anygpu/detail/kernel_assert.h)
// and the work-item goes on. Each module that has the variable gets one word of host memory for
// it; a wait that finds the word set reports the launch as failed, as CUDA reports a device-side
// assert at the next synchronization.
#pragma once

#include <anygpu/anygpu.h>

#include <functional>
#include <map>
#include <mutex>

#include "level_zero_api.h"
#include "level_zero_module.h"

namespace anygpu::level_zero {

class AssertReports {
 public:
  // Copies `bytes` from host memory to the device and waits (the device's synchronous copy).
  using CopyToDevice = std::function<ag_result(void* device, const void* host, size_t bytes)>;

  AssertReports(const LevelZeroFunctions& ze, ze_context_handle_t context)
      : ze_(ze), context_(context) {}
  AssertReports(const AssertReports&) = delete;
  AssertReports& operator=(const AssertReports&) = delete;

  // The words live as long as their modules (backends, and so this, live until exit).
  // Points the module's __anygpu_assert_report at a fresh word; a module without it needs none.
  ag_result attach(ZeModule* module, const CopyToDevice& copy);
  void detach(ZeModule* module);
  // AG_ERROR_LAUNCH_FAILED, once per failure, when a kernel failed an assertion since the last
  // check; AG_SUCCESS otherwise.
  ag_result check();

 private:
  const LevelZeroFunctions& ze_;
  ze_context_handle_t context_;
  std::mutex mutex_;
  std::map<ZeModule*, unsigned int*> words_;
};

}  // namespace anygpu::level_zero
