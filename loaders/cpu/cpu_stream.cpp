#include "cpu_stream.h"

#include <cstring>

#include "host_module.h"
#include "spin_wait.h"
#include "worker_pool.h"

namespace anygpu::cpu {

CpuStream::CpuStream(WorkerPool& pool) : pool_(pool), ring_(new Command[kRingSize]) {
  thread_ = std::thread([this] { run(); });
}

CpuStream::~CpuStream() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return completed_ == submitted_; });
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

CpuStream::Command& CpuStream::reserve(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [this] { return submitted_ - completed_ < kRingSize; });
  return ring_[submitted_ % kRingSize];
}

void CpuStream::publish(std::unique_lock<std::mutex>& lock) {
  ++submitted_;
  lock.unlock();
  changed_.notify_all();
}

void CpuStream::enqueue_launch(const LaunchPacket& packet) {
  std::unique_lock<std::mutex> lock(mutex_);
  Command& command = reserve(lock);
  command.kind = Kind::launch;
  command.packet = packet;
  const auto& layout = packet.kernel->layout;
  for (size_t i = 0; i < layout.size(); ++i) {
    memcpy(command.arguments + layout[i].offset, packet.params[i], layout[i].size);
    command.argument_pointers[i] = command.arguments + layout[i].offset;
  }
  command.packet.params = command.argument_pointers;
  packet.kernel->module->retain();  // released once run: the module may be unloaded meanwhile
  publish(lock);
}

void CpuStream::enqueue_copy(void* dst, const void* src, size_t bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  Command& command = reserve(lock);
  command.kind = Kind::copy;
  command.dst = dst;
  command.src = src;
  command.bytes = bytes;
  publish(lock);
}

void copy_rows(const PitchedCopy& c) {
  if (c.contiguous()) {
    memmove(c.dst, c.src, c.width * c.height * c.depth);
    return;
  }
  c.for_each_row([&](void* dst, const void* src) { memmove(dst, src, c.width); });
}

void CpuStream::enqueue_pitched_copy(const PitchedCopy& c) {
  std::unique_lock<std::mutex> lock(mutex_);
  Command& command = reserve(lock);
  command.kind = Kind::pitched_copy;
  command.pitched = c;
  publish(lock);
}

void fill_elements(void* dst, uint32_t value, unsigned element_size, size_t count) {
  if (element_size == 1) {
    memset(dst, static_cast<unsigned char>(value), count);
  } else if (element_size == 2) {
    std::fill_n(static_cast<uint16_t*>(dst), count, static_cast<uint16_t>(value));
  } else {
    std::fill_n(static_cast<uint32_t*>(dst), count, value);
  }
}

void CpuStream::enqueue_fill(void* dst, uint32_t value, unsigned element_size, size_t count) {
  std::unique_lock<std::mutex> lock(mutex_);
  Command& command = reserve(lock);
  command.kind = Kind::memset;
  command.dst = dst;
  command.value = value;
  command.element_size = element_size;
  command.bytes = count;
  publish(lock);
}

void CpuStream::enqueue_record(CpuEvent* event) {
  event->retain();
  std::unique_lock<std::mutex> lock(mutex_);
  Command& command = reserve(lock);
  command.kind = Kind::record;
  command.event = event;
  // Issued only once the record has its place in the ring: a wait for this generation, queued
  // meanwhile on this stream, could otherwise fill the ring and keep the record out for good.
  command.generation = event->issue_record();
  publish(lock);
}

void CpuStream::enqueue_wait(CpuEvent* event) {
  uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(event->mutex);
    generation = event->recorded;
  }
  if (generation == 0) return;  // never recorded: nothing to wait for
  event->retain();
  std::unique_lock<std::mutex> lock(mutex_);
  Command& command = reserve(lock);
  command.kind = Kind::wait;
  command.event = event;
  command.generation = generation;
  publish(lock);
}

void CpuStream::enqueue_host_function(void (*fn)(void*), void* data) {
  std::unique_lock<std::mutex> lock(mutex_);
  Command& command = reserve(lock);
  command.kind = Kind::host_function;
  command.host_function = fn;
  command.host_data = data;
  publish(lock);
}

void CpuStream::synchronize() {
  const uint64_t target = submitted_.load();
  if (spin_briefly_until([&] { return completed_.load() >= target; })) return;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return completed_ >= target; });
}

bool CpuStream::idle() {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ == submitted_;
}

void CpuStream::execute(Command& command) {
  // After a kernel faulted, the device runs nothing more (records and waits still complete, so
  // nothing waits forever).
  const bool faulted = pool_.fault_state().faulted();
  switch (command.kind) {
    case Kind::launch: {
      HostModule* module = command.packet.kernel->module;
      if (!faulted) pool_.run(command.packet);
      module->release();  // skipped or run, the launch lets go of its module
      break;
    }
    case Kind::copy:
      if (!faulted) memmove(command.dst, command.src, command.bytes);
      break;
    case Kind::pitched_copy:
      if (!faulted) copy_rows(command.pitched);
      break;
    case Kind::memset:
      if (!faulted) fill_elements(command.dst, command.value, command.element_size, command.bytes);
      break;
    case Kind::record:
      command.event->complete(command.generation);
      command.event->release();
      break;
    case Kind::wait:
      command.event->wait_for(command.generation);
      command.event->release();
      break;
    case Kind::host_function:
      command.host_function(command.host_data);
      break;
  }
}

void CpuStream::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (completed_ == submitted_ && !stopping_) {
      lock.unlock();
      spin_briefly_until([this] { return completed_.load() < submitted_.load(); });
      lock.lock();
    }
    changed_.wait(lock, [this] { return stopping_ || completed_ < submitted_; });
    if (completed_ == submitted_) return;  // stopping with nothing left
    Command& command = ring_[completed_ % kRingSize];
    // A record completes under the lock, with the count: whoever sees the event done sees the
    // stream past it, and the other way round.
    if (command.kind != Kind::record) {
      lock.unlock();
      execute(command);
      lock.lock();
    } else {
      execute(command);
    }
    ++completed_;
    changed_.notify_all();
  }
}

}  // namespace anygpu::cpu
