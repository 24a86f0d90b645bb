// cuMemcpy3D: a pitched copy of WidthInBytes x Height x Depth bytes between host and device memory,
// checked as cuda.h documents CUDA_MEMCPY3D. The driver has no CUDA arrays, so the array memory
// type is CUDA_ERROR_INVALID_VALUE. As the other copies (driver_memory.cpp): device memory must lie
// inside an allocation, the synchronous form runs on the legacy default stream, and the
// asynchronous one is queued on its stream as one pitched copy of the CPU backend.
#include <cstdint>

#include "driver_cpu.h"
#include "driver_objects.h"
#include "driver_state.h"
#include "shim/core/pitched_copy.h"

namespace anygpu::cuda_test_driver {
namespace {

// cuda.h's CUmemorytype values that cuda_api.h does not name.
constexpr CUmemorytype kMemoryTypeArray = 3;
constexpr CUmemorytype kMemoryTypeUnified = 4;  // a unified address: here, device memory

// One side of the copy, as CUDA_MEMCPY3D describes it.
struct Side {
  CUmemorytype type;
  uintptr_t host;
  CUdeviceptr device;
  const void* reserved;
  size_t x, y, z, lod, pitch, height;

  bool on_device() const { return type != CU_MEMORYTYPE_HOST; }
  uintptr_t base() const { return on_device() ? static_cast<uintptr_t>(device) : host; }

  // The byte offset of the copy's row `row` in its slice `slice`; false when it overflows.
  bool offset(size_t row, size_t slice, size_t* result) const {
    size_t line = 0, plane = 0, slice_bytes = 0, row_bytes = 0;
    if (__builtin_add_overflow(y, row, &line) || __builtin_add_overflow(z, slice, &plane) ||
        __builtin_mul_overflow(line, pitch, &row_bytes))
      return false;
    // Slices are pitch * height bytes apart; height does not matter within slice 0.
    if (plane != 0 && (__builtin_mul_overflow(pitch, height, &slice_bytes) ||
                       __builtin_mul_overflow(slice_bytes, plane, &slice_bytes)))
      return false;
    return !__builtin_add_overflow(x, row_bytes, result) &&
           !__builtin_add_overflow(*result, slice_bytes, result);
  }
};

Side source_of(const CUDA_MEMCPY3D& p) {
  Side side;
  side.type = p.srcMemoryType;
  side.host = reinterpret_cast<uintptr_t>(p.srcHost);
  side.device = p.srcDevice;
  side.reserved = p.reserved0;
  side.x = p.srcXInBytes;
  side.y = p.srcY;
  side.z = p.srcZ;
  side.lod = p.srcLOD;
  side.pitch = p.srcPitch;
  side.height = p.srcHeight;
  return side;
}

Side destination_of(const CUDA_MEMCPY3D& p) {
  Side side;
  side.type = p.dstMemoryType;
  side.host = reinterpret_cast<uintptr_t>(p.dstHost);
  side.device = p.dstDevice;
  side.reserved = p.reserved1;
  side.x = p.dstXInBytes;
  side.y = p.dstY;
  side.z = p.dstZ;
  side.lod = p.dstLOD;
  side.pitch = p.dstPitch;
  side.height = p.dstHeight;
  return side;
}

// What cuMemcpy3D refuses in one side's description, whatever the extent.
CUresult check(const Side& side, const CUDA_MEMCPY3D& p) {
  if (side.type == kMemoryTypeArray) return CUDA_ERROR_INVALID_VALUE;  // no arrays here
  if (side.type != CU_MEMORYTYPE_HOST && side.type != CU_MEMORYTYPE_DEVICE &&
      side.type != kMemoryTypeUnified)
    return CUDA_ERROR_INVALID_VALUE;
  if (side.reserved || side.lod != 0) return CUDA_ERROR_INVALID_VALUE;
  // More than one row: each must fit its pitch. More than one slice: the rows, their height.
  size_t row_end = 0, rows_end = 0;
  if ((p.Height > 1 || p.Depth > 1) &&
      (__builtin_add_overflow(side.x, p.WidthInBytes, &row_end) || side.pitch < row_end))
    return CUDA_ERROR_INVALID_VALUE;
  if (p.Depth > 1 &&
      (__builtin_add_overflow(side.y, p.Height, &rows_end) || side.height < rows_end))
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

// A copy of at least one byte reaches from its first row's start to its last row's end: on the
// device, that span must lie inside one allocation, as the other copies' bytes must.
CUresult check_reach(const Side& side, const CUDA_MEMCPY3D& p) {
  size_t first = 0, end = 0;
  if (side.base() == 0 || !side.offset(0, 0, &first) ||
      !side.offset(p.Height - 1, p.Depth - 1, &end) ||
      __builtin_add_overflow(end, p.WidthInBytes, &end) || end > UINTPTR_MAX - side.base())
    return CUDA_ERROR_INVALID_VALUE;
  if (!side.on_device()) return CUDA_SUCCESS;  // the host side may be any memory
  std::lock_guard<std::mutex> lock(objects().mutex);
  return objects().accessible(reinterpret_cast<const void*>(side.base() + first), end - first)
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_VALUE;
}

CopyKind kind_of(const Side& src, const Side& dst) {
  if (src.on_device())
    return dst.on_device() ? CopyKind::device_to_device : CopyKind::device_to_host;
  return CopyKind::host_to_device;  // host to host as well: the CPU backend copies alike
}

CUresult copy_3d(const CUDA_MEMCPY3D* p, CUstream stream) {
  Context* context = nullptr;
  if (CUresult r = require_context(&context)) return r;
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  // Read once, at the call: the caller may reuse the description as soon as the call returns.
  const Side src = source_of(*p), dst = destination_of(*p);
  const size_t width = p->WidthInBytes, height = p->Height, depth = p->Depth;
  if (CUresult r = check(src, *p)) return r;
  if (CUresult r = check(dst, *p)) return r;
  const bool empty = width == 0 || height == 0 || depth == 0;
  if (!empty) {
    if (CUresult r = check_reach(src, *p)) return r;
    if (CUresult r = check_reach(dst, *p)) return r;
  }
  std::shared_ptr<Stream> on;
  if (CUresult r = stream_for_work(context, stream, &on)) return r;
  if (empty) return CUDA_SUCCESS;
  // No overflow: check_reach checked the last row's end, and no offset is larger.
  size_t from = 0, to = 0;
  src.offset(0, 0, &from);
  dst.offset(0, 0, &to);
  const PitchedCopy c{reinterpret_cast<void*>(dst.base() + to),
                      dst.pitch,
                      dst.height,
                      reinterpret_cast<const void*>(src.base() + from),
                      src.pitch,
                      src.height,
                      width,
                      height,
                      depth};
  if (ag_result r = cpu().copy_pitched(kind_of(src, dst), c, on ? on->native : nullptr))
    return from_cpu(r);
  return CUDA_SUCCESS;
}

}  // namespace
}  // namespace anygpu::cuda_test_driver

// The entry points: beside their declarations, so that a definition whose signature differs
// does not compile.
namespace anygpu::cuda {

using namespace cuda_test_driver;

ANYGPU_CUDA_TEST_API CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D* p) {
  DRIVER_ENTRY(cuMemcpy3D_v2);
  return copy_3d(p, nullptr);
}

ANYGPU_CUDA_TEST_API CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* p, CUstream stream) {
  DRIVER_ENTRY(cuMemcpy3DAsync_v2);
  return copy_3d(p, stream);
}

}  // namespace anygpu::cuda
