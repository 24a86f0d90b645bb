// Pitched memory and 2-D / 3-D copies on every device: agMemAllocPitch's rows, agMemcpy2D and
// agMemcpy3D in each direction, synchronous and on a stream, with the bytes between the rows left
// as they were; and the boxes that do not fit refused with nothing copied.
#include <anygpu/anygpu.h>

#include <cstdint>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

constexpr unsigned char kUntouched = 0xEE;

// The byte a box's element (x, y, z) holds: distinct over the boxes these tests use.
unsigned char pattern(size_t x, size_t y, size_t z) {
  return static_cast<unsigned char>(x * 7 + y * 31 + z * 101 + 1);
}

class PitchedCopyTest : public ::testing::TestWithParam<int> {
 protected:
  void TearDown() override {
    for (void* p : allocations) EXPECT_AG(agMemFree(device, p));
  }

  void* alloc_pitch(size_t width, size_t height, size_t* pitch) {
    void* p = nullptr;
    EXPECT_AG(agMemAllocPitch(device, width, height, &p, pitch));
    if (p) allocations.push_back(p);
    return p;
  }
  void* alloc(size_t bytes) {
    void* p = nullptr;
    EXPECT_AG(agMemAlloc(device, bytes, &p));
    if (p) allocations.push_back(p);
    return p;
  }
  // Device memory set to kUntouched.
  void* alloc_untouched(size_t bytes) {
    void* p = alloc(bytes);
    EXPECT_AG(agMemsetD8(device, p, kUntouched, bytes));
    return p;
  }
  std::vector<unsigned char> download(const void* p, size_t bytes) {
    std::vector<unsigned char> out(bytes);
    EXPECT_AG(agMemcpyDtoH(device, out.data(), p, bytes));
    return out;
  }

  ag_device device = device_at(GetParam());
  std::vector<void*> allocations;
};

// Checks `memory` (pitch bytes a row, rows a slice) holds the pattern in the box at (x, y, z) of
// width x height x depth and kUntouched everywhere else.
void expect_box(const std::vector<unsigned char>& memory, size_t pitch, size_t rows, size_t x0,
                size_t y0, size_t z0, size_t width, size_t height, size_t depth) {
  size_t wrong = 0;
  for (size_t i = 0; i < memory.size() && wrong < 5; ++i) {
    const size_t z = i / (pitch * rows), y = i / pitch % rows, x = i % pitch;
    const bool inside =
        x >= x0 && x < x0 + width && y >= y0 && y < y0 + height && z >= z0 && z < z0 + depth;
    const unsigned char expected = inside ? pattern(x - x0, y - y0, z - z0) : kUntouched;
    if (memory[i] != expected) {
      ++wrong;
      ADD_FAILURE() << "byte " << i << " (x " << x << ", y " << y << ", z " << z << ") is "
                    << int(memory[i]) << ", expected " << int(expected);
    }
  }
}

TEST_P(PitchedCopyTest, AllocPitchRowsAreAlignedAndFreeable) {
  for (size_t width : {1, 100, 512, 513, 4096}) {
    SCOPED_TRACE("width " + std::to_string(width));
    size_t pitch = 0;
    void* p = alloc_pitch(width, 3, &pitch);
    ASSERT_NE(nullptr, p);
    EXPECT_GE(pitch, width);
    EXPECT_LT(pitch, width + AG_PITCH_ALIGNMENT);
    EXPECT_EQ(0u, pitch % AG_PITCH_ALIGNMENT);
    // All pitch * height bytes are the allocation's.
    EXPECT_AG(agMemsetD8(device, p, 0, pitch * 3));
  }
}

// Host rows -> pitched device rows -> a box inside another device buffer -> host rows of another
// pitch: every direction agMemcpy2D infers, each leaving the bytes between rows alone.
TEST_P(PitchedCopyTest, Copy2DInEveryDirection) {
  const size_t width = 37, height = 9, host_pitch = 50;
  std::vector<unsigned char> host(host_pitch * height, kUntouched);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) host[y * host_pitch + x] = pattern(x, y, 0);

  size_t pitch = 0;
  auto* rows = static_cast<unsigned char*>(alloc_pitch(width, height, &pitch));
  ASSERT_NE(nullptr, rows);
  ASSERT_AG(agMemsetD8(device, rows, kUntouched, pitch * height));
  ASSERT_AG(agMemcpy2D(rows, pitch, host.data(), host_pitch, width, height));
  expect_box(download(rows, pitch * height), pitch, height, 0, 0, 0, width, height, 1);

  // Into a box at (5, 2) of a 64-byte-pitch buffer of 16 rows.
  const size_t box_pitch = 64, box_rows = 16;
  auto* box = static_cast<unsigned char*>(alloc_untouched(box_pitch * box_rows));
  ASSERT_AG(agMemcpy2D(box + 2 * box_pitch + 5, box_pitch, rows, pitch, width, height));
  expect_box(download(box, box_pitch * box_rows), box_pitch, box_rows, 5, 2, 0, width, height, 1);

  const size_t back_pitch = 41;
  std::vector<unsigned char> back(back_pitch * height, kUntouched);
  ASSERT_AG(agMemcpy2D(back.data(), back_pitch, box + 2 * box_pitch + 5, box_pitch, width, height));
  expect_box(back, back_pitch, height, 0, 0, 0, width, height, 1);
}

