// Handle tables: an opaque handle encodes (kind tag, generation, slot index), never a pointer, so a
// destroyed, foreign or made-up handle is rejected in O(1) without being dereferenced. Lookups take
// no lock; slots live in fixed chunks that never move.
//
// Destroy is safe against calls in flight: acquire() counts the caller as a user of the slot for as
// long as its HandleRef lives, and remove() invalidates the handle, then waits until the slot has
// no users before it hands the object over for deletion and lets the slot be reused.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace anygpu {

static_assert(sizeof(void*) == 8, "anygpu handles need 64-bit pointers");

enum class HandleKind : uint8_t {
  device = 0xD1,
  stream = 0xD2,
  event = 0xD3,
  module = 0xD4,
  function = 0xD5,
  mem_pool = 0xD6,
  program = 0xD7
};

// A counted use of a live handle's object: the object is not deleted while this lives. Move-only.
template <typename Object>
class HandleRef {
 public:
  HandleRef() = default;
  HandleRef(Object* object, std::atomic<uint32_t>* users) : object_(object), users_(users) {}
  HandleRef(HandleRef&& other) noexcept : object_(other.object_), users_(other.users_) {
    other.object_ = nullptr;
    other.users_ = nullptr;
  }
  HandleRef& operator=(HandleRef&& other) noexcept {
    if (this != &other) {
      reset();
      object_ = other.object_;
      users_ = other.users_;
      other.object_ = nullptr;
      other.users_ = nullptr;
    }
    return *this;
  }
  HandleRef(const HandleRef&) = delete;
  HandleRef& operator=(const HandleRef&) = delete;
  ~HandleRef() { reset(); }

  void reset() {
    // release: everything this user did with the object happens before remove() sees 0 users.
    if (users_) users_->fetch_sub(1, std::memory_order_release);
    object_ = nullptr;
    users_ = nullptr;
  }
  Object* get() const { return object_; }
  Object* operator->() const { return object_; }
  Object& operator*() const { return *object_; }
  explicit operator bool() const { return object_ != nullptr; }

 private:
  Object* object_ = nullptr;
  std::atomic<uint32_t>* users_ = nullptr;
};

template <typename Object, HandleKind Kind>
class HandleTable {
 public:
  HandleTable() = default;
  HandleTable(const HandleTable&) = delete;
  HandleTable& operator=(const HandleTable&) = delete;
  ~HandleTable() {
    for (auto& chunk : chunks_) delete[] chunk.load(std::memory_order_relaxed);
  }

