#include "shim/core/mem_pool.h"

#include "shim/core/objects.h"

namespace anygpu {
namespace {

// Blocks are whole multiples of this, so that one freed block serves requests of nearby sizes.
constexpr size_t kGranule = 256;
// A kept block serves a request of at least half its size; a larger block stays for a larger one.
constexpr size_t kLargestWaste = 2;
// How many blocks of one size an allocation asks about, the last freed first.
constexpr size_t kLookBack = 8;

// A request's block: whole granules; 0 where that overflows.
size_t block_bytes(size_t bytes) {
  return bytes > SIZE_MAX - (kGranule - 1) ? 0 : (bytes + kGranule - 1) / kGranule * kGranule;
}

}  // namespace

ag_result MemPool::create(Device& device, uint64_t release_threshold, bool is_default,
                          std::unique_ptr<MemPool>* pool) {
  auto created = std::make_unique<MemPool>(device, release_threshold, is_default);
  if (device.impl->driver_pools()) {
    if (ag_result r = device.impl->pool_create(release_threshold, &created->native_)) return r;
  }
  *pool = std::move(created);
  return AG_SUCCESS;
}

MemPool::~MemPool() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (native_) {
    device_.impl->pool_destroy(native_);
    return;
  }
  for (auto& [bytes, blocks] : kept_) {
    for (Kept& block : blocks) {
      if (block.event) device_.impl->event_synchronize(block.event);
      give_back(block);
    }
  }
  kept_.clear();
  for (void* event : spare_events_) device_.impl->event_destroy(event);
}

ag_result MemPool::take_event(void** event) {
  if (!spare_events_.empty()) {
    *event = spare_events_.back();
    spare_events_.pop_back();
    return AG_SUCCESS;
  }
  return device_.impl->event_create(AG_EVENT_DISABLE_TIMING, event);
}

bool MemPool::completed(Kept& block, bool record) {
  if (!block.event) {
    if (!block.stream) return true;
    if (device_.impl->stream_query(block.stream) == AG_SUCCESS) {
      block.stream = nullptr;  // the stream is idle: the free is done
      return true;
    }
    if (!record) return false;
    void* event = nullptr;
    if (take_event(&event) != AG_SUCCESS) return false;
    if (device_.impl->event_record(event, block.stream) != AG_SUCCESS) {
      spare_events_.push_back(event);
      return false;
    }
    block.event = event;
  }
  if (device_.impl->event_query(block.event) != AG_SUCCESS) return false;
  spare_events_.push_back(block.event);
  block.event = nullptr;
  block.stream = nullptr;
  return true;
}

void MemPool::detach(Kept& block) {
  if (!block.stream) return;
  if (!block.event && !completed(block, true)) {
    if (!block.event) device_.impl->stream_synchronize(block.stream);  // no event could be made
  }
  block.stream = nullptr;
}

void MemPool::forget_stream(void* stream) {
  if (native_) return;  // the driver keeps what it needs
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [bytes, blocks] : kept_)
    for (Kept& block : blocks)
      if (block.stream == stream) detach(block);
}

void MemPool::settle() {
  if (native_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [bytes, blocks] : kept_)
    for (Kept& block : blocks) detach(block);
}

bool MemPool::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (live_count_ > 0) return false;
  closed_ = true;
  return true;
}

void MemPool::give_back(const Kept& block) {
  device_.allocations.remove(block.pointer, AllocationKind::pool_kept);
  device_.impl->mem_free(block.pointer);
  if (block.event) spare_events_.push_back(block.event);
  kept_bytes_ -= block.bytes;
}

