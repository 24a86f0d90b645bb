#include "shim/core/allocation_tracker.h"

#include <mutex>

namespace anygpu {

void AllocationTracker::add(void* base, size_t bytes, AllocationKind kind, AllocationOwner owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  Allocation& entry = allocations_[reinterpret_cast<uintptr_t>(base)];
  if (kind == AllocationKind::module_variable && entry.references > 0 && entry.kind == kind) {
    ++entry.references;
    return;
  }
  entry = Allocation{bytes, kind, 1, owner};
}

bool AllocationTracker::remove(void* base, AllocationKind kind, size_t* bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(base));
  if (it == allocations_.end() || it->second.kind != kind) return false;
  if (bytes) *bytes = it->second.bytes;
  if (--it->second.references == 0) allocations_.erase(it);
  return true;
}

bool AllocationTracker::change_kind(void* base, AllocationKind from, AllocationKind to,
                                    size_t* bytes, AllocationOwner* owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(base));
  if (it == allocations_.end() || it->second.kind != from) return false;
  if (bytes) *bytes = it->second.bytes;
  if (owner) *owner = it->second.owner;
  it->second.kind = to;
  return true;
}

bool AllocationTracker::contains(const void* pointer, size_t bytes) const {
  return find(pointer, bytes, nullptr);
}

bool AllocationTracker::contains(const void* pointer, size_t bytes, AllocationKind kind) const {
  AllocationKind found;
  return find(pointer, bytes, &found) && found == kind;
}

bool AllocationTracker::find(const void* pointer, size_t bytes, AllocationKind* kind) const {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(pointer);
  if (begin + bytes < begin) return false;  // wraps around
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.upper_bound(begin);
  if (it == allocations_.begin()) return false;
  --it;
  if (begin + bytes > it->first + it->second.bytes) return false;
  if (it->second.kind == AllocationKind::pool_kept) return false;
  if (kind) *kind = it->second.kind;
  return true;
}

bool AllocationTracker::kind_at(const void* pointer, AllocationKind* kind) const {
  const uintptr_t at = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.upper_bound(at);
  if (it == allocations_.begin()) return false;
  --it;
  if (at >= it->first + it->second.bytes) return false;
  if (it->second.kind == AllocationKind::pool_kept) return false;
  *kind = it->second.kind;
  return true;
}

bool AllocationTracker::is_base(const void* base, AllocationKind kind) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.find(reinterpret_cast<uintptr_t>(base));
  return it != allocations_.end() && it->second.kind == kind;
}

}  // namespace anygpu
