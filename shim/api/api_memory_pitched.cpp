// 2-D and 3-D copies of pitched linear memory (cudaMemcpy2D, cudaMemcpy3D): checked here as a box
// on each side, then handed to the backend as one PitchedCopy.
#include "shim/api/api_common.h"
#include "shim/core/pitched_copy.h"

using namespace anygpu;

namespace {

// One side of a copy as the caller described it.
struct Side {
  const void* base;
  size_t pitch, rows, x, y, z;
  const char* name;  // "dst" or "src"
};

struct Box {
  size_t width, height, depth;
};

// The side's first byte and how many bytes from it the box reaches; refuses a box that does not
// fit the side's rows and slices, or whose offsets overflow.
ag_result locate(const Side& s, const Box& box, const char** first, size_t* span) {
  if (ag_result r = require_pointer(s.base, s.name)) return r;
  size_t row_end = 0;
  if (__builtin_add_overflow(s.x, box.width, &row_end) || row_end > s.pitch)
    return fail(AG_ERROR_INVALID_VALUE,
                "%s: a row of width_bytes %zu from x %zu does not fit its pitch %zu; the pitch "
                "must be at least x + width_bytes",
                s.name, box.width, s.x, s.pitch);
  size_t slice_end = 0;
  if (box.depth > 1 && (__builtin_add_overflow(s.y, box.height, &slice_end) || slice_end > s.rows))
    return fail(AG_ERROR_INVALID_VALUE,
                "%s: %zu rows from y %zu do not fit its %zu rows a slice (ag_pitched_ptr.height)",
                s.name, box.height, s.y, s.rows);
  if (s.z > 0 && s.rows == 0)
    return fail(AG_ERROR_INVALID_VALUE,
                "%s: z is %zu but the side has no rows a slice (ag_pitched_ptr.height 0)", s.name,
                s.z);
  size_t slice = 0, offset = 0, reach = 0, t = 0, last_z = 0, last_y = 0;
  const bool overflow = __builtin_add_overflow(s.z, box.depth - 1, &last_z) ||
                        __builtin_add_overflow(s.y, box.height - 1, &last_y) ||
                        __builtin_mul_overflow(s.pitch, s.rows, &slice) ||
                        __builtin_mul_overflow(last_z, slice, &t) ||
                        __builtin_mul_overflow(last_y, s.pitch, &reach) ||
                        __builtin_add_overflow(t, reach, &reach) ||
                        __builtin_add_overflow(reach, row_end, &reach) ||
                        __builtin_mul_overflow(s.z, slice, &offset) ||
                        __builtin_add_overflow(offset, s.y * s.pitch + s.x, &offset);
  if (overflow)
    return fail(AG_ERROR_INVALID_VALUE, "%s: the box's offsets are more bytes than size_t holds",
                s.name);
  *first = static_cast<const char*>(s.base) + offset;
  *span = reach - offset;
  return AG_SUCCESS;
}

// Checks both sides and the direction, then copies on `stream` (nullptr: synchronously).
ag_result copy_box(const Side& dst, const Side& src, const Box& box, bool async, ag_stream stream) {
  StreamRef s;
  if (async) {
    if (ag_result r = get_stream(stream, &s)) return r;
  }
  if (ag_result r = require_pointer(dst.base, "dst")) return r;
  if (ag_result r = require_pointer(src.base, "src")) return r;
  if (box.width == 0 || box.height == 0 || box.depth == 0) return AG_SUCCESS;  // as CUDA
  const char *dst_first = nullptr, *src_first = nullptr;
  size_t dst_span = 0, src_span = 0;
  if (ag_result r = locate(dst, box, &dst_first, &dst_span)) return r;
  if (ag_result r = locate(src, box, &src_first, &src_span)) return r;
  Device* dev = nullptr;
  CopyKind kind = CopyKind::device_to_device;
  if (ag_result r = infer_copy(const_cast<char*>(dst_first), src_first, &dev, &kind)) return r;
  if (s && dev != s->device)
    return fail(AG_ERROR_INVALID_VALUE,
                "the device memory is device %d's, the stream device %d's; copy on a stream of "
                "device %d",
                dev->ordinal, s->device->ordinal, dev->ordinal);
  if (kind != CopyKind::device_to_host)
    if (ag_result r = require_device_range(*dev, dst_first, dst_span, "dst (device)")) return r;
  if (kind != CopyKind::host_to_device)
    if (ag_result r = require_device_range(*dev, src_first, src_span, "src (device)")) return r;
  const PitchedCopy c{const_cast<char*>(dst_first),
                      dst.pitch,
                      dst.rows,
                      src_first,
                      src.pitch,
                      src.rows,
                      box.width,
                      box.height,
                      box.depth};
  return dev->impl->copy_pitched(kind, c, s ? s->native : nullptr);
}

ag_result copy_2d(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
                  size_t height, bool async, ag_stream stream) {
  return copy_box({dst, dst_pitch, height, 0, 0, 0, "dst"},
                  {src, src_pitch, height, 0, 0, 0, "src"}, {width, height, 1}, async, stream);
}

ag_result copy_3d(const ag_memcpy_3d* copy, bool async, ag_stream stream) {
  if (ag_result r = require_pointer(copy, "copy")) return r;
  if (copy->struct_size < sizeof(ag_memcpy_3d))
    return fail(AG_ERROR_INVALID_VALUE, "copy->struct_size is %zu; set it to sizeof (%zu)",
                copy->struct_size, sizeof(ag_memcpy_3d));
  const Side dst{copy->dst.ptr, copy->dst.pitch, copy->dst.height, copy->dst_x_bytes,
                 copy->dst_y,   copy->dst_z,     "dst.ptr"};
  const Side src{copy->src.ptr, copy->src.pitch, copy->src.height, copy->src_x_bytes,
                 copy->src_y,   copy->src_z,     "src.ptr"};
  return copy_box(dst, src, {copy->width_bytes, copy->height, copy->depth}, async, stream);
}

}  // namespace

extern "C" {

ag_result agMemcpy2D(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                     size_t width_bytes, size_t height) try {
  AG_DEVICE_ENTRY();
  return copy_2d(dst, dst_pitch, src, src_pitch, width_bytes, height, false, nullptr);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpy2DAsync(void* dst, size_t dst_pitch, const void* src, size_t src_pitch,
                          size_t width_bytes, size_t height, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return copy_2d(dst, dst_pitch, src, src_pitch, width_bytes, height, true, stream);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpy3D(const ag_memcpy_3d* copy) try {
  AG_DEVICE_ENTRY();
  return copy_3d(copy, false, nullptr);
} catch (...) {
  return fail_from_exception();
}

ag_result agMemcpy3DAsync(const ag_memcpy_3d* copy, ag_stream stream) try {
  AG_DEVICE_ENTRY();
  return copy_3d(copy, true, stream);
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
