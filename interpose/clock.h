// Time stamps of calls: CLOCK_MONOTONIC in nanoseconds, one time base for every process, so the
// traces of a parent and its forked child line up. Integers: a wrapped call formats no float.
#pragma once

#include <stdint.h>
#include <time.h>

namespace anygpu::intercept {

inline uint64_t now_nanoseconds() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace anygpu::intercept
