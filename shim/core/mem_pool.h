// anygpu's own stream-ordered memory pool (agMemAllocAsync and the pool calls), on any backend:
// blocks come from the device's mem_alloc; a free records an event on its stream, and a block is
// handed out again on the stream it was freed on at once, or on another stream after that stream
// is made to wait for the event. Drivers with an allocator of their own (cuMemAllocAsync,
// hipMallocAsync) are not used yet (docs/runtime-core.md).
#pragma once

#include <anygpu/anygpu.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace anygpu {

struct Device;
struct Stream;

class MemPool {
 public:
  MemPool(Device& device, uint64_t release_threshold, bool is_default)
      : device_(device), threshold_(release_threshold), is_default_(is_default) {}
  MemPool(const MemPool&) = delete;
  MemPool& operator=(const MemPool&) = delete;
  // Gives every kept block back (waiting for their frees first) and destroys the events. The
  // caller made sure no allocation is live.
  ~MemPool();

  Device& device() const { return device_; }
  bool is_default() const { return is_default_; }

  // `bytes` (checked, non-zero) for work on `stream`, a stream of the pool's device.
  ag_result allocate(size_t bytes, const Stream& stream, void** pointer);
  // True when `pointer` is an allocation of the pool not yet freed.
  bool owns(const void* pointer) const;
  // The block at `pointer` comes back once `stream`'s work before this call is done.
  ag_result free_async(void* pointer, const Stream& stream);
  // The block comes back now: the device was synchronised (agMemFree).
  ag_result free_now(void* pointer);
  ag_result trim_to(size_t keep);
  void set_release_threshold(uint64_t bytes);
  size_t live_count() const;
  void usage(uint64_t* used, uint64_t* reserved) const;

 private:
  struct Kept {
    void* pointer;
    size_t bytes;
    void* event;   // recorded at the free; nullptr for a block freed with the device idle
    void* stream;  // the native stream it was freed on (nullptr: none)
  };
  // Gives kept blocks whose free completed back to the device, largest first, until at most
  // `keep` bytes are kept. Called with mutex_ held.
  void release_completed(uint64_t keep);
  void give_back(const Kept& block);
  ag_result take_event(void** event);

  Device& device_;
  mutable std::mutex mutex_;
  std::unordered_map<void*, size_t> live_;  // allocation -> its block's bytes
  std::multimap<size_t, Kept> kept_;        // freed blocks by size
  std::vector<void*> spare_events_;
  uint64_t threshold_;
  uint64_t live_bytes_ = 0;
  uint64_t kept_bytes_ = 0;
  const bool is_default_;
};

}  // namespace anygpu
