// What the host-function benchmarks queue: a function that stamps the time it runs into the next
// slot, so that the gaps between consecutive host functions on one stream (the time from one
// returning to the next starting, plus a clock read) and their count can be checked and reported.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

namespace anygpu_bench {

struct HostFunctionProbe {
  std::vector<int64_t> stamps;  // steady_clock nanoseconds, in the order the functions ran
  size_t next = 0;              // written only by the stream's host-function thread

  explicit HostFunctionProbe(size_t count) : stamps(count, 0) {}
  void reset() { next = 0; }

  // The host function: `probe` is a HostFunctionProbe.
  static void stamp(void* probe) {
    auto* p = static_cast<HostFunctionProbe*>(probe);
    if (p->next < p->stamps.size())
      p->stamps[p->next] = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::steady_clock::now().time_since_epoch())
                               .count();
    ++p->next;
  }

  // Every function ran exactly once, in order.
  bool complete() const {
    return next == stamps.size() && std::is_sorted(stamps.begin(), stamps.end());
  }

  // The median gap between consecutive functions, in nanoseconds.
  double median_gap_ns() const {
    if (stamps.size() < 2) return 0;
    std::vector<int64_t> gaps(stamps.size() - 1);
    for (size_t i = 1; i < stamps.size(); ++i) gaps[i - 1] = stamps[i] - stamps[i - 1];
    std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
    return static_cast<double>(gaps[gaps.size() / 2]);
  }
};

}  // namespace anygpu_bench