  // Registers `object` and returns its handle; nullptr when the table is full.
  void* insert(Object* object) {
    std::lock_guard<std::mutex> lock(mutex_);
    uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      if (next_index_ == kChunkSize * kMaxChunks) return nullptr;
      index = next_index_++;
      auto& chunk = chunks_[index / kChunkSize];
      if (!chunk.load(std::memory_order_relaxed))
        chunk.store(new Slot[kChunkSize], std::memory_order_release);
    }
    Slot& slot = slot_at(index);
    slot.object.store(object, std::memory_order_release);
    return encode(index, slot.generation.load(std::memory_order_relaxed));
  }

  // The object behind `handle`, or nullptr when it is not a live handle of this table. Only for
  // objects that are never removed (devices): anything else is acquire()d.
  Object* lookup(const void* handle) const {
    const Slot* slot = slot_of(handle);
    if (!slot) return nullptr;
    Object* object = slot->object.load(std::memory_order_acquire);
    if (slot->generation.load(std::memory_order_acquire) != generation_of(handle)) return nullptr;
    return object;
  }

  // The object behind `handle`, counted as in use until the returned reference goes; an empty
  // reference when `handle` is not a live handle of this table.
  HandleRef<Object> acquire(const void* handle) {
    Slot* slot = slot_of(handle);
    if (!slot) return {};
    // Count first, then check: remove() clears the object, then reads the count; with both
    // sequentially consistent, either it sees this user or this user sees the cleared slot.
    slot->users.fetch_add(1, std::memory_order_seq_cst);
    Object* object = slot->object.load(std::memory_order_seq_cst);
    if (object && slot->generation.load(std::memory_order_seq_cst) == generation_of(handle))
      return HandleRef<Object>(object, &slot->users);
    slot->users.fetch_sub(1, std::memory_order_release);
    return {};
  }

  // Invalidates `handle`, waits until no call is using its object any more, and returns the object
  // (the caller deletes it); nullptr when `handle` is not live. The caller must not itself hold a
  // reference to this handle. The wait takes no lock: other handles stay usable meanwhile.
  Object* remove(const void* handle) {
    Slot* slot;
    Object* object;
    uint32_t generation;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      object = lookup(handle);
      if (!object) return nullptr;
      slot = slot_of(handle);
      generation = slot->generation.load(std::memory_order_relaxed);
      slot->object.store(nullptr, std::memory_order_seq_cst);
      slot->generation.store((generation + 1) & kGenerationMask, std::memory_order_seq_cst);
    }
    wait_for_no_users(*slot);
    // A slot whose generation would wrap is retired for good, never reused: otherwise a handle
    // destroyed 2^24 reuses ago would become valid again (one slot of 4M per 16M reuses).
    if (generation != kGenerationMask) {
      std::lock_guard<std::mutex> lock(mutex_);
      free_.push_back(index_of(handle));
    }
    return object;
  }

 private:
  static constexpr uint32_t kChunkSize = 1024;
  static constexpr uint32_t kMaxChunks = 4096;
  static constexpr uint64_t kGenerationMask = 0xFFFFFF;

  struct Slot {
    std::atomic<Object*> object{nullptr};
    std::atomic<uint32_t> generation{0};
    // Calls holding a HandleRef, plus, briefly, acquire()s of stale handles of this slot.
    std::atomic<uint32_t> users{0};
  };

  // The slot `handle` names (any generation), or nullptr when it cannot be one of this table.
  Slot* slot_of(const void* handle) const {
    const uint64_t value = reinterpret_cast<uint64_t>(handle);
    if ((value >> 56) != static_cast<uint64_t>(Kind)) return nullptr;
    const uint64_t index_plus_one = value & 0xFFFFFFFFu;
    if (index_plus_one == 0 || index_plus_one > uint64_t{kChunkSize} * kMaxChunks) return nullptr;
    const uint32_t index = static_cast<uint32_t>(index_plus_one - 1);
    Slot* chunk = chunks_[index / kChunkSize].load(std::memory_order_acquire);
    return chunk ? &chunk[index % kChunkSize] : nullptr;
  }
  static uint32_t index_of(const void* handle) {
    return static_cast<uint32_t>((reinterpret_cast<uint64_t>(handle) & 0xFFFFFFFFu) - 1);
  }
  static uint32_t generation_of(const void* handle) {
    return static_cast<uint32_t>((reinterpret_cast<uint64_t>(handle) >> 32) & kGenerationMask);
  }

  // Calls in flight may wait for device work (a synchronize behind a long kernel), so the wait
  // yields at first, then sleeps in short steps rather than spinning a core.
  // seq_cst, as acquire()'s count-then-check: with an acquire load here (LDAPR on AArch64) the load
  // could pass remove()'s store of the null object, and both sides would miss the other.
  static void wait_for_no_users(const Slot& slot) {
    for (int round = 0; slot.users.load(std::memory_order_seq_cst) != 0; ++round) {
      if (round < 64)
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(round < 1024 ? 50 : 1000));
    }
  }

  static void* encode(uint32_t index, uint32_t generation) {
    const uint64_t value = (static_cast<uint64_t>(Kind) << 56) |
                           (static_cast<uint64_t>(generation & kGenerationMask) << 32) |
                           (static_cast<uint64_t>(index) + 1);
    return reinterpret_cast<void*>(value);
  }

  Slot& slot_at(uint32_t index) {
    return chunks_[index / kChunkSize].load(std::memory_order_relaxed)[index % kChunkSize];
  }

  std::array<std::atomic<Slot*>, kMaxChunks> chunks_{};
  std::mutex mutex_;
  std::vector<uint32_t> free_;
  uint32_t next_index_ = 0;
};

}  // namespace anygpu
