#include "kernel_watchdog.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernel_fault_trap.h"
#include "shim/core/environment.h"
#include "shim/core/fork_guard.h"
#include "shim/core/log.h"

namespace anygpu::cpu {
namespace {

int64_t read_timeout_ms() {
  const std::string value = environment("ANYGPU_CPU_KERNEL_TIMEOUT_MS");
  if (value.empty()) return 0;
  char* end = nullptr;
  errno = 0;
  const long long parsed = strtoll(value.c_str(), &end, 10);
  if (errno != 0 || end == value.c_str() || *end != '\0' || parsed < 0) {
    log(LogLevel::warn,
        "ANYGPU_CPU_KERNEL_TIMEOUT_MS=%s is not a number of milliseconds; the watchdog stays off",
        value.c_str());
    return 0;
  }
  return parsed;
}

class Watchdog {
 public:
  explicit Watchdog(int64_t timeout_ms) : timeout_ns_(timeout_ms * 1000000) {
    // Never joined: it sleeps between rounds and ends with the process.
    std::thread([this] { monitor(); }).detach();
  }
  void add(WatchedThread* thread) {
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.push_back(thread);
  }
  void remove(WatchedThread* thread) {
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.erase(std::remove(threads_.begin(), threads_.end(), thread), threads_.end());
  }

 private:
  void monitor() {
    // A quarter of the timeout between rounds (1 to 50 ms): a late launch is stopped within
    // about 1.25 times the timeout, and a thread outside kernel code is asked again next round.
    const auto period = std::chrono::nanoseconds(
        std::clamp<int64_t>(timeout_ns_ / 4, int64_t{1000000}, int64_t{50000000}));
    for (;;) {
      std::this_thread::sleep_for(period);
      const int64_t now = watchdog_now_ns();
      // Under the lock a watched thread cannot finish exiting, so its pthread_t stays valid.
      std::lock_guard<std::mutex> lock(mutex_);
      for (WatchedThread* watched : threads_) {
        const int64_t started = watched->launch_started_ns.load(std::memory_order_acquire);
        if (started != 0 && now - started > timeout_ns_) interrupt_kernel(watched->thread);
      }
    }
  }

  const int64_t timeout_ns_;
  std::mutex mutex_;
  std::vector<WatchedThread*> threads_;
};

Watchdog* watchdog() {
  static Watchdog* instance = kernel_timeout_ms() > 0 ? new Watchdog(kernel_timeout_ms()) : nullptr;
  return instance;
}

}  // namespace

int64_t kernel_timeout_ms() {
  static const int64_t timeout = read_timeout_ms();
  return timeout;
}

int64_t watchdog_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void watch_thread(WatchedThread* thread) {
  if (Watchdog* w = watchdog()) w->add(thread);
}

void unwatch_thread(WatchedThread* thread) {
  // A forked child has no monitor thread, and its lock may have been copied held.
  if (in_forked_child()) return;
  if (Watchdog* w = watchdog()) w->remove(thread);
}

}  // namespace anygpu::cpu
