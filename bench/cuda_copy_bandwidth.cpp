// Copy bandwidth on the CUDA device, `copy_bytes` per copy, pinned host memory:
//   cuda_copy_{htod,dtoh,dtod}/anygpu  agMemAllocHost, agMemAlloc, agMemcpy{HtoD,DtoH,DtoD}
//   cuda_copy_{htod,dtoh,dtod}/direct  cuMemAllocHost_v2, cuMemAlloc_v2, cuMemcpy*_v2, and
//       cuStreamSynchronize(0) after host-to-device and device-to-device copies, which CUDA may
//       return from before they are done (anygpu's synchronous copies wait the same way).
// bytes_per_second counts the bytes copied; device-to-device counts them twice (read and written),
// as CUDA's bandwidthTest does, so that it compares with a kernel's memory traffic. After the timed
// loop, sampled ranges of the destination are checked against the source pattern.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cuda_support.h"

namespace anygpu_cuda_bench {
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
    const CudaRuntime& r = cuda_runtime();
    if (side_ == Side::anygpu) {
      valid_ = ag_ok(state, agMemAllocHost(r.device, bytes, &host_), "agMemAllocHost") &&
               ag_ok(state, agMemAlloc(r.device, bytes, &device_[0]), "agMemAlloc") &&
               ag_ok(state, agMemAlloc(r.device, bytes, &device_[1]), "agMemAlloc");
      return;
    }
    cuda::CUdeviceptr d0 = 0, d1 = 0;
    valid_ = cu_ok(state, r.cu.cuMemAllocHost_v2(&host_, bytes), "cuMemAllocHost_v2") &&
             cu_ok(state, r.cu.cuMemAlloc_v2(&d0, bytes), "cuMemAlloc_v2") &&
             cu_ok(state, r.cu.cuMemAlloc_v2(&d1, bytes), "cuMemAlloc_v2");
    device_[0] = reinterpret_cast<void*>(d0);
    device_[1] = reinterpret_cast<void*>(d1);
  }
  ~Buffers() {
    const CudaRuntime& r = cuda_runtime();
    for (void* d : device_) {
      if (d && side_ == Side::anygpu) agMemFree(r.device, d);
      if (d && side_ == Side::direct) r.cu.cuMemFree_v2(address(d));
    }
    if (host_ && side_ == Side::anygpu) agMemFreeHost(r.device, host_);
    if (host_ && side_ == Side::direct) r.cu.cuMemFreeHost(host_);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;

  bool valid() const { return valid_; }
  unsigned char* host() const { return static_cast<unsigned char*>(host_); }

  // One synchronous copy: host to device 0, device 0 to host, or device 0 to device 1.
  bool copy(Direction direction) {
    const CudaRuntime& r = cuda_runtime();
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
    const cuda::CudaFunctions& cu = r.cu;
    switch (direction) {
      case Direction::htod:
        return cu_ok(state_, cu.cuMemcpyHtoD_v2(address(d0), host_, bytes_), "cuMemcpyHtoD_v2") &&
               cu_ok(state_, cu.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
      case Direction::dtoh:
        return cu_ok(state_, cu.cuMemcpyDtoH_v2(host_, address(d0), bytes_), "cuMemcpyDtoH_v2");
      case Direction::dtod:
        return cu_ok(state_, cu.cuMemcpyDtoD_v2(address(d1), address(d0), bytes_),
                     "cuMemcpyDtoD_v2") &&
               cu_ok(state_, cu.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
    }
    return false;
  }

  // Reads `count` bytes at `offset` of device buffer `which` into `out` (pageable memory).
  bool read_device(int which, size_t offset, size_t count, unsigned char* out) {
    const CudaRuntime& r = cuda_runtime();
    unsigned char* source = static_cast<unsigned char*>(device_[which]) + offset;
    if (side_ == Side::anygpu)
      return ag_ok(state_, agMemcpyDtoH(r.device, out, source, count), "agMemcpyDtoH");
    return cu_ok(state_, r.cu.cuMemcpyDtoH_v2(out, address(source), count), "cuMemcpyDtoH_v2");
  }

 private:
  static cuda::CUdeviceptr address(const void* p) { return reinterpret_cast<cuda::CUdeviceptr>(p); }

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

void cuda_copy(benchmark::State& state, Side side, Direction direction) {
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

// cuda_copy_<direction>/<side>, in pairs.
const bool registered = [] {
  const std::pair<const char*, Direction> directions[] = {
      {"htod", Direction::htod}, {"dtoh", Direction::dtoh}, {"dtod", Direction::dtod}};
  for (const auto& [name, direction] : directions)
    for (Side side : {Side::anygpu, Side::direct}) {
      const std::string full =
          std::string("cuda_copy_") + name + (side == Side::anygpu ? "/anygpu" : "/direct");
      benchmark::RegisterBenchmark(full.c_str(), cuda_copy, side, direction)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  return true;
}();

}  // namespace
}  // namespace anygpu_cuda_bench
