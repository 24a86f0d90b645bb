#include "shim/core/handle_table.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

using anygpu::HandleKind;
using anygpu::HandleTable;

namespace {

using StreamTable = HandleTable<int, HandleKind::stream>;
using EventTable = HandleTable<int, HandleKind::event>;

TEST(HandleTable, InsertedHandlesLookUpTheirObject) {
  StreamTable table;
  int a = 1, b = 2;
  void* ha = table.insert(&a);
  void* hb = table.insert(&b);
  ASSERT_NE(nullptr, ha);
  EXPECT_NE(ha, hb);
  EXPECT_EQ(&a, table.lookup(ha));
  EXPECT_EQ(&b, table.lookup(hb));
}

TEST(HandleTable, RemovedHandleIsInvalidEvenWhenItsSlotIsReused) {
  StreamTable table;
  int a = 1, b = 2;
  void* ha = table.insert(&a);
  EXPECT_EQ(&a, table.remove(ha));
  EXPECT_EQ(nullptr, table.lookup(ha));
  EXPECT_EQ(nullptr, table.remove(ha));
  void* hb = table.insert(&b);  // reuses the slot with a new generation
  EXPECT_NE(ha, hb);
  EXPECT_EQ(nullptr, table.lookup(ha));
  EXPECT_EQ(&b, table.lookup(hb));
}

// Issue 15, defect 5: the 24-bit generation wrapped after 2^24 reuses of a slot, and the first
// handle of that slot became valid again.
TEST(HandleTable, ASlotIsRetiredBeforeItsGenerationWraps) {
  StreamTable table;
  int a = 1, b = 2;
  void* first = table.insert(&a);
  ASSERT_EQ(&a, table.remove(first));
  for (uint32_t reuse = 1; reuse < (1u << 24); ++reuse) {
    void* again = table.insert(&b);
    ASSERT_NE(first, again) << "reuse " << reuse;
    ASSERT_EQ(&b, table.remove(again));
  }
  void* after = table.insert(&b);  // the slot is retired: another one is used
  EXPECT_NE(first, after);
  EXPECT_EQ(nullptr, table.lookup(first));
  EXPECT_EQ(nullptr, table.remove(first));
  EXPECT_EQ(&b, table.lookup(after));
}

TEST(HandleTable, MadeUpAndForeignHandlesAreRejected) {
  StreamTable streams;
  EventTable events;
  int a = 1;
  void* stream = streams.insert(&a);
  void* event = events.insert(&a);
  EXPECT_EQ(nullptr, streams.lookup(event));
  EXPECT_EQ(nullptr, events.lookup(stream));
  EXPECT_EQ(nullptr, streams.lookup(nullptr));
  EXPECT_EQ(nullptr, streams.lookup(reinterpret_cast<void*>(0x1234)));
  EXPECT_EQ(nullptr, streams.lookup(&a));  // a real pointer is not a handle
  EXPECT_EQ(nullptr, streams.lookup(reinterpret_cast<void*>(~uintptr_t{0})));
  const uintptr_t next_index = reinterpret_cast<uintptr_t>(stream) + 1;
  EXPECT_EQ(nullptr, streams.lookup(reinterpret_cast<void*>(next_index)));
}

TEST(HandleTable, GrowsPastOneChunk) {
  StreamTable table;
  std::vector<int> objects(5000);
  std::vector<void*> handles;
  for (int& object : objects) handles.push_back(table.insert(&object));
  for (size_t i = 0; i < objects.size(); ++i) ASSERT_EQ(&objects[i], table.lookup(handles[i]));
}

// Issue 15, defect 4: what a call holds keeps the object; a destroy waits for it.
TEST(HandleTable, AcquireRefusesWhatLookupRefuses) {
  StreamTable table;
  EventTable events;
  int a = 1;
  void* handle = table.insert(&a);
  EXPECT_EQ(&a, table.acquire(handle).get());
  EXPECT_FALSE(table.acquire(nullptr));
  EXPECT_FALSE(table.acquire(events.insert(&a)));
  ASSERT_EQ(&a, table.remove(handle));
  EXPECT_FALSE(table.acquire(handle));
}

TEST(HandleTable, RemoveWaitsUntilNoReferenceIsHeld) {
  StreamTable table;
  int a = 1;
  void* handle = table.insert(&a);
  auto reference = table.acquire(handle);
  ASSERT_EQ(&a, reference.get());
  std::atomic<bool> removed{false};
  std::thread remover([&] {
    EXPECT_EQ(&a, table.remove(handle));
    removed = true;
  });
  // The handle is refused to new calls as soon as the remove starts, not when it returns.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (table.acquire(handle) && std::chrono::steady_clock::now() < give_up)
    std::this_thread::yield();
  EXPECT_FALSE(table.acquire(handle));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(removed.load()) << "remove returned while a call held the object";
  reference.reset();
  remover.join();
  EXPECT_TRUE(removed.load());
  int b = 2;
  void* reused = table.insert(&b);  // the slot is free again, with a new generation
  EXPECT_NE(handle, reused);
  EXPECT_EQ(&b, table.acquire(reused).get());
}

}  // namespace
