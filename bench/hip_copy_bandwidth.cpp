// Copy bandwidth on the HIP device, `copy_bytes` per copy, pinned host memory:
//   hip_copy_{htod,dtoh,dtod}/anygpu  agMemAllocHost, agMemAlloc, agMemcpy{HtoD,DtoH,DtoD}
//   hip_copy_{htod,dtoh,dtod}/direct  hipHostMalloc, hipMalloc, hipMemcpy{HtoD,DtoH,DtoD}, and
//       hipStreamSynchronize(0) after host-to-device and device-to-device copies, which HIP may
//       return from before they are done (anygpu's synchronous copies wait the same way).
// bytes_per_second counts the bytes copied; device-to-device counts them twice (read and written),
// as bandwidth tests do. After the timed loop, sampled ranges of the destination are checked
// against the source pattern.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "hip_support.h"

namespace anygpu_hip_bench {
namespace {

enum class Side { anygpu, direct };
enum class Direction { htod, dtoh, dtod };

unsigned char pattern(size_t i) {
  return static_cast<unsigned char>(i * 131 + (i >> 12));
}

// One side's buffers: pinned host memory and two device buffers, each `bytes` long.
class Buffers {
 public:
  Buffers(benchmark::State& state, Side side, size_t bytes)
      : state_(state), side_(side), bytes_(bytes) {
    const HipRuntime& r = hip_runtime();
    if (side_ == Side::anygpu) {
      valid_ = ag_ok(state, agMemAllocHost(r.device, bytes, &host_), "agMemAllocHost") &&
               ag_ok(state, agMemAlloc(r.device, bytes, &device_[0]), "agMemAlloc") &&
               ag_ok(state, agMemAlloc(r.device, bytes, &device_[1]), "agMemAlloc");
      return;
    }
    valid_ = hip_ok(state, r.fn.hipHostMalloc(&host_, bytes, hip::hipHostMallocDefault),
                    "hipHostMalloc") &&
             hip_ok(state, r.fn.hipMalloc(&device_[0], bytes), "hipMalloc") &&
             hip_ok(state, r.fn.hipMalloc(&device_[1], bytes), "hipMalloc");
  }
  ~Buffers() {
    const HipRuntime& r = hip_runtime();
    for (void* d : device_) {
      if (d && side_ == Side::anygpu) agMemFree(r.device, d);
      if (d && side_ == Side::direct) r.fn.hipFree(d);
    }
    if (host_ && side_ == Side::anygpu) agMemFreeHost(r.device, host_);
    if (host_ && side_ == Side::direct) r.fn.hipHostFree(host_);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;

  bool valid() const { return valid_; }
  unsigned char* host() const { return static_cast<unsigned char*>(host_); }

  // One synchronous copy: host to device 0, device 0 to host, or device 0 to device 1.
  bool copy(Direction direction) {
    const HipRuntime& r = hip_runtime();
    void *d0 = device_[0], *d1 = device_[1];
    if (side_ == Side::anygpu) {
      switch (direction) {
        case Direction::htod:
          return ag_ok(state_, agMemcpyHtoD(r.device, d0, host_, bytes_), "agMemcpyHtoD");
        case Direction::dtoh:
          return ag_ok(state_, agMemcpyDtoH(r.device, host_, d0, bytes_), "agMemcpyDtoH");
        case Direction::dtod:
          return ag_ok(state_, agMemcpyDtoD(r.device, d1, d0, bytes_), "agMemcpyDtoD");
      }
    }
    const hip::HipFunctions& fn = r.fn;
    switch (direction) {
      case Direction::htod:
        return hip_ok(state_, fn.hipMemcpyHtoD(d0, host_, bytes_), "hipMemcpyHtoD") &&
               hip_ok(state_, fn.hipStreamSynchronize(nullptr), "hipStreamSynchronize");
      case Direction::dtoh:
        return hip_ok(state_, fn.hipMemcpyDtoH(host_, d0, bytes_), "hipMemcpyDtoH");
      case Direction::dtod:
        return hip_ok(state_, fn.hipMemcpyDtoD(d1, d0, bytes_), "hipMemcpyDtoD") &&
               hip_ok(state_, fn.hipStreamSynchronize(nullptr), "hipStreamSynchronize");
    }
    return false;
  }

  // Reads `count` bytes at `offset` of device buffer `which` into `out` (pageable memory).
  bool read_device(int which, size_t offset, size_t count, unsigned char* out) {
    const HipRuntime& r = hip_runtime();
    unsigned char* source = static_cast<unsigned char*>(device_[which]) + offset;
    if (side_ == Side::anygpu)
      return ag_ok(state_, agMemcpyDtoH(r.device, out, source, count), "agMemcpyDtoH");
    return hip_ok(state_, r.fn.hipMemcpyDtoH(out, source, count), "hipMemcpyDtoH");
  }

 private:
  benchmark::State& state_;
  Side side_;
  size_t bytes_;
  void* host_ = nullptr;
  void* device_[2] = {nullptr, nullptr};
  bool valid_ = false;
};

// The destination of the copies holds the pattern: its first, middle and last 64 KiB.
bool check(benchmark::State& state, Buffers& buffers, Direction direction, size_t bytes) {
  const size_t chunk = bytes < (size_t{64} << 10) ? bytes : size_t{64} << 10;
  std::vector<unsigned char> got(chunk);
  for (size_t offset : {size_t{0}, (bytes - chunk) / 2, bytes - chunk}) {
    if (direction == Direction::dtoh)
      std::memcpy(got.data(), buffers.host() + offset, chunk);
    else if (!buffers.read_device(direction == Direction::htod ? 0 : 1, offset, chunk, got.data()))
      return false;
    for (size_t i = 0; i < chunk; ++i)
      if (got[i] != pattern(offset + i)) {
        state.SkipWithError(("wrong byte at " + std::to_string(offset + i)).c_str());
        return false;
      }
  }
  return true;
}

void hip_copy(benchmark::State& state, Side side, Direction direction) {
  if (!ready(state)) return;
  const size_t bytes = sizes().copy_bytes;
  Buffers buffers(state, side, bytes);
  if (!buffers.valid()) return;
  for (size_t i = 0; i < bytes; ++i) buffers.host()[i] = pattern(i);
  // The device source holds the pattern; a device-to-host copy then overwrites a cleared host.
  if (direction != Direction::htod) {
    if (!buffers.copy(Direction::htod)) return;
    if (direction == Direction::dtoh) std::memset(buffers.host(), 0, bytes);
  }
  if (!buffers.copy(direction)) return;  // warm-up, untimed
  for (auto _ : state)
    if (!buffers.copy(direction)) return;
  if (!check(state, buffers, direction, bytes)) return;
  const double traffic = direction == Direction::dtod ? 2.0 * bytes : 1.0 * bytes;
  state.SetBytesProcessed(static_cast<int64_t>(traffic * state.iterations()));
}

// hip_copy_<direction>/<side>, in pairs.
const bool registered = [] {
  const std::pair<const char*, Direction> directions[] = {
      {"htod", Direction::htod}, {"dtoh", Direction::dtoh}, {"dtod", Direction::dtod}};
  for (const auto& [name, direction] : directions)
    for (Side side : {Side::anygpu, Side::direct}) {
      const std::string full =
          std::string("hip_copy_") + name + (side == Side::anygpu ? "/anygpu" : "/direct");
      benchmark::RegisterBenchmark(full.c_str(), hip_copy, side, direction)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  return true;
}();

}  // namespace
}  // namespace anygpu_hip_bench
