// Lookups in the tables of objects a test driver hands out (streams, events, functions,
// allocations), the same for every vendor API it stands in for.
#pragma once

#include <cstddef>
#include <cstdint>

namespace anygpu::test_driver {

// What `table` holds for `handle`, or an empty value (a null pointer) when it holds nothing.
template <typename Table>
typename Table::mapped_type find_object(const Table& table, const void* handle) {
  const auto found = table.find(handle);
  return found == table.end() ? typename Table::mapped_type{} : found->second;
}

// The allocation [pointer, pointer + bytes) lies inside, or nullptr: `allocations` maps start
// addresses to allocations with a `bytes` member, ordered, so the one before `pointer` is found.
template <typename Allocations>
const typename Allocations::mapped_type* allocation_holding(const Allocations& allocations,
                                                            const void* pointer, size_t bytes) {
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  auto after = allocations.upper_bound(address);
  if (after == allocations.begin()) return nullptr;
  const auto& [start, allocation] = *--after;
  const uintptr_t offset = address - start;
  return offset < allocation.bytes && bytes <= allocation.bytes - offset ? &allocation : nullptr;
}
template <typename Allocations>
bool inside_allocation(const Allocations& allocations, const void* pointer, size_t bytes) {
  return allocation_holding(allocations, pointer, bytes) != nullptr;
}

}  // namespace anygpu::test_driver
