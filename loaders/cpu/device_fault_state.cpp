#include "device_fault_state.h"

#include <cinttypes>

#include "kernel_watchdog.h"
#include "shim/core/error.h"
#include "shim/core/fork_guard.h"
#include "shim/support/string_format.h"

namespace anygpu::cpu {

void DeviceFaultState::record(const char* kernel, const agk_dim3& block, const agk_dim3& grid,
                              const KernelFault& fault) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (faulted_.load(std::memory_order_relaxed)) return;
  const uint64_t linear = block.x + uint64_t{grid.x} * (block.y + uint64_t{grid.y} * block.z);
  const std::string where =
      strprintf("block %llu (blockIdx %u, %u, %u)", static_cast<unsigned long long>(linear),
                block.x, block.y, block.z);
  const char* consequence =
      "The CPU device stays failed, as a GPU context does after a fault: every later call on it "
      "returns this error; start a new process to use it again";
  if (fault.timed_out) {
    code_ = AG_ERROR_LAUNCH_TIMEOUT;
    detail_ = strprintf(
        "kernel '%s' ran longer than ANYGPU_CPU_KERNEL_TIMEOUT_MS=%lld allows and was stopped in "
        "%s at instruction 0x%" PRIxPTR ". %s",
        kernel, static_cast<long long>(kernel_timeout_ms()), where.c_str(),
        reinterpret_cast<uintptr_t>(fault.instruction), consequence);
  } else if (fault.reason) {
    code_ = AG_ERROR_LAUNCH_FAILED;
    detail_ = strprintf("kernel '%s' was stopped in %s: %s. %s", kernel, where.c_str(),
                        fault.reason, consequence);
  } else {
    code_ = AG_ERROR_LAUNCH_FAILED;
    detail_ = strprintf(
        "kernel '%s' faulted in %s: %s at address 0x%" PRIxPTR " (instruction 0x%" PRIxPTR "). %s",
        kernel, where.c_str(), describe_fault(fault), reinterpret_cast<uintptr_t>(fault.address),
        reinterpret_cast<uintptr_t>(fault.instruction), consequence);
  }
  faulted_.store(true, std::memory_order_release);
}

ag_result DeviceFaultState::check() const {
  if (ag_result r = refuse_in_forked_child()) return r;
  if (!faulted()) return AG_SUCCESS;
  std::lock_guard<std::mutex> lock(mutex_);
  return fail(code_, "%s", detail_.c_str());
}

ag_result DeviceFaultState::check_releasable() {
  return refuse_in_forked_child();
}

}  // namespace anygpu::cpu
