// A CPU stream: an in-order queue of commands run by its own thread. Commands live in a fixed ring,
// launch arguments are copied into the slot, so submitting allocates nothing; a full ring makes the
// submitter wait.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "cpu_event.h"
#include "host_kernel.h"
#include "shim/core/pitched_copy.h"

namespace anygpu::cpu {

class WorkerPool;

constexpr size_t kMaxArgumentBytes = 4096;
constexpr size_t kMaxParameters = 256;

// A 2-D or 3-D copy, row by row (overlapping rows as memmove does).
void copy_rows(const PitchedCopy& c);
// `count` elements of `element_size` bytes (1, 2 or 4) set to the low bytes of `value`.
void fill_elements(void* dst, uint32_t value, unsigned element_size, size_t count);

class CpuStream {
 public:
  explicit CpuStream(WorkerPool& pool);
  ~CpuStream();  // finishes pending work first
  CpuStream(const CpuStream&) = delete;
  CpuStream& operator=(const CpuStream&) = delete;

  void enqueue_launch(const LaunchPacket& packet);  // copies the arguments
  void enqueue_copy(void* dst, const void* src, size_t bytes);
  void enqueue_pitched_copy(const PitchedCopy& c);
  void enqueue_fill(void* dst, uint32_t value, unsigned element_size, size_t count);
  void enqueue_record(CpuEvent* event);
  void enqueue_wait(CpuEvent* event);
  // Runs `fn(data)` on the stream's thread, in order; also after a fault, so that a program
  // waiting for it does not wait forever.
  void enqueue_host_function(void (*fn)(void*), void* data);

  void synchronize();
  bool idle();

 private:
  enum class Kind { launch, copy, pitched_copy, memset, record, wait, host_function };
  struct Command {
    Kind kind;
    LaunchPacket packet;
    void* dst;
    const void* src;
    size_t bytes;  // a fill: the element count
    PitchedCopy pitched;
    uint32_t value;
    unsigned element_size;
    CpuEvent* event;
    void (*host_function)(void*);
    void* host_data;
    uint64_t generation;
    void* argument_pointers[kMaxParameters];
    alignas(64) unsigned char arguments[kMaxArgumentBytes];
  };
  static constexpr uint64_t kRingSize = 64;

  Command& reserve(std::unique_lock<std::mutex>& lock);
  void publish(std::unique_lock<std::mutex>& lock);
  void execute(Command& command);
  void run();

  WorkerPool& pool_;
  std::unique_ptr<Command[]> ring_;
  std::mutex mutex_;
  std::condition_variable changed_;
  // Changed under mutex_; also read without it, to spin before sleeping.
  std::atomic<uint64_t> submitted_{0};  // commands written
  std::atomic<uint64_t> completed_{0};  // commands finished
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace anygpu::cpu
