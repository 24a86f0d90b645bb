// Which ranges of memory a device handed out, so that frees and copies are checked before they
// reach a driver (a bad pointer is an error, never a crash).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace anygpu {

// module_variable: a module's global (agModuleGetGlobal), recorded while the module is loaded so
// that copies reach it. Modules may share one (the CPU device loads an identical image once), so
// each add of one is counted and each remove undoes one add. managed: agMemAllocManaged's, device
// memory the host may touch as well. stream_ordered: a pool's (agMemAllocAsync), freed in stream
// order by agMemFreeAsync. pool_kept: a freed stream-ordered block its pool keeps; no call may
// use it (contains and kind_at do not see it), and keeping its entry spares the pool's steady
// alloc-free cycle an insertion and an erasure here.
enum class AllocationKind {
  device,
  pinned_host,
  module_variable,
  managed,
  stream_ordered,
  pool_kept
};

// What handed an allocation out, for the kinds that have one: a stream-ordered allocation's pool
// and the size of the block behind it (which may exceed the allocation's).
struct AllocationOwner {
  void* object = nullptr;
  size_t bytes = 0;
};

class AllocationTracker {
 public:
  void add(void* base, size_t bytes, AllocationKind kind, AllocationOwner owner = {});
  // Forgets the allocation that starts at `base` (its size in `bytes`); false when there is none
  // of that kind.
  bool remove(void* base, AllocationKind kind, size_t* bytes = nullptr);
  // Turns the allocation at `base` of kind `from` into kind `to` (its size in `bytes`, its owner
  // in `owner`); false when there is none of kind `from`.
  bool change_kind(void* base, AllocationKind from, AllocationKind to, size_t* bytes = nullptr,
                   AllocationOwner* owner = nullptr);
  // True when [pointer, pointer + bytes) lies inside one allocation of any kind.
  bool contains(const void* pointer, size_t bytes) const;
  bool is_base(const void* base, AllocationKind kind) const;
  // True when [pointer, pointer + bytes) lies inside one allocation of `kind`.
  bool contains(const void* pointer, size_t bytes, AllocationKind kind) const;
  // True when `pointer` lies inside an allocation; its kind in `kind`.
  bool kind_at(const void* pointer, AllocationKind* kind) const;

 private:
  // The allocation holding [pointer, pointer + bytes) whole; its kind in `kind` when not null.
  bool find(const void* pointer, size_t bytes, AllocationKind* kind) const;
  struct Allocation {
    size_t bytes = 0;
    AllocationKind kind = AllocationKind::device;
    unsigned references = 0;  // adds not yet removed (only module variables have more than 1)
    AllocationOwner owner;
  };
  mutable std::mutex
      mutex_;  // held for a map lookup or update only: a plain mutex costs less than a shared one
  std::map<uintptr_t, Allocation> allocations_;
};

}  // namespace anygpu
