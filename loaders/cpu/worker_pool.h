// The CPU device's worker threads. A launch is split into chunks of consecutive blocks; the
// submitting thread works on its own launch too, and a launch that fits one chunk runs on it
// alone, without waking anyone. Several launches (from several streams) may be in flight.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "device_fault_state.h"
#include "host_kernel.h"

namespace anygpu::cpu {

class WorkerPool {
 public:
  explicit WorkerPool(unsigned thread_count);  // thread_count - 1 workers plus the submitter
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs every block of `packet`; returns when all are done. When kernel code faults, the rest of
  // the launch is abandoned and fault_state() records it; once the device faulted nothing runs.
  void run(const LaunchPacket& packet);
  unsigned thread_count() const { return thread_count_; }
  DeviceFaultState& fault_state() { return fault_state_; }

 private:
  struct Job {
    const LaunchPacket* packet;
    uint32_t blocks_per_chunk;
    uint32_t chunk_count;
    std::atomic<uint32_t> next_chunk{0};
    int workers_inside = 0;  // guarded by mutex_
    int64_t started_ns = 0;  // for the watchdog
  };

  void work_on(Job& job);
  // Runs blocks [begin, end) on this thread; false (and the device marked faulted) on a fault.
  bool run_chunk(const LaunchPacket& packet, uint32_t begin, uint32_t end, int64_t started_ns);
  void remove_job(std::deque<Job*>::iterator queued);  // with mutex_ held
  void worker_loop();
  void stop_workers();  // tells every worker to stop and joins it

  unsigned thread_count_;
  DeviceFaultState fault_state_;
  std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable worker_left_;
  std::deque<Job*> jobs_;
  std::atomic<size_t> queued_jobs_{0};  // jobs_.size(), readable without the lock
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace anygpu::cpu
