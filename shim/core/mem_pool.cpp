#include "shim/core/mem_pool.h"

#include "shim/core/objects.h"

namespace anygpu {
namespace {

// Blocks are whole multiples of this, so that one freed block serves requests of nearby sizes.
constexpr size_t kGranule = 256;
// A kept block serves a request of at least half its size; a larger block stays for a larger one.
constexpr size_t kLargestWaste = 2;

// A request's block: whole granules; 0 where that overflows.
size_t block_bytes(size_t bytes) {
  return bytes > SIZE_MAX - (kGranule - 1) ? 0 : (bytes + kGranule - 1) / kGranule * kGranule;
}

}  // namespace

MemPool::~MemPool() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [bytes, blocks] : kept_) {
    for (Kept& block : blocks) {
      if (block.event)
        device_.impl->event_synchronize(block.event);
      else if (block.stream)
        device_.impl->stream_synchronize(block.stream);
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

ag_result MemPool::record(Kept& block) {
  if (block.event || !block.stream) return AG_SUCCESS;
  void* event = nullptr;
  if (ag_result r = take_event(&event)) return r;
  if (ag_result r = device_.impl->event_record(event, block.stream)) {
    spare_events_.push_back(event);
    return r;
  }
  block.event = event;
  return AG_SUCCESS;
}

bool MemPool::completed(Kept& block) {
  if (!block.event && block.stream && device_.impl->stream_query(block.stream) == AG_SUCCESS) {
    block.stream = nullptr;  // the stream is idle: the free is done
    return true;
  }
  if (record(block) != AG_SUCCESS) return false;
  if (!block.event) return true;
  if (device_.impl->event_query(block.event) != AG_SUCCESS) return false;
  spare_events_.push_back(block.event);
  block.event = nullptr;
  block.stream = nullptr;
  return true;
}

void MemPool::forget_stream(void* stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [bytes, blocks] : kept_) {
    for (Kept& block : blocks) {
      if (block.stream != stream) continue;
      record(block);  // the event, not the stream, says from now on when the free is done
      block.stream = nullptr;
    }
  }
}

void MemPool::give_back(const Kept& block) {
  device_.allocations.remove(block.pointer, AllocationKind::pool_kept);
  device_.impl->mem_free(block.pointer);
  if (block.event) spare_events_.push_back(block.event);
  kept_bytes_ -= block.bytes;
}

ag_result MemPool::allocate(size_t bytes, const Stream& stream, void** pointer) {
  const size_t rounded = block_bytes(bytes);
  if (rounded == 0) return AG_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::mutex> lock(mutex_);
  // The smallest kept size that fits, its block freed last; freed on this stream it is ready in
  // stream order, freed on another the stream first waits for that free.
  for (auto fit = kept_.lower_bound(rounded);
       fit != kept_.end() && fit->first / kLargestWaste <= rounded; ++fit) {
    if (fit->second.empty()) continue;
    Kept& kept = fit->second.back();
    if (kept.stream != stream.native) {  // not already before this allocation in stream order
      if (ag_result r = record(kept)) return r;
      if (kept.event) {
        if (ag_result r = device_.impl->stream_wait_event(stream.native, kept.event)) return r;
      }
    }
    const Kept block = kept;
    fit->second.pop_back();
    kept_bytes_ -= block.bytes;
    if (block.event) spare_events_.push_back(block.event);
    ++live_count_;
    live_bytes_ += block.bytes;
    *pointer = block.pointer;
    return AG_SUCCESS;
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
  return AG_SUCCESS;
}

void MemPool::free_async(void* pointer, size_t bytes, const Stream& stream) {
  keep(pointer, bytes, stream.native);
}

void MemPool::free_now(void* pointer, size_t bytes) {
  keep(pointer, bytes, nullptr);
}

void MemPool::keep(void* pointer, size_t bytes, void* stream) {
  const size_t block = block_bytes(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  --live_count_;
  live_bytes_ -= block;
  kept_[block].push_back(Kept{pointer, block, nullptr, stream});
  kept_bytes_ += block;
  if (kept_bytes_ > threshold_) release_completed(threshold_);
}

void MemPool::release_completed(uint64_t keep) {
  for (auto it = kept_.rbegin(); it != kept_.rend() && kept_bytes_ > keep; ++it) {
    std::vector<Kept>& blocks = it->second;
    for (size_t i = 0; i < blocks.size() && kept_bytes_ > keep;) {
      if (!completed(blocks[i])) {
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
  std::lock_guard<std::mutex> lock(mutex_);
  release_completed(keep);
  return AG_SUCCESS;
}

void MemPool::set_release_threshold(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  threshold_ = bytes;
}

size_t MemPool::live_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_count_;
}

void MemPool::usage(uint64_t* used, uint64_t* reserved) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (used) *used = live_bytes_;
  if (reserved) *reserved = live_bytes_ + kept_bytes_;
}

}  // namespace anygpu
