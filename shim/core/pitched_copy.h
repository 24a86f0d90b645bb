// A pitched copy between two linear memories, as the backends receive it: CUDA_MEMCPY3D's linear
// part with the box's origin already added to the pointers. A 2-D copy has depth 1.
#pragma once

#include <cstddef>
#include <cstdint>

namespace anygpu {

struct PitchedCopy {
  void* dst;
  size_t dst_pitch;  // bytes from one row to the next
  size_t dst_rows;   // rows from one slice to the next; unused when depth is 1
  const void* src;
  size_t src_pitch;
  size_t src_rows;
  size_t width;  // bytes of each row
  size_t height;
  size_t depth;

  size_t dst_slice() const { return dst_pitch * dst_rows; }
  size_t src_slice() const { return src_pitch * src_rows; }
  // Rows that follow each other without a gap on both sides: one plain copy does it all.
  bool contiguous() const {
    const bool rows = height == 1 || (width == dst_pitch && width == src_pitch);
    const bool slices =
        depth == 1 || (dst_slice() == width * height && src_slice() == width * height);
    return rows && slices;
  }
  // Calls `row(dst, src)` for each row, slice by slice.
  template <typename Row>
  void for_each_row(Row row) const {
    for (size_t z = 0; z < depth; ++z)
      for (size_t y = 0; y < height; ++y)
        row(static_cast<char*>(dst) + z * dst_slice() + y * dst_pitch,
            static_cast<const char*>(src) + z * src_slice() + y * src_pitch);
  }
};

}  // namespace anygpu
