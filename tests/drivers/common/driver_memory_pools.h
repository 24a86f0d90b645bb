// Stream-ordered allocation's memory pools (cuMemPoolCreate, hipMemPoolCreate and the calls beside
// them), the same whatever vendor API a driver stands in for. A pool hands out blocks of its
// device's memory, each a whole number of kPoolGranule bytes. A freed block stays the pool's
// (reserved) for a later allocation while the pool's reserved bytes stay within its release
// threshold; above it, it goes back to the device once its free has completed. A block whose free
// is still queued serves only allocations on the stream that freed it (stream order makes that
// safe); any stream may have it once the free has completed. Used: the blocks of live
// allocations; reserved: used, and the blocks kept.
//
// The driver keeps the live allocations (a pool's marked with its pool: copies and frees find
// them there) and checks its own handles; this keeps the pools. One mutex guards them, held while
// DeviceMemory's functions run: those take the driver's own lock, and the driver calls in here
// without it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace anygpu {
class DeviceBackend;
}

namespace anygpu::test_driver {

// Every block is a whole number of these: a request's block is the request rounded up.
constexpr size_t kPoolGranule = 256;

class MemoryPools {
 public:
  // Where blocks come from and go back to: the driver's device memory, counted as its other
  // allocations are (the driver's memory-info call sees what pools reserve).
  struct DeviceMemory {
    // `bytes` of `device`'s memory; false when the device has no room.
    std::function<bool(int device, size_t bytes, void** pointer)> allocate;
    // Gives back what `allocate` gave.
    std::function<void(int device, void* pointer, size_t bytes)> release;
  };

  enum class Result { ok, invalid_pool, out_of_memory };

  struct Usage {
    uint64_t release_threshold;
    uint64_t used;
    uint64_t reserved;
  };

  // `cpu` runs the streams whose work the frees follow.
  MemoryPools(DeviceBackend& cpu, DeviceMemory memory);
  MemoryPools(const MemoryPools&) = delete;
  MemoryPools& operator=(const MemoryPools&) = delete;

  // A new pool of `device`, release threshold 0; `max_bytes` the most it may reserve (0: as much
  // as the device has).
  void* create(int device, size_t max_bytes);
  // `device`'s default pool (cuMemAllocAsync, hipMallocAsync), made on first use, never destroyed.
  void* default_pool(int device);
  // Whether `pool` names a pool (made and not destroyed); its device in `*device` where given.
  bool find(const void* pool, int* device = nullptr) const;
  // False for what is not a pool `create` made, or one destroyed. The handle is invalid from now;
  // the kept blocks whose frees have completed go back at once, the rest of the pool once its
  // allocations are freed and their frees have completed (as CUDA documents cuMemPoolDestroy).
  bool destroy(const void* pool);

  // A block for `bytes` (not 0) from `pool` for work on `stream` (the CPU backend's; nullptr: a
  // stream whose work runs to completion at each call): the smallest kept block of at least the
  // request's granules and at most twice them whose free has completed or was queued on `stream`,
  // else a new one. Its size in `*block` (what used counts), its device in `*device`.
  Result allocate(const void* pool, size_t bytes, void* stream, void** pointer, size_t* block,
                  int* device);
  // The `block` bytes at `pointer`, a live allocation of `pool` (its handle destroyed or not) that
  // the driver has just forgotten, are freed in `stream`'s order: the free is queued on `stream`
  // (nullptr: it completes now, the work that used the block being done).
  void free(const void* pool, void* pointer, size_t block, void* stream);

  // Gives back kept blocks whose frees have completed, the largest first, until the pool reserves
  // at most `keep` bytes (or no more can go). False for what `find` refuses.
  bool trim_to(const void* pool, size_t keep);
  bool set_release_threshold(const void* pool, uint64_t bytes);
  bool usage(const void* pool, Usage* usage) const;

 private:
  struct Kept {
    void* pointer;
    size_t bytes;
    void* stream;     // the CPU stream whose queued free it waits for; nullptr: free completed
    uint64_t ticket;  // that free's
  };
  struct Pool {
    int device;
    size_t max_bytes;
    bool is_default;
    bool destroyed = false;
    uint64_t release_threshold = 0;
    uint64_t used = 0;
    uint64_t kept_bytes = 0;
    size_t live = 0;                 // allocations not freed
    size_t pending_completions = 0;  // completion callbacks queued on streams
    std::vector<Kept> kept;
    uint64_t reserved() const { return used + kept_bytes; }
  };
  struct Completion {
    MemoryPools* pools;
    Pool* pool;
    uint64_t ticket;
  };

  // What a handle names, destroyed or not; nullptr for none. With mutex_ held.
  Pool* lookup(const void* pool) const;
  // The pool a handle names if not destroyed. With mutex_ held.
  Pool* live_pool(const void* pool) const;
  // Runs on the stream when it reaches the free.
  static void complete(void* completion);
  void completed(Pool* pool, uint64_t ticket);
  // Gives back kept blocks whose frees have completed, the largest first, while the pool reserves
  // more than `keep`. With mutex_ held.
  void release_completed(Pool* pool, uint64_t keep);
  // After a free or a completion: a destroyed pool gives back all it can, and goes once nothing is
  // left; another gives back down to its release threshold. With mutex_ held.
  void settle(Pool* pool);

  DeviceBackend& cpu_;
  const DeviceMemory memory_;
  mutable std::mutex mutex_;
  std::map<const void*, std::unique_ptr<Pool>> pools_;  // by handle: the Pool's address
  std::map<int, Pool*> defaults_;                       // by device
  uint64_t next_ticket_ = 0;
};

}  // namespace anygpu::test_driver