TEST_P(PitchedCopyTest, Copy2DAsyncIsOrderedOnTheStream) {
  const size_t width = 24, height = 40;
  std::vector<unsigned char> host(width * height);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) host[y * width + x] = pattern(x, y, 0);
  size_t pitch = 0;
  void* rows = alloc_pitch(width, height, &pitch);
  ASSERT_NE(nullptr, rows);
  ag_stream stream = nullptr;
  ASSERT_AG(agStreamCreate(device, 0, &stream));
  std::vector<unsigned char> back(width * height, kUntouched);
  // Up with a pitch that differs, back with none (contiguous rows): the stream keeps the order.
  ASSERT_AG(agMemsetD8Async(rows, kUntouched, pitch * height, stream));
  ASSERT_AG(agMemcpy2DAsync(rows, pitch, host.data(), width, width, height, stream));
  ASSERT_AG(agMemcpy2DAsync(back.data(), width, rows, pitch, width, height, stream));
  ASSERT_AG(agStreamSynchronize(stream));
  EXPECT_EQ(host, back);
  expect_box(download(rows, pitch * height), pitch, height, 0, 0, 0, width, height, 1);
  EXPECT_AG(agStreamDestroy(stream));
}

// A box of a volume to a box of another, through the host and back, synchronous and on a stream.
TEST_P(PitchedCopyTest, Copy3DMovesABoxBetweenVolumes) {
  const size_t width = 10, height = 6, depth = 4;
  const size_t host_pitch = 16, host_rows = 8;  // a host volume with room around the box
  std::vector<unsigned char> host(host_pitch * host_rows * (depth + 1), kUntouched);
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y)
      for (size_t x = 0; x < width; ++x)
        host[(z + 1) * host_pitch * host_rows + (y + 1) * host_pitch + x + 3] = pattern(x, y, z);

  const size_t pitch = 32, rows = 9, slices = 6;
  void* volume = alloc_untouched(pitch * rows * slices);
  ag_memcpy_3d up{};
  up.struct_size = sizeof up;
  up.src = {host.data(), host_pitch, host_rows};
  up.src_x_bytes = 3;
  up.src_y = 1;
  up.src_z = 1;
  up.dst = {volume, pitch, rows};
  up.dst_x_bytes = 20;
  up.dst_y = 2;
  up.dst_z = 1;
  up.width_bytes = width;
  up.height = height;
  up.depth = depth;
  ASSERT_AG(agMemcpy3D(&up));
  expect_box(download(volume, pitch * rows * slices), pitch, rows, 20, 2, 1, width, height, depth);

  std::vector<unsigned char> back(width * height * depth, kUntouched);
  ag_memcpy_3d down{};
  down.struct_size = sizeof down;
  down.src = up.dst;
  down.src_x_bytes = 20;
  down.src_y = 2;
  down.src_z = 1;
  down.dst = {back.data(), width, height};
  down.width_bytes = width;
  down.height = height;
  down.depth = depth;
  ag_stream stream = nullptr;
  ASSERT_AG(agStreamCreate(device, 0, &stream));
  ASSERT_AG(agMemcpy3DAsync(&down, stream));
  ASSERT_AG(agStreamSynchronize(stream));
  expect_box(back, width, height, 0, 0, 0, width, height, depth);
  EXPECT_AG(agStreamDestroy(stream));
}

// What does not fit is refused before anything is copied.
TEST_P(PitchedCopyTest, BoxesThatDoNotFitAreRefused) {
  const size_t pitch = 64, rows = 4;
  void* buffer = alloc_untouched(pitch * rows);
  std::vector<unsigned char> host(pitch * (rows + 1), 1);

  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpy2D(buffer, 16, host.data(), 32, 20, 2));
  EXPECT_NE(std::string::npos, last_detail().find("pitch")) << last_detail();
  // One row more than the allocation has.
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemcpy2D(buffer, pitch, host.data(), pitch, 8, rows + 1));
  // The last row runs past the end.
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS,
            agMemcpy2D(static_cast<char*>(buffer) + 60, pitch, host.data(), pitch, 8, rows));
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpy2D(nullptr, pitch, host.data(), pitch, 8, 1));
  // Two host sides: agMemcpy's rule.
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpy2D(host.data(), pitch, host.data(), pitch, 8, 1));
  // Nothing to copy succeeds and copies nothing.
  EXPECT_AG(agMemcpy2D(buffer, pitch, host.data(), pitch, 0, rows));
  EXPECT_AG(agMemcpy2D(buffer, pitch, host.data(), pitch, 8, 0));

  ag_memcpy_3d c{};
  c.struct_size = sizeof c;
  c.src = {host.data(), pitch, 2};
  c.dst = {buffer, pitch, 2};
  c.width_bytes = 8;
  c.height = 3;  // more rows than either side's slice
  c.depth = 2;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpy3D(&c));
  EXPECT_NE(std::string::npos, last_detail().find("slice")) << last_detail();
  c.height = 2;
  c.depth = 3;  // three slices of two rows: more than the four rows allocated
  EXPECT_EQ(AG_ERROR_INVALID_ADDRESS, agMemcpy3D(&c));
  c.depth = 2;
  c.struct_size = sizeof c - 1;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpy3D(&c));
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agMemcpy3D(nullptr));

  const std::vector<unsigned char> after = download(buffer, pitch * rows);
  EXPECT_EQ(std::vector<unsigned char>(pitch * rows, kUntouched), after)
      << "a refused copy wrote to the buffer";
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, PitchedCopyTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
