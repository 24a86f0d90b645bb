// anygpu's own stream-ordered memory pool (agMemAllocAsync and the pool calls), on any backend:
// blocks come from the device's mem_alloc; a freed block is handed out again on the stream it
// was freed on at once (stream order makes that safe), and on another stream only once its free
// has completed (the freeing stream idle, or an event recorded after the free passed). A free
// records no event: one is recorded only to ask about a busy stream, or when the stream goes.
// No stream ever waits on the pool's events, so one stream's later work never waits for
// another's, and an event is reused only when nothing waits on it. On a backend that uses its
// driver's allocator (DeviceBackend::driver_pools: CUDA, HIP) the pool is a driver pool and this
// class only counts, checks and forwards (docs/runtime-core.md).
#pragma once

#include <anygpu/anygpu.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace anygpu {

struct Device;
struct Stream;

class MemPool {
 public:
  MemPool(Device& device, uint64_t release_threshold, bool is_default)
      : device_(device), threshold_(release_threshold), is_default_(is_default) {}
  // A pool of the device: the driver's where its backend uses driver pools, else the core's.
  static ag_result create(Device& device, uint64_t release_threshold, bool is_default,
                          std::unique_ptr<MemPool>* pool);
  MemPool(const MemPool&) = delete;
  MemPool& operator=(const MemPool&) = delete;
  // Gives every kept block back (waiting for their frees first) and destroys the events. The
  // pool was closed and its streams let go (settle).
  ~MemPool();

  Device& device() const { return device_; }
  bool is_default() const { return is_default_; }

  // `bytes` (checked, non-zero) for work on `stream`, a stream of the pool's device; the block's
  // size in `block`. The caller records the allocation in the device's tracker with this pool and
  // the block's size as its owner, which is how a free finds its pool.
  ag_result allocate(size_t bytes, const Stream& stream, void** pointer, size_t* block);
  // The `block` bytes at `pointer`, `pool_kept` in the tracker, come back once `stream`'s work
  // before this call is done. Only a driver pool can fail; the allocation is then live again.
  ag_result free_async(void* pointer, size_t block, const Stream& stream);
  // The same, the device having been synchronised (agMemFree).
  ag_result free_now(void* pointer, size_t block);
  // `stream` (native) is about to be destroyed: blocks freed on it stop naming it.
  void forget_stream(void* stream);
  // Refuses further allocations unless some are live (false then, nothing changed).
  bool close();
  // Lets go of every stream its kept blocks name (before the pool leaves its device's list).
  void settle();
  ag_result trim_to(size_t keep);
  ag_result set_release_threshold(uint64_t bytes);
  ag_result usage(uint64_t* used, uint64_t* reserved) const;

 private:
  struct Kept {
    void* pointer;
    size_t bytes;
    void* event;   // recorded on `stream` after the free; nullptr: none (yet)
    void* stream;  // the native stream it was freed on; nullptr: its free is done, or `event` says
  };
  // free_async and free_now: `stream` nullptr when the device is idle.
  ag_result keep(void* pointer, size_t block, void* stream);
  // The same for a driver pool: the tracker forgets the block before the driver may reuse it.
  ag_result free_to_driver(void* pointer, size_t block, void* stream);
  // Whether the block's free has completed; with `record` a busy stream gets an event to ask
  // later. With mutex_ held.
  bool completed(Kept& block, bool record);
  // The block stops naming its stream: an event stands for it, else the stream is waited for.
  void detach(Kept& block);
  // Gives kept blocks whose free completed back to the device, largest first, until at most
  // `keep` bytes are kept. With mutex_ held.
  void release_completed(uint64_t keep);
  void give_back(const Kept& block);
  ag_result take_event(void** event);

  Device& device_;
  void* native_ = nullptr;  // the driver's pool, where the backend uses driver pools
  mutable std::mutex mutex_;
  // Freed blocks by size, the last freed at the back; a size's vector stays when emptied, so
  // that a steady alloc-free cycle allocates nothing of the pool's own.
  std::map<size_t, std::vector<Kept>> kept_;
  std::vector<void*> spare_events_;  // recorded or not, waited on by no stream
  uint64_t threshold_;
  size_t live_count_ = 0;
  uint64_t live_bytes_ = 0;
  uint64_t kept_bytes_ = 0;
  bool closed_ = false;
  const bool is_default_;
};

}  // namespace anygpu
