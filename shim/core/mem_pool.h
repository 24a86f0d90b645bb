// anygpu's own stream-ordered memory pool (agMemAllocAsync and the pool calls), on any backend:
// blocks come from the device's mem_alloc; a freed block is handed out again on the stream it was
// freed on at once, or on another stream after that stream is made to wait for an event recorded
// on the freeing stream. The event is recorded only then (or when the stream goes), not at every
// free: recorded later it covers more of that stream's work, which is still correct, and the
// common case, a block freed and taken again on one stream, costs no driver call. Drivers with an
// allocator of their own (cuMemAllocAsync, hipMallocAsync) are not used yet (docs/runtime-core.md).
#pragma once

#include <anygpu/anygpu.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
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

  // `bytes` (checked, non-zero) for work on `stream`, a stream of the pool's device. The caller
  // records the allocation, with this pool as its owner, in the device's tracker, which is how a
  // free finds its pool; the pool itself counts its allocations only.
  ag_result allocate(size_t bytes, const Stream& stream, void** pointer);
  // The block of an allocation of `bytes` at `pointer` comes back once `stream`'s work before
  // this call is done.
  void free_async(void* pointer, size_t bytes, const Stream& stream);
  // The same, the device having been synchronised (agMemFree).
  void free_now(void* pointer, size_t bytes);
  // `stream` (native) is about to be destroyed: blocks freed on it get their event now.
  void forget_stream(void* stream);
  ag_result trim_to(size_t keep);
  void set_release_threshold(uint64_t bytes);
  size_t live_count() const;
  void usage(uint64_t* used, uint64_t* reserved) const;

 private:
  struct Kept {
    void* pointer;
    size_t bytes;
    void* event;   // recorded on the freeing stream at or after the free; nullptr: none (yet)
    void* stream;  // the native stream it was freed on, while it lives; nullptr: see `event`
  };
  // Whether the block's free has completed (it may be recorded now); with mutex_ held.
  bool completed(Kept& block);
  // Gives `block` an event on its stream if it has none; with mutex_ held.
  ag_result record(Kept& block);
  // free_async and free_now: `stream` nullptr when the device is idle.
  void keep(void* pointer, size_t bytes, void* stream);
  // Gives kept blocks whose free completed back to the device, largest first, until at most
  // `keep` bytes are kept. Called with mutex_ held.
  void release_completed(uint64_t keep);
  void give_back(const Kept& block);
  ag_result take_event(void** event);

  Device& device_;
  mutable std::mutex mutex_;
  // Freed blocks by size, the last freed at the back; a size's vector stays when emptied, so
  // that a steady alloc-free cycle allocates nothing of the pool's own.
  std::map<size_t, std::vector<Kept>> kept_;
  std::vector<void*> spare_events_;
  uint64_t threshold_;
  size_t live_count_ = 0;
  uint64_t live_bytes_ = 0;
  uint64_t kept_bytes_ = 0;
  const bool is_default_;
};

}  // namespace anygpu
