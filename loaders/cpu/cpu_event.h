// A CPU event: a generation counter of records issued and completed, and the completion time.
// Reference-counted so that a queued record or wait outlives agEventDestroy.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace anygpu::cpu {

struct CpuEvent {
  std::mutex mutex;
  std::condition_variable completed_changed;
  uint64_t recorded = 0;   // records issued
  uint64_t completed = 0;  // the latest record completed
  int64_t timestamp_ns = 0;
  std::atomic<int> references{1};

  uint64_t issue_record() {
    std::lock_guard<std::mutex> lock(mutex);
    return ++recorded;
  }
  void complete(uint64_t generation) {
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
    std::lock_guard<std::mutex> lock(mutex);
    if (generation >= completed) {
      completed = generation;
      timestamp_ns = now;
    }
    completed_changed.notify_all();
  }
  void wait_for(uint64_t generation) {
    std::unique_lock<std::mutex> lock(mutex);
    completed_changed.wait(lock, [&] { return completed >= generation; });
  }
  void retain() { references.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
};

}  // namespace anygpu::cpu
