// Stream-ordered allocation on the vendor's stream: `launches` / 10 allocate-and-free pairs of
// 4 KiB queued back to back on one non-blocking stream, then one synchronize, per timed iteration.
// Before timing, one allocation is written and read back through it, to check it is memory.
//   <prefix>_alloc_async/anygpu  agMemAllocAsync + agMemFreeAsync (a driver pool of anygpu's own
//                                where the backend uses one, else anygpu's pool)
//   <prefix>_alloc_async/direct  cuMemAllocAsync + cuMemFreeAsync, hipMallocAsync + hipFreeAsync
//                                (the driver's default pool; Level Zero has none: not registered)
// Reported: time per iteration and per_pair (seconds per allocate-and-free pair).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_support.h"

namespace anygpu_bench {
namespace {

constexpr size_t kBytes = 4096;

// An allocation on `stream` holds what is copied into it.
bool check_memory(benchmark::State& state, const GpuApi& api, void* stream) {
  void* device = nullptr;
  if (!api.alloc_async(state, stream, kBytes, &device) || !api.stream_synchronize(state, stream))
    return false;
  std::vector<unsigned char> in(kBytes), out(kBytes);
  for (size_t i = 0; i < kBytes; ++i) in[i] = static_cast<unsigned char>(i * 7 + 1);
  const bool ok = api.copy_htod(state, device, in.data(), kBytes) &&
                  api.copy_dtoh(state, out.data(), device, kBytes);
  const bool freed = api.free_async(state, stream, device) && api.stream_synchronize(state, stream);
  if (ok && freed && in != out) state.SkipWithError("a stream-ordered allocation lost its bytes");
  return ok && freed && in == out;
}

void gpu_alloc_async(benchmark::State& state, const Vendor* vendor, Side side) {
  const GpuApi* api = vendor->ready(state, side);
  if (!api) return;
  const size_t pairs = std::max(2, sizes().launches / 10);
  void* stream = nullptr;
  if (!api->stream_create(state, &stream)) return;
  if (check_memory(state, *api, stream)) {
    for (auto _ : state) {
      bool ok = true;
      for (size_t i = 0; i < pairs && ok; ++i) {
        void* device = nullptr;
        ok = api->alloc_async(state, stream, kBytes, &device) &&
             api->free_async(state, stream, device);
      }
      if (!ok || !api->stream_synchronize(state, stream)) break;
    }
  }
  api->stream_destroy(stream);
  state.counters["per_pair"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * pairs,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

bool has_direct = false;

}  // namespace

bool alloc_async_has_direct() {
  return has_direct;
}

void register_alloc_async(const Vendor& vendor, bool direct) {
  has_direct = direct;
  for (Side side : {Side::anygpu, Side::direct}) {
    if (side == Side::direct && !direct) continue;
    const std::string name = std::string(vendor.prefix()) +
                             (side == Side::anygpu ? "_alloc_async/anygpu" : "_alloc_async/direct");
    benchmark::RegisterBenchmark(name.c_str(), gpu_alloc_async, &vendor, side)
        ->UseRealTime()
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace anygpu_bench
