// Handle tables: an opaque handle encodes (kind tag, generation, slot index), never a pointer, so a
// destroyed, foreign or made-up handle is rejected in O(1) without being dereferenced. Lookups take
// no lock; slots live in fixed chunks that never move.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace anygpu {

static_assert(sizeof(void*) == 8, "anygpu handles need 64-bit pointers");

enum class HandleKind : uint8_t {
  device = 0xD1,
  stream = 0xD2,
  event = 0xD3,
  module = 0xD4,
  function = 0xD5
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

  // The object behind `handle`, or nullptr when it is not a live handle of this table.
  Object* lookup(const void* handle) const {
    const uint64_t value = reinterpret_cast<uint64_t>(handle);
    if ((value >> 56) != static_cast<uint64_t>(Kind)) return nullptr;
    const uint64_t index_plus_one = value & 0xFFFFFFFFu;
    if (index_plus_one == 0 || index_plus_one > uint64_t{kChunkSize} * kMaxChunks) return nullptr;
    const uint32_t index = static_cast<uint32_t>(index_plus_one - 1);
    const Slot* chunk = chunks_[index / kChunkSize].load(std::memory_order_acquire);
    if (!chunk) return nullptr;
    const Slot& slot = chunk[index % kChunkSize];
    Object* object = slot.object.load(std::memory_order_acquire);
    if (slot.generation.load(std::memory_order_acquire) != ((value >> 32) & kGenerationMask))
      return nullptr;
    return object;
  }

  // Invalidates `handle` and returns its object (the caller deletes it), or nullptr.
  Object* remove(const void* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    Object* object = lookup(handle);
    if (!object) return nullptr;
    const uint32_t index =
        static_cast<uint32_t>((reinterpret_cast<uint64_t>(handle) & 0xFFFFFFFFu) - 1);
    Slot& slot = slot_at(index);
    const uint32_t generation = slot.generation.load(std::memory_order_relaxed);
    slot.object.store(nullptr, std::memory_order_release);
    // A slot whose generation would wrap is retired for good, never reused: otherwise a handle
    // destroyed 2^24 reuses ago would become valid again (one slot of 4M per 16M reuses).
    if (generation == kGenerationMask) return object;
    slot.generation.store(generation + 1, std::memory_order_release);
    free_.push_back(index);
    return object;
  }

 private:
  static constexpr uint32_t kChunkSize = 1024;
  static constexpr uint32_t kMaxChunks = 4096;
  static constexpr uint64_t kGenerationMask = 0xFFFFFF;

  struct Slot {
    std::atomic<Object*> object{nullptr};
    std::atomic<uint32_t> generation{0};
  };

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
