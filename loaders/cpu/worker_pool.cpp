#include "worker_pool.h"

#include <algorithm>

#include "block_runner.h"
#include "spin_wait.h"

namespace anygpu::cpu {

WorkerPool::WorkerPool(unsigned thread_count) : thread_count_(std::max(1u, thread_count)) {
  workers_.reserve(thread_count_ - 1);
  try {
    for (unsigned i = 1; i < thread_count_; ++i) workers_.emplace_back([this] { worker_loop(); });
  } catch (...) {
    // The system refused a thread (std::system_error): no destructor runs for a constructor that
    // throws, and a joinable std::thread destroyed would end the process, so the workers already
    // started are stopped here and the refusal goes on to the caller (agInit reports it).
    stop_workers();
    throw;
  }
}

WorkerPool::~WorkerPool() {
  stop_workers();
}

void WorkerPool::stop_workers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_available_.notify_all();
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): iterators are passed by value
void WorkerPool::remove_job(std::deque<Job*>::iterator queued) {
  jobs_.erase(queued);
  queued_jobs_.store(jobs_.size(), std::memory_order_relaxed);
}

bool WorkerPool::run_chunk(const LaunchPacket& packet, uint32_t begin, uint32_t end,
                           int64_t started_ns) {
  BlockRunner& runner = BlockRunner::for_this_thread();
  KernelFault fault;
  if (runner.run_blocks(packet, begin, end, started_ns, fault)) return true;
  fault_state_.record(packet.kernel->desc->name, runner.faulting_block(), packet.grid, fault);
  return false;
}

void WorkerPool::work_on(Job& job) {
  const LaunchPacket& packet = *job.packet;
  for (;;) {
    if (fault_state_.faulted()) return;  // a launch that faulted is abandoned, and all after it
    const uint32_t chunk = job.next_chunk.fetch_add(1, std::memory_order_relaxed);
    if (chunk >= job.chunk_count) return;
    const uint32_t begin = chunk * job.blocks_per_chunk;
    const uint32_t end = std::min(packet.total_blocks, begin + job.blocks_per_chunk);
    if (!run_chunk(packet, begin, end, job.started_ns)) return;
  }
}

void WorkerPool::run(const LaunchPacket& packet) {
  // Many chunks per thread keep the tail short when one thread starts late or is preempted; a
  // chunk costs one atomic increment.
  const uint32_t target_chunks = thread_count_ * 16;
  Job job;
  job.packet = &packet;
  job.started_ns = kernel_timeout_ms() > 0 ? watchdog_now_ns() : 1;
  job.blocks_per_chunk = std::max(1u, (packet.total_blocks + target_chunks - 1) / target_chunks);
  job.chunk_count = (packet.total_blocks + job.blocks_per_chunk - 1) / job.blocks_per_chunk;
  if (fault_state_.faulted()) return;
  if (job.chunk_count <= 1 || workers_.empty()) {
    run_chunk(packet, 0, packet.total_blocks, job.started_ns);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(&job);
    queued_jobs_.store(jobs_.size(), std::memory_order_relaxed);
  }
  // Only as many sleepers as there are chunks beyond the submitter's first: a launch of a few
  // blocks does not wake the whole pool (spinning workers find the job on their own).
  const size_t helpers = std::min<size_t>(job.chunk_count - 1, workers_.size());
  for (size_t i = 0; i < helpers; ++i) work_available_.notify_one();
  work_on(job);
  std::unique_lock<std::mutex> lock(mutex_);
  auto queued = std::find(jobs_.begin(), jobs_.end(), &job);
  if (queued != jobs_.end()) remove_job(queued);  // no new worker may enter it now
  worker_left_.wait(lock, [&] { return job.workers_inside == 0; });
}

void WorkerPool::worker_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (jobs_.empty() && !stopping_) {
      lock.unlock();  // launches often come back to back
      spin_briefly_until([this] { return queued_jobs_.load(std::memory_order_relaxed) != 0; });
      lock.lock();
    }
    work_available_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (stopping_) return;
    Job* job = jobs_.front();
    ++job->workers_inside;
    lock.unlock();
    work_on(*job);
    lock.lock();
    auto queued = std::find(jobs_.begin(), jobs_.end(), job);
    if (queued != jobs_.end()) remove_job(queued);  // exhausted
    if (--job->workers_inside == 0) worker_left_.notify_all();
  }
}

}  // namespace anygpu::cpu
