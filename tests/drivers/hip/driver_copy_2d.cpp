// hipMemcpy2D: `height` rows of `width` bytes, row y from src + y * spitch to dst + y * dpitch,
// checked as HIP's runtime checks them. As the other copies (driver_memory.cpp): device memory must
// lie inside an allocation, the synchronous form runs on the null stream, and the asynchronous one
// is queued on its stream as one pitched copy of the CPU backend.
#include <cstdint>

#include "driver_objects.h"
#include "driver_state.h"
#include "shim/core/pitched_copy.h"

namespace anygpu::hip_test_driver {
namespace {

// hip_runtime_api.h's hipMemcpyKind values that hip_api.h does not name.
constexpr hipMemcpyKind kMemcpyHostToHost = 0;
constexpr hipMemcpyKind kMemcpyDefault = 4;  // each side is where its address is

bool accessible(const void* pointer, size_t bytes) {
  std::lock_guard<std::mutex> lock(objects().mutex);
  return objects().accessible(pointer, bytes);
}

// Whether one side of a copy of `kind` is device memory: as the kind says, or for
// hipMemcpyDefault, as the address says (HIP finds the allocation a pointer is in).
bool on_device(hipMemcpyKind kind, bool destination, const void* pointer) {
  if (kind == kMemcpyDefault) return accessible(pointer, 1);
  if (kind == hipMemcpyDeviceToDevice) return true;
  return kind == (destination ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost);
}

// The bytes from the first row's start to the last row's end (height > 0); false when it
// overflows.
bool span(size_t pitch, size_t width, size_t height, size_t* bytes) {
  return !__builtin_mul_overflow(height - 1, pitch, bytes) &&
         !__builtin_add_overflow(*bytes, width, bytes);
}

hipError_t copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                   size_t height, hipMemcpyKind kind, hipStream_t stream) {
  // As in HIP, an empty box (width or height 0) succeeds with its pitches and pointers unchecked.
  const bool empty = width == 0 || height == 0;
  if (!empty) {
    if (width > dpitch || width > spitch) return hipErrorInvalidPitchValue;
    if (!dst || !src) return hipErrorInvalidValue;
  }
  if (kind < kMemcpyHostToHost || kind > kMemcpyDefault) return hipErrorInvalidMemcpyDirection;
  const bool dst_device = !empty && on_device(kind, true, dst);
  const bool src_device = !empty && on_device(kind, false, src);
  if (!empty) {
    size_t dst_bytes = 0, src_bytes = 0;
    if (!span(dpitch, width, height, &dst_bytes) || !span(spitch, width, height, &src_bytes))
      return hipErrorInvalidValue;
    if ((dst_device && !accessible(dst, dst_bytes)) || (src_device && !accessible(src, src_bytes)))
      return hipErrorInvalidValue;
  }
  int device = 0;
  std::shared_ptr<Stream> on;
  if (hipError_t r = stream_for_work(stream, &device, &on)) return r;
  if (empty) return hipSuccess;
  // The CPU backend copies every kind alike; host to host goes as host to device.
  const CopyKind copy_kind =
      src_device ? (dst_device ? CopyKind::device_to_device : CopyKind::device_to_host)
                 : CopyKind::host_to_device;
  const PitchedCopy c{dst, dpitch, height, src, spitch, height, width, height, 1};
  if (ag_result r = cpu().copy_pitched(copy_kind, c, on ? on->native : nullptr)) return from_cpu(r);
  return hipSuccess;
}

}  // namespace
}  // namespace anygpu::hip_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::hip {

using namespace hip_test_driver;

ANYGPU_HIP_TEST_API hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                           size_t width, size_t height, hipMemcpyKind kind) {
  DRIVER_ENTRY(hipMemcpy2D);
  return copy_2d(dst, dpitch, src, spitch, width, height, kind, nullptr);
}

ANYGPU_HIP_TEST_API hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src,
                                                size_t spitch, size_t width, size_t height,
                                                hipMemcpyKind kind, hipStream_t stream) {
  DRIVER_ENTRY(hipMemcpy2DAsync);
  return copy_2d(dst, dpitch, src, spitch, width, height, kind, stream);
}

}  // namespace anygpu::hip
