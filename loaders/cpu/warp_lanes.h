// The lanes of a block's warps on fibers: what the warp functions (__shfl_sync, __ballot_sync,
// __syncwarp, ...) need from the runtime. A thread arrives with a mask and a value and waits until
// every live lane of its mask has arrived too; then it is released with a snapshot of those lanes'
// values, which stays valid until its next arrival (the lanes released with it may run ahead
// meanwhile, so a lane's own slot could not be read later). One per BlockRunner.
#pragma once

#include <anygpu/kernel_host_abi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace anygpu::cpu {

// The CPU device's warp: 32 lanes, as NVIDIA's, so that code written for 32 works
// (docs/kernel-dialect.md, Warp functions).
constexpr unsigned kCpuWarpSize = 32;
static_assert(kCpuWarpSize == AGK_HOST_WARP_SIZE, "host code objects are built for this width");

class WarpLanes {
 public:
  static constexpr uint32_t kMaxWidth = 64;

  // A block of `threads` threads whose threads below `first_live` have already exited.
  void reset(uint32_t threads, uint32_t width, uint32_t first_live);

  // `thread` arrives. Returns how many threads this released (the caller among them, or not).
  uint32_t arrive(uint32_t thread, uint64_t mask, uint64_t value);
  // `thread` exited: lanes waiting for it stop waiting. Returns how many threads that released.
  uint32_t exit(uint32_t thread);

  bool released(uint32_t thread) const { return lanes_[thread].released; }
  // After release: the lanes that took part, and their values (indexed by lane).
  uint64_t result(uint32_t thread, const uint64_t** values) const;

 private:
  struct Snapshot {
    uint64_t values[kMaxWidth];
    uint32_t readers = 0;
  };
  struct Warp {
    uint64_t live = 0;
    uint64_t arrived = 0;
    // While every waiting lane asked for the same lanes: those (else 0). The common case, a whole
    // warp in one function, then costs one comparison per arrival.
    uint64_t common_want = 0;
    uint32_t first_snapshot = 0;
  };
  struct Lane {
    uint64_t want = 0;
    uint64_t value = 0;
    int32_t snapshot = -1;  // held until the next arrival
    bool released = false;
  };

  uint32_t settle(uint32_t warp);
  void drop_snapshot(uint32_t thread);

  uint32_t width_ = 32;
  std::vector<Warp> warps_;
  std::vector<Lane> lanes_;
  // width + 1 per warp: each lane holds at most one, and a release needs one more.
  std::vector<Snapshot> snapshots_;
};

}  // namespace anygpu::cpu
