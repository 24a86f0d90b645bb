// Which ranges of memory a device handed out, so that frees and copies are checked before they
// reach a driver (a bad pointer is an error, never a crash). Readers share the lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>

namespace anygpu {

enum class AllocationKind { device, pinned_host };

class AllocationTracker {
 public:
  void add(void* base, size_t bytes, AllocationKind kind);
  // Forgets the allocation that starts at `base` (its size in `bytes`); false when there is none
  // of that kind.
  bool remove(void* base, AllocationKind kind, size_t* bytes = nullptr);
  // True when [pointer, pointer + bytes) lies inside one allocation of any kind.
  bool contains(const void* pointer, size_t bytes) const;
  bool is_base(const void* base, AllocationKind kind) const;

 private:
  struct Allocation {
    size_t bytes;
    AllocationKind kind;
  };
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_;
};

}  // namespace anygpu
