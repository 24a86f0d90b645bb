#include "driver_memory_pools.h"

#include <algorithm>
#include <utility>

#include "shim/core/backend.h"

namespace anygpu::test_driver {
namespace {

// A request's block: whole granules; 0 where that overflows.
size_t block_bytes(size_t bytes) {
  return bytes > SIZE_MAX - (kPoolGranule - 1)
             ? 0
             : (bytes + kPoolGranule - 1) / kPoolGranule * kPoolGranule;
}

}  // namespace

MemoryPools::MemoryPools(DeviceBackend& cpu, DeviceMemory memory)
    : cpu_(cpu), memory_(std::move(memory)) {}

MemoryPools::Pool* MemoryPools::lookup(const void* pool) const {
  const auto found = pools_.find(pool);
  return found == pools_.end() ? nullptr : found->second.get();
}

MemoryPools::Pool* MemoryPools::live_pool(const void* pool) const {
  Pool* found = lookup(pool);
  return found && !found->destroyed ? found : nullptr;
}

void* MemoryPools::create(int device, size_t max_bytes) {
  auto pool = std::make_unique<Pool>();
  pool->device = device;
  pool->max_bytes = max_bytes;
  pool->is_default = false;
  Pool* made = pool.get();
  std::lock_guard<std::mutex> lock(mutex_);
  pools_[made] = std::move(pool);
  return made;
}

void* MemoryPools::default_pool(int device) {
  std::lock_guard<std::mutex> lock(mutex_);
  Pool*& pool = defaults_[device];
  if (!pool) {
    auto made = std::make_unique<Pool>();
    made->device = device;
    made->max_bytes = 0;
    made->is_default = true;
    pool = made.get();
    pools_[pool] = std::move(made);
  }
  return pool;
}

bool MemoryPools::find(const void* pool, int* device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const Pool* found = live_pool(pool);
  if (found && device) *device = found->device;
  return found != nullptr;
}

bool MemoryPools::destroy(const void* pool) {
  std::lock_guard<std::mutex> lock(mutex_);
  Pool* found = live_pool(pool);
  if (!found || found->is_default) return false;
  found->destroyed = true;
  settle(found);
  return true;
}

MemoryPools::Result MemoryPools::allocate(const void* pool, size_t bytes, void* stream,
                                          void** pointer, size_t* block, int* device) {
  std::lock_guard<std::mutex> lock(mutex_);
  Pool* p = live_pool(pool);
  if (!p) return Result::invalid_pool;
  const size_t rounded = block_bytes(bytes);
  if (rounded == 0) return Result::out_of_memory;
  // The smallest kept block that fits and wastes at most half of itself, usable on `stream`.
  auto best = p->kept.end();
  for (auto it = p->kept.begin(); it != p->kept.end(); ++it) {
    if (it->bytes < rounded || it->bytes / 2 > rounded) continue;
    if (it->stream && it->stream != stream) continue;  // its free is still queued elsewhere
    if (best == p->kept.end() || it->bytes < best->bytes) best = it;
  }
  if (best != p->kept.end()) {
    // A completion still queued for it finds its ticket gone and leaves the block alone.
    *pointer = best->pointer;
    *block = best->bytes;
    p->kept_bytes -= best->bytes;
    p->kept.erase(best);
  } else {
    if (p->max_bytes && (rounded > p->max_bytes || p->reserved() > p->max_bytes - rounded)) {
      release_completed(p, rounded > p->max_bytes ? 0 : p->max_bytes - rounded);
      if (rounded > p->max_bytes || p->reserved() > p->max_bytes - rounded)
        return Result::out_of_memory;
    }
    void* allocated = nullptr;
    bool made = memory_.allocate(p->device, rounded, &allocated);
    if (!made && p->kept_bytes > 0) {  // what the pool keeps may be what the device lacks
      release_completed(p, p->used);
      made = memory_.allocate(p->device, rounded, &allocated);
    }
    if (!made) return Result::out_of_memory;
    *pointer = allocated;
    *block = rounded;
  }
  p->used += *block;
  ++p->live;
  *device = p->device;
  return Result::ok;
}

void MemoryPools::free(const void* pool, void* pointer, size_t block, void* stream) {
  Completion* completion = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Pool* p = lookup(pool);
    if (!p) return;  // not reached: a pool stays while it has allocations
    p->used -= block;
    --p->live;
    if (!stream) {
      p->kept.push_back(Kept{pointer, block, nullptr, 0});
      p->kept_bytes += block;
      settle(p);
      return;
    }
    const uint64_t ticket = ++next_ticket_;
    p->kept.push_back(Kept{pointer, block, stream, ticket});
    p->kept_bytes += block;
    ++p->pending_completions;
    completion = new Completion{this, p, ticket};
  }
  // Queued without the lock: the stream may run it (and take the lock) at once.
  if (cpu_.launch_host_func(stream, &MemoryPools::complete, completion) != AG_SUCCESS) {
    cpu_.stream_synchronize(stream);
    complete(completion);
  }
}

void MemoryPools::complete(void* data) {
  std::unique_ptr<Completion> completion(static_cast<Completion*>(data));
  completion->pools->completed(completion->pool, completion->ticket);
}

void MemoryPools::completed(Pool* pool, uint64_t ticket) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Kept& kept : pool->kept) {
    if (kept.stream && kept.ticket == ticket) {
      kept.stream = nullptr;
      break;
    }
  }
  --pool->pending_completions;
  settle(pool);
}

void MemoryPools::release_completed(Pool* pool, uint64_t keep) {
  std::vector<Kept>& kept = pool->kept;
  std::stable_sort(kept.begin(), kept.end(),
                   [](const Kept& a, const Kept& b) { return a.bytes > b.bytes; });
  for (auto it = kept.begin(); it != kept.end() && pool->reserved() > keep;) {
    if (it->stream) {
      ++it;
      continue;
    }
    memory_.release(pool->device, it->pointer, it->bytes);
    pool->kept_bytes -= it->bytes;
    it = kept.erase(it);
  }
}

void MemoryPools::settle(Pool* pool) {
  if (!pool->destroyed) {
    if (pool->reserved() > pool->release_threshold)
      release_completed(pool, pool->release_threshold);
    return;
  }
  release_completed(pool, 0);
  if (pool->live == 0 && pool->pending_completions == 0 && pool->kept.empty()) pools_.erase(pool);
}

bool MemoryPools::trim_to(const void* pool, size_t keep) {
  std::lock_guard<std::mutex> lock(mutex_);
  Pool* p = live_pool(pool);
  if (!p) return false;
  release_completed(p, keep);
  return true;
}

bool MemoryPools::set_release_threshold(const void* pool, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  Pool* p = live_pool(pool);
  if (!p) return false;
  p->release_threshold = bytes;
  return true;
}

bool MemoryPools::usage(const void* pool, Usage* usage) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const Pool* p = live_pool(pool);
  if (!p) return false;
  *usage = Usage{p->release_threshold, p->used, p->reserved()};
  return true;
}

}  // namespace anygpu::test_driver
