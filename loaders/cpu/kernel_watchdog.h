// The optional watchdog (ANYGPU_CPU_KERNEL_TIMEOUT_MS, off by default): a launch whose blocks are
// still running that many milliseconds after it started is stopped as a GPU's watchdog stops a
// kernel. A monitor thread signals each thread still running it (kernel_fault_trap.h); the thread
// jumps out when it is in kernel code, and the device fails with AG_ERROR_LAUNCH_TIMEOUT. A kernel
// blocked inside a library call (a system call, a lock) is stopped only once it is back in its own
// code.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>

namespace anygpu::cpu {

// A thread that runs blocks, as the watchdog sees it.
struct WatchedThread {
  pthread_t thread = pthread_self();
  std::atomic<int64_t> launch_started_ns{0};  // 0 while it runs no blocks
};

// The timeout in milliseconds; 0 when the watchdog is off. Read once.
int64_t kernel_timeout_ms();

// steady_clock now, in nanoseconds.
int64_t watchdog_now_ns();

// Watches `thread` (from its first run of blocks to its end); no-op when the watchdog is off.
void watch_thread(WatchedThread* thread);
void unwatch_thread(WatchedThread* thread);

}  // namespace anygpu::cpu
