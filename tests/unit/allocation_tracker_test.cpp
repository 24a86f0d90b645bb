#include "shim/core/allocation_tracker.h"

#include <gtest/gtest.h>

#include <cstdint>

using anygpu::AllocationKind;
using anygpu::AllocationTracker;

namespace {

TEST(AllocationTracker, RangesInsideOneAllocationOnly) {
  AllocationTracker tracker;
  // Both allocations inside one array, so that `first - 1` below is a pointer into it (one before
  // a separate array would be undefined behaviour, and gcc's -Warray-bounds says so).
  alignas(16) static char memory[256];
  char* first = memory + 16;
  char* second = memory + 128;
  tracker.add(first, 100, AllocationKind::device);
  tracker.add(second, 100, AllocationKind::pinned_host);
  EXPECT_TRUE(tracker.contains(first, 100));
  EXPECT_TRUE(tracker.contains(first + 99, 1));
  EXPECT_TRUE(tracker.contains(second + 10, 50));
  EXPECT_FALSE(tracker.contains(first + 1, 100));  // runs past the end
  EXPECT_FALSE(tracker.contains(first - 1, 2));    // starts before
  EXPECT_FALSE(tracker.contains(reinterpret_cast<char*>(UINTPTR_MAX - 4), 16));  // wraps around
}

// CPU modules loaded from one image share their variables: each module adds and removes it once,
// and it stays reachable until the last one removed it.
TEST(AllocationTracker, ModuleVariablesAreCountedPerAdd) {
  AllocationTracker tracker;
  alignas(16) static char variable[16];
  tracker.add(variable, sizeof variable, AllocationKind::module_variable);
  tracker.add(variable, sizeof variable, AllocationKind::module_variable);
  EXPECT_FALSE(tracker.is_base(variable, AllocationKind::device));  // agMemFree refuses it
  EXPECT_TRUE(tracker.remove(variable, AllocationKind::module_variable));
  EXPECT_TRUE(tracker.contains(variable, sizeof variable));
  EXPECT_TRUE(tracker.remove(variable, AllocationKind::module_variable));
  EXPECT_FALSE(tracker.contains(variable, 1));
  EXPECT_FALSE(tracker.remove(variable, AllocationKind::module_variable));
}

TEST(AllocationTracker, RemoveNeedsTheBaseAndTheKind) {
  AllocationTracker tracker;
  static char block[64];
  tracker.add(block, 64, AllocationKind::device);
  EXPECT_TRUE(tracker.is_base(block, AllocationKind::device));
  EXPECT_FALSE(tracker.is_base(block, AllocationKind::pinned_host));
  EXPECT_FALSE(tracker.remove(block + 8, AllocationKind::device));
  EXPECT_FALSE(tracker.remove(block, AllocationKind::pinned_host));
  EXPECT_TRUE(tracker.remove(block, AllocationKind::device));
  EXPECT_FALSE(tracker.remove(block, AllocationKind::device));
  EXPECT_FALSE(tracker.contains(block, 1));
}

}  // namespace
