// The CPU device's sticky failure, as a GPU context's: after a kernel faulted, every later call on
// the device reports AG_ERROR_LAUNCH_FAILED (AG_ERROR_LAUNCH_TIMEOUT when the watchdog stopped
// it) with what happened, until the process ends. In a forked child every call is refused
// (shim/core/fork_guard.h).
#pragma once

#include <anygpu/anygpu.h>
#include <anygpu/kernel_host_abi.h>

#include <atomic>
#include <mutex>
#include <string>

#include "kernel_fault_trap.h"

namespace anygpu::cpu {

class DeviceFaultState {
 public:
  bool faulted() const { return faulted_.load(std::memory_order_acquire); }

  // The first fault wins; later ones (other workers of the same launch) are dropped.
  void record(const char* kernel, const agk_dim3& block, const agk_dim3& grid,
              const KernelFault& fault);

  // AG_SUCCESS, or the recorded failure (with its detail) for any call on the device.
  ag_result check() const;
  // For calls that release objects: refused only in a forked child, so a program whose device
  // faulted can still destroy its streams and events.
  static ag_result check_releasable();

 private:
  std::atomic<bool> faulted_{false};
  ag_result code_ = AG_SUCCESS;  // set with detail_, before faulted_
  mutable std::mutex mutex_;
  std::string detail_;
};

}  // namespace anygpu::cpu
