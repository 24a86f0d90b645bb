#include "shim/core/mem_pool.h"

#include "shim/core/objects.h"

namespace anygpu {
namespace {

// Blocks are whole multiples of this, so that one freed block serves requests of nearby sizes.
constexpr size_t kGranule = 256;
// A kept block serves a request of at least half its size; a larger block stays for a larger one.
constexpr size_t kLargestWaste = 2;

}  // namespace

MemPool::~MemPool() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [bytes, block] : kept_) {
    if (block.event) device_.impl->event_synchronize(block.event);
    give_back(block);
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

void MemPool::give_back(const Kept& block) {
  device_.impl->mem_free(block.pointer);
  if (block.event) spare_events_.push_back(block.event);
  kept_bytes_ -= block.bytes;
}

ag_result MemPool::allocate(size_t bytes, const Stream& stream, void** pointer) {
  const size_t rounded = bytes > SIZE_MAX - (kGranule - 1)
                             ? 0
                             : (bytes + kGranule - 1) / kGranule * kGranule;
  if (rounded == 0) return AG_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::mutex> lock(mutex_);
  // The smallest kept block that fits; freed on this stream it is ready in stream order, freed
  // on another the stream first waits for that free.
  auto fit = kept_.lower_bound(rounded);
  if (fit != kept_.end() && fit->first / kLargestWaste <= rounded) {
    Kept block = fit->second;
    if (block.event && block.stream != stream.native) {
      if (ag_result r = device_.impl->stream_wait_event(stream.native, block.event)) return r;
    }
    kept_.erase(fit);
    kept_bytes_ -= block.bytes;
    if (block.event) spare_events_.push_back(block.event);
    live_[block.pointer] = block.bytes;
    live_bytes_ += block.bytes;
    *pointer = block.pointer;
    return AG_SUCCESS;
  }
  void* allocated = nullptr;
  ag_result r = device_.impl->mem_alloc(rounded, &allocated);
  if (r != AG_SUCCESS && !kept_.empty()) {  // what is kept may be what the device lacks
    release_completed(0);
    r = device_.impl->mem_alloc(rounded, &allocated);
  }
  if (r != AG_SUCCESS) return r;
  live_[allocated] = rounded;
  live_bytes_ += rounded;
  *pointer = allocated;
  return AG_SUCCESS;
}

bool MemPool::owns(const void* pointer) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_.count(const_cast<void*>(pointer)) != 0;
}

ag_result MemPool::free_async(void* pointer, const Stream& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = live_.find(pointer);
  if (found == live_.end()) return AG_ERROR_INVALID_ADDRESS;
  void* event = nullptr;
  if (ag_result r = take_event(&event)) return r;
  if (ag_result r = device_.impl->event_record(event, stream.native)) {
    spare_events_.push_back(event);
    return r;
  }
  const size_t bytes = found->second;
  live_.erase(found);
  live_bytes_ -= bytes;
  kept_.emplace(bytes, Kept{pointer, bytes, event, stream.native});
  kept_bytes_ += bytes;
  if (kept_bytes_ > threshold_) release_completed(threshold_);
  return AG_SUCCESS;
}

ag_result MemPool::free_now(void* pointer) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = live_.find(pointer);
  if (found == live_.end()) return AG_ERROR_INVALID_ADDRESS;
  const size_t bytes = found->second;
  live_.erase(found);
  live_bytes_ -= bytes;
  kept_.emplace(bytes, Kept{pointer, bytes, nullptr, nullptr});
  kept_bytes_ += bytes;
  if (kept_bytes_ > threshold_) release_completed(threshold_);
  return AG_SUCCESS;
}

void MemPool::release_completed(uint64_t keep) {
  for (auto it = kept_.end(); it != kept_.begin() && kept_bytes_ > keep;) {
    --it;
    if (it->second.event && device_.impl->event_query(it->second.event) != AG_SUCCESS) continue;
    give_back(it->second);
    it = kept_.erase(it);
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
  return live_.size();
}

void MemPool::usage(uint64_t* used, uint64_t* reserved) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (used) *used = live_bytes_;
  if (reserved) *reserved = live_bytes_ + kept_bytes_;
}

}  // namespace anygpu
