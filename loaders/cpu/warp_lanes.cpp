#include "warp_lanes.h"

namespace anygpu::cpu {

namespace {
uint64_t bit(uint32_t lane) {
  return uint64_t{1} << lane;
}
}  // namespace

void WarpLanes::reset(uint32_t threads, uint32_t width, uint32_t first_live) {
  width_ = width;
  const uint32_t warps = (threads + width - 1) / width;
  warps_.assign(warps, Warp{});
  lanes_.assign(threads, Lane{});
  snapshots_.resize(size_t{warps} * (width + 1));
  for (Snapshot& snapshot : snapshots_) snapshot.readers = 0;
  for (uint32_t w = 0; w < warps; ++w) warps_[w].first_snapshot = w * (width + 1);
  for (uint32_t t = first_live; t < threads; ++t) warps_[t / width].live |= bit(t % width);
}

void WarpLanes::drop_snapshot(uint32_t thread) {
  Lane& lane = lanes_[thread];
  if (lane.snapshot >= 0) --snapshots_[static_cast<size_t>(lane.snapshot)].readers;
  lane.snapshot = -1;
}

uint32_t WarpLanes::arrive(uint32_t thread, uint64_t mask, uint64_t value) {
  const uint32_t w = thread / width_, l = thread % width_;
  drop_snapshot(thread);
  Lane& lane = lanes_[thread];
  lane.want = (mask | bit(l)) & warps_[w].live;
  lane.value = value;
  lane.released = false;
  Warp& warp = warps_[w];
  warp.common_want = warp.arrived == 0 || warp.common_want == lane.want ? lane.want : 0;
  warp.arrived |= bit(l);
  if (warp.common_want && (warp.common_want & ~warp.arrived) != 0) return 0;
  return settle(w);
}

uint32_t WarpLanes::exit(uint32_t thread) {
  const uint32_t w = thread / width_;
  drop_snapshot(thread);
  warps_[w].live &= ~bit(thread % width_);
  warps_[w].arrived &= ~bit(thread % width_);
  warps_[w].common_want = 0;
  return settle(w);
}

// Releases every waiting lane whose live lanes have all arrived, with one snapshot of the values
// of all that arrived (each lane reads only those of its own mask).
uint32_t WarpLanes::settle(uint32_t warp) {
  Warp& wp = warps_[warp];
  const uint32_t base = warp * width_;
  uint64_t ready = 0;
  for (uint64_t pending = wp.arrived; pending; pending &= pending - 1) {
    const uint32_t l = static_cast<uint32_t>(__builtin_ctzll(pending));
    Lane& lane = lanes_[base + l];
    lane.want &= wp.live;
    if ((lane.want & ~wp.arrived) == 0) ready |= bit(l);
  }
  if (!ready) return 0;
  uint32_t free = wp.first_snapshot;
  while (snapshots_[free].readers != 0) ++free;  // one is free: see snapshots_
  Snapshot& snapshot = snapshots_[free];
  for (uint64_t present = wp.arrived; present; present &= present - 1) {
    const uint32_t l = static_cast<uint32_t>(__builtin_ctzll(present));
    snapshot.values[l] = lanes_[base + l].value;
  }
  uint32_t released = 0;
  for (uint64_t going = ready; going; going &= going - 1) {
    Lane& lane = lanes_[base + static_cast<uint32_t>(__builtin_ctzll(going))];
    lane.released = true;
    lane.snapshot = static_cast<int32_t>(free);
    ++released;
  }
  snapshot.readers = released;
  wp.arrived &= ~ready;
  wp.common_want = 0;  // unknown for the lanes still waiting: settle() looks at each
  return released;
}

uint64_t WarpLanes::result(uint32_t thread, const uint64_t** values) const {
  const Lane& lane = lanes_[thread];
  *values = snapshots_[static_cast<size_t>(lane.snapshot)].values;
  return lane.want;
}

}  // namespace anygpu::cpu