ag_result MemPool::allocate(size_t bytes, const Stream& stream, void** pointer, size_t* block) {
  const size_t rounded = block_bytes(bytes);
  if (rounded == 0) return AG_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return AG_ERROR_INVALID_HANDLE;
  if (native_) {
    if (ag_result r = device_.impl->pool_alloc(native_, bytes, stream.native, pointer)) return r;
    ++live_count_;
    live_bytes_ += bytes;
    *block = bytes;
    return AG_SUCCESS;
  }
  // The smallest kept size that fits: a block freed on this stream (ready in stream order) or one
  // whose free has completed, the last freed first.
  for (auto fit = kept_.lower_bound(rounded);
       fit != kept_.end() && fit->first / kLargestWaste <= rounded; ++fit) {
    std::vector<Kept>& blocks = fit->second;
    for (size_t i = blocks.size(), asked = 0; i > 0 && asked < kLookBack; --i, ++asked) {
      Kept& kept = blocks[i - 1];
      if (kept.stream != stream.native && !completed(kept, false)) continue;
      const Kept taken = kept;
      kept = blocks.back();
      blocks.pop_back();
      kept_bytes_ -= taken.bytes;
      if (taken.event) spare_events_.push_back(taken.event);  // no stream waits on it
      ++live_count_;
      live_bytes_ += taken.bytes;
      *pointer = taken.pointer;
      *block = taken.bytes;
      return AG_SUCCESS;
    }
  }
  void* allocated = nullptr;
  ag_result r = device_.impl->mem_alloc(rounded, &allocated);
  if (r != AG_SUCCESS && kept_bytes_ > 0) {  // what is kept may be what the device lacks
    release_completed(0);
    r = device_.impl->mem_alloc(rounded, &allocated);
  }
  if (r != AG_SUCCESS) return r;
  ++live_count_;
  live_bytes_ += rounded;
  *pointer = allocated;
  *block = rounded;
  return AG_SUCCESS;
}

ag_result MemPool::free_async(void* pointer, size_t block, const Stream& stream) {
  return native_ ? free_to_driver(pointer, block, stream.native)
                 : keep(pointer, block, stream.native);
}

ag_result MemPool::free_now(void* pointer, size_t block) {
  return native_ ? free_to_driver(pointer, block, nullptr) : keep(pointer, block, nullptr);
}

ag_result MemPool::keep(void* pointer, size_t block, void* stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  --live_count_;
  live_bytes_ -= block;
  kept_[block].push_back(Kept{pointer, block, nullptr, stream});
  kept_bytes_ += block;
  if (kept_bytes_ > threshold_) release_completed(threshold_);
  return AG_SUCCESS;
}

ag_result MemPool::free_to_driver(void* pointer, size_t block, void* stream) {
  device_.allocations.remove(pointer, AllocationKind::pool_kept);
  if (ag_result r = device_.impl->pool_free(pointer, stream)) {
    device_.allocations.add(pointer, block, AllocationKind::stream_ordered, {this, block});
    return r;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  --live_count_;
  live_bytes_ -= block;
  return AG_SUCCESS;
}

void MemPool::release_completed(uint64_t keep) {
  for (auto it = kept_.rbegin(); it != kept_.rend() && kept_bytes_ > keep; ++it) {
    std::vector<Kept>& blocks = it->second;
    for (size_t i = 0; i < blocks.size() && kept_bytes_ > keep;) {
      if (!completed(blocks[i], true)) {
        ++i;
        continue;
      }
      give_back(blocks[i]);
      blocks[i] = blocks.back();
      blocks.pop_back();
    }
  }
}

ag_result MemPool::trim_to(size_t keep) {
  if (native_) return device_.impl->pool_trim(native_, keep);
  std::lock_guard<std::mutex> lock(mutex_);
  release_completed(keep);
  return AG_SUCCESS;
}

ag_result MemPool::set_release_threshold(uint64_t bytes) {
  if (native_) return device_.impl->pool_set_release_threshold(native_, bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  threshold_ = bytes;
  return AG_SUCCESS;
}

ag_result MemPool::usage(uint64_t* used, uint64_t* reserved) const {
  if (native_) {  // the driver's counts, which follow its own granularity
    uint64_t driver_used = 0, driver_reserved = 0;
    if (ag_result r = device_.impl->pool_usage(native_, &driver_used, &driver_reserved)) return r;
    if (used) *used = driver_used;
    if (reserved) *reserved = driver_reserved;
    return AG_SUCCESS;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (used) *used = live_bytes_;
  if (reserved) *reserved = live_bytes_ + kept_bytes_;
  return AG_SUCCESS;
}

}  // namespace anygpu
