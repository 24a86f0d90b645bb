// Copy bandwidth on the vendor's device, `copy_bytes` per copy, pinned host memory:
//   <prefix>_copy_{htod,dtoh,dtod}/anygpu  agMemAllocHost, agMemAlloc, agMemcpy{HtoD,DtoH,DtoD}
//   <prefix>_copy_{htod,dtoh,dtod}/direct  the vendor's own calls (cuda_support.cpp,
//       hip_support.cpp), with a synchronize of the null stream after host-to-device and
//       device-to-device copies, which CUDA and HIP may return from before they are done
//       (anygpu's synchronous copies wait the same way).
//   <prefix>_copy_2d/{anygpu,direct}  agMemcpy2D against cuMemcpy3D (depth 1), hipMemcpy2D,
//       zeCommandListAppendMemoryCopyRegion: the buffers as rows of kPitch bytes, kWidth bytes of
//       every row copied from one device buffer to the other.
// bytes_per_second counts the bytes copied; device-to-device counts them twice (read and written),
// as CUDA's bandwidthTest does, so that it compares with a kernel's memory traffic. After the timed
// loop, sampled ranges of the destination are checked against the source pattern.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "gpu_support.h"

namespace anygpu_bench {
namespace {

enum class Direction { htod, dtoh, dtod, dtod_2d };

// The 2-D copy's rows: three quarters of each 8 KiB row, so the copy strides over the rest.
constexpr size_t kPitch = 8192;
constexpr size_t kWidth = 6144;

unsigned char pattern(size_t i) {
  return static_cast<unsigned char>(i * 131 + (i >> 12));
}

// One side's buffers: pinned host memory and two device buffers, each `bytes` long.
class Buffers {
 public:
  Buffers(benchmark::State& state, const GpuApi& api, size_t bytes)
      : state_(state), api_(api), bytes_(bytes) {
    valid_ = api.alloc_host(state, bytes, &host_) && api.alloc(state, bytes, &device_[0]) &&
             api.alloc(state, bytes, &device_[1]);
  }
  ~Buffers() {
    for (void* d : device_)
      if (d) api_.free(d);
    if (host_) api_.free_host(host_);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;

  bool valid() const { return valid_; }
  unsigned char* host() const { return static_cast<unsigned char*>(host_); }

  // One synchronous copy: host to device 0, device 0 to host, or device 0 to device 1.
  bool copy(Direction direction) {
    switch (direction) {
      case Direction::htod:
        return api_.copy_htod(state_, device_[0], host_, bytes_);
      case Direction::dtoh:
        return api_.copy_dtoh(state_, host_, device_[0], bytes_);
      case Direction::dtod:
        return api_.copy_dtod(state_, device_[1], device_[0], bytes_);
      case Direction::dtod_2d:
        return api_.copy_2d_dtod(state_, device_[1], kPitch, device_[0], kPitch, kWidth,
                                 bytes_ / kPitch);
    }
    return false;
  }

  // Reads `count` bytes at `offset` of device buffer `which` into `out` (pageable memory).
  bool read_device(int which, size_t offset, size_t count, unsigned char* out) {
    return api_.copy_dtoh(state_, out, static_cast<unsigned char*>(device_[which]) + offset, count);
  }

 private:
  benchmark::State& state_;
  const GpuApi& api_;
  size_t bytes_;
  void* host_ = nullptr;
  void* device_[2] = {nullptr, nullptr};
  bool valid_ = false;
};

// The destination of the copies holds the pattern: its first, middle and last 64 KiB.
bool check(benchmark::State& state, Buffers& buffers, Direction direction, size_t bytes) {
  if (direction == Direction::dtod_2d) {  // the copied part of the first, middle and last row
    const size_t rows = bytes / kPitch;
    std::vector<unsigned char> got(kWidth);
    for (size_t row : {size_t{0}, rows / 2, rows - 1}) {
      if (!buffers.read_device(1, row * kPitch, kWidth, got.data())) return false;
      for (size_t i = 0; i < kWidth; ++i)
        if (got[i] != pattern(row * kPitch + i)) {
          state.SkipWithError(("wrong byte in row " + std::to_string(row)).c_str());
          return false;
        }
    }
    return true;
  }
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

void gpu_copy(benchmark::State& state, const Vendor* vendor, Side side, Direction direction) {
  const GpuApi* api = vendor->ready(state, side);
  if (!api) return;
  const size_t bytes = sizes().copy_bytes;
  Buffers buffers(state, *api, bytes);
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
  const double traffic = direction == Direction::dtod      ? 2.0 * bytes
                         : direction == Direction::dtod_2d ? 2.0 * kWidth * (bytes / kPitch)
                                                           : 1.0 * bytes;
  state.SetBytesProcessed(static_cast<int64_t>(traffic * state.iterations()));
}

}  // namespace

// <prefix>_copy_<direction>/<side>, in pairs.
void register_copy_bandwidth(const Vendor& vendor) {
  const std::pair<const char*, Direction> directions[] = {{"htod", Direction::htod},
                                                          {"dtoh", Direction::dtoh},
                                                          {"dtod", Direction::dtod},
                                                          {"2d", Direction::dtod_2d}};
  for (const auto& [name, direction] : directions)
    for (Side side : {Side::anygpu, Side::direct}) {
      const std::string full = std::string(vendor.prefix()) + "_copy_" + name +
                               (side == Side::anygpu ? "/anygpu" : "/direct");
      benchmark::RegisterBenchmark(full.c_str(), gpu_copy, &vendor, side, direction)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
}

}  // namespace anygpu_bench
