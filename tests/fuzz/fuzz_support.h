// What every fuzz target checks besides "no crash": a view a reader returns lies inside its input.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fuzz {

inline void check_inside(const uint8_t* input, size_t size, const void* data, size_t length) {
  const auto* start = static_cast<const uint8_t*>(data);
  if (length == 0) return;
  if (start < input || start > input + size || length > static_cast<size_t>(input + size - start))
    __builtin_trap();
}

inline void check(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace fuzz
