// Error paths of allocation, free, memory info, copies and memset, synchronous and on a stream.
#include <cstdint>

#include "api_error_support.h"

using namespace api_test;

namespace {

using Bytes = std::vector<unsigned char>;
constexpr size_t kBytes = 512;

Bytes pattern(unsigned char seed) {
  Bytes bytes(kBytes);
  for (size_t i = 0; i < kBytes; ++i) bytes[i] = static_cast<unsigned char>(seed + i * 7);
  return bytes;
}

unsigned char* at(void* base, size_t offset) {
  return static_cast<unsigned char*>(base) + offset;
}

struct Allocator {
  const char* alloc_name;
  ag_result (*alloc)(ag_device, size_t, void**);
  const char* free_name;
  ag_result (*release)(ag_device, void*);
};
const Allocator kAllocators[] = {
    {"agMemAlloc", agMemAlloc, "agMemFree", agMemFree},
    {"agMemAllocHost", agMemAllocHost, "agMemFreeHost", agMemFreeHost}};

// A copy or memset, synchronous (on a device) or asynchronous (on a stream); memsets as copies
// without a source.
using SyncCopy = ag_result (*)(ag_device, void* dst, const void* src, size_t bytes);
using AsyncCopy = ag_result (*)(void* dst, const void* src, size_t bytes, ag_stream);

ag_result memset_sync(ag_device device, void* dst, const void*, size_t bytes) {
  return agMemsetD8(device, dst, 0x5A, bytes);
}
ag_result memset_async(void* dst, const void*, size_t bytes, ag_stream stream) {
  return agMemsetD8Async(dst, 0x5A, bytes, stream);
}

struct CopyOp {
  std::string name;
  bool dst_on_device;
  bool src_on_device;
  bool has_src;   // false for memset
  SyncCopy sync;  // or
  AsyncCopy async;
  ag_result call(void* dst, const void* src, size_t bytes, ag_device device,
                 ag_stream stream) const {
    return sync ? sync(device, dst, src, bytes) : async(dst, src, bytes, stream);
  }
};

const CopyOp kCopyOps[] = {
    {"agMemcpyHtoD", true, false, true, agMemcpyHtoD, nullptr},
    {"agMemcpyDtoH", false, true, true, agMemcpyDtoH, nullptr},
    {"agMemcpyDtoD", true, true, true, agMemcpyDtoD, nullptr},
    {"agMemsetD8", true, false, false, memset_sync, nullptr},
    {"agMemcpyPeer", true, true, true,
     [](ag_device d, void* dst, const void* src, size_t n) {
       return agMemcpyPeer(dst, d, src, d, n);
     },
     nullptr},
    {"agMemcpyHtoDAsync", true, false, true, nullptr, agMemcpyHtoDAsync},
    {"agMemcpyDtoHAsync", false, true, true, nullptr, agMemcpyDtoHAsync},
    {"agMemcpyDtoDAsync", true, true, true, nullptr, agMemcpyDtoDAsync},
    {"agMemsetD8Async", true, false, false, nullptr, memset_async},
};

// One bad set of arguments for a copy.
struct CopyCase {
  std::string what;
  void* dst;
  const void* src;
  size_t bytes;
  ag_result expected;
};

// Device buffers and host memory with known contents; checks that failed calls left them alone.
class MemoryErrorTest : public ApiErrorTest {
 protected:
  void SetUp() override {
    ApiErrorTest::SetUp();
    if (HasFatalFailure()) return;
    dst_ = std::make_unique<anygpu_test::DeviceBuffer<unsigned char>>(device, pattern(1));
    src_ = std::make_unique<anygpu_test::DeviceBuffer<unsigned char>>(device, pattern(2));
    ASSERT_AG(agMemAlloc(device, kBytes, &freed_));
    ASSERT_AG(agMemFree(device, freed_));
  }
  void TearDown() override {
    dst_.reset();
    src_.reset();
    ApiErrorTest::TearDown();
  }

  void* device_dst() const { return dst_->get(); }
  void* device_src() const { return src_->get(); }

  // The valid arguments of `op`: whole buffers.
  void* dst_of(const CopyOp& op) { return op.dst_on_device ? device_dst() : host_dst_.data(); }
  const void* src_of(const CopyOp& op) {
    return op.src_on_device ? device_src() : static_cast<const void*>(host_src_.data());
  }

  // The failures `op` must report, each changing one argument of a valid call.
  std::vector<CopyCase> bad_cases(const CopyOp& op) {
    void* dst = dst_of(op);
    const void* src = src_of(op);
    std::vector<CopyCase> cases = {{"zero bytes", dst, src, 0, AG_ERROR_INVALID_VALUE},
                                   {"NULL dst", nullptr, src, 16, AG_ERROR_INVALID_VALUE}};
    if (op.has_src) cases.push_back({"NULL src", dst, nullptr, 16, AG_ERROR_INVALID_VALUE});
    if (op.dst_on_device) add_range_cases(cases, "dst", dst, src, true);
    if (op.src_on_device) add_range_cases(cases, "src", dst, src, false);
    return cases;
  }

  // Checks that the device buffers, the host destination and `outside_` are unchanged.
  void expect_nothing_changed() {
    ASSERT_AG(agStreamSynchronize(stream));
    EXPECT_EQ(pattern(1), dst_->download());
    EXPECT_EQ(pattern(2), src_->download());
    EXPECT_EQ(pattern(3), host_dst_);
    EXPECT_EQ(pattern(5), outside_);
  }

  Bytes host_src_ = pattern(4);
  Bytes host_dst_ = pattern(3);
  Bytes outside_ = pattern(5);  // host memory that no allocation covers
  void* freed_ = nullptr;       // a device allocation already freed

 private:
  // Ranges of the device side `side` that are not inside one allocation. The other side stays at
  // the start of its kBytes buffer, so the ranges that start inside this side's buffer and are at
  // most kBytes long fail on this side alone.
  void add_range_cases(std::vector<CopyCase>& cases, const std::string& side, void* dst,
                       const void* src, bool is_dst) {
    void* base = is_dst ? dst : const_cast<void*>(src);
    auto add = [&](const std::string& what, void* pointer, size_t bytes) {
      cases.push_back({side + " " + what, is_dst ? pointer : dst, is_dst ? src : pointer, bytes,
                       AG_ERROR_INVALID_ADDRESS});
    };
    add("not in any allocation", outside_.data(), 16);
    add("freed", freed_, 16);
    add("made up", made_up<void*>(0x1234), 16);
    add("running one byte past the end", at(base, kBytes / 2), kBytes / 2 + 1);
    add("starting at the end", at(base, kBytes), 1);
    add("one byte too long", base, kBytes + 1);
    add("of SIZE_MAX bytes", base, SIZE_MAX);
    add("of SIZE_MAX bytes from the last byte", at(base, kBytes - 1), SIZE_MAX);
  }

  std::unique_ptr<anygpu_test::DeviceBuffer<unsigned char>> dst_, src_;
};

TEST_F(MemoryErrorTest, CopiesRejectBadRanges) {
  for (const CopyOp& op : kCopyOps)
    for (const CopyCase& bad : bad_cases(op)) {
      SCOPED_TRACE(op.name + " given " + bad.what);
      EXPECT_TRUE(fails_with(bad.expected, op.name,
                             [&] { return op.call(bad.dst, bad.src, bad.bytes, device, stream); }));
      expect_nothing_changed();
    }
}

TEST_F(MemoryErrorTest, CopiesRejectBadHandles) {
  for (const CopyOp& op : kCopyOps) {
    auto call_with = [&](ag_device d, ag_stream s) {
      return op.call(dst_of(op), src_of(op), kBytes, d, s);
    };
    if (op.async)
      expect_invalid_handles<ag_stream>(op.name,
                                        [&](ag_stream bad) { return call_with(device, bad); });
    else
      expect_invalid_handles<ag_device>(op.name,
                                        [&](ag_device bad) { return call_with(bad, stream); });
    expect_nothing_changed();
  }
}

TEST_F(MemoryErrorTest, CopiesStillWorkAfterFailures) {
  for (const CopyOp& op : kCopyOps) {
    SCOPED_TRACE(op.name);
    EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, op.name,
                           [&] { return op.call(dst_of(op), src_of(op), 0, device, stream); }));
  }
  ASSERT_AG(agMemcpyDtoD(device, device_dst(), device_src(), kBytes));
  ASSERT_AG(agMemcpyDtoH(device, host_dst_.data(), device_dst(), kBytes));
  EXPECT_EQ(pattern(2), host_dst_);
}

// Peer calls: handles first (both devices, the stream), then outputs, flags, sizes and ranges; a
// device is not its own peer. Nothing is written or changed by a refusal.
TEST_F(MemoryErrorTest, PeerCallsRejectBadInput) {
  expect_invalid_handles<ag_device>("agDeviceCanAccessPeer", [&](ag_device bad) {
    return with_untouched_output<int>(
        [&](int* out) { return agDeviceCanAccessPeer(bad, device, out); });
  });
  expect_invalid_handles<ag_device>("agDeviceCanAccessPeer", [&](ag_device bad) {
    return with_untouched_output<int>(
        [&](int* out) { return agDeviceCanAccessPeer(device, bad, out); });
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceCanAccessPeer(device, device, nullptr));
  expect_invalid_handles<ag_device>("agDeviceEnablePeerAccess", [&](ag_device bad) {
    return agDeviceEnablePeerAccess(device, bad, 0);
  });
  expect_invalid_handles<ag_device>("agDeviceDisablePeerAccess", [&](ag_device bad) {
    return agDeviceDisablePeerAccess(bad, device);
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceEnablePeerAccess(device, device, 1));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceEnablePeerAccess(device, device, 0));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceDisablePeerAccess(device, device));

  void* dst = device_dst();
  const void* src = device_src();
  expect_invalid_handles<ag_device>(
      "agMemcpyPeer", [&](ag_device bad) { return agMemcpyPeer(dst, bad, src, device, kBytes); });
  expect_invalid_handles<ag_device>("agMemcpyPeerAsync", [&](ag_device bad) {
    return agMemcpyPeerAsync(dst, device, src, bad, kBytes, stream);
  });
  expect_invalid_handles<ag_stream>("agMemcpyPeerAsync", [&](ag_stream bad) {
    return agMemcpyPeerAsync(dst, device, src, device, kBytes, bad);
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemcpyPeerAsync(nullptr, device, src, device, 1, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemcpyPeerAsync(dst, device, nullptr, device, 1, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemcpyPeerAsync(dst, device, src, device, 0, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS,
               agMemcpyPeerAsync(dst, device, outside_.data(), device, 1, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS, agMemcpyPeerAsync(freed_, device, src, device, 1, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS,
               agMemcpyPeerAsync(dst, device, src, device, kBytes + 1, stream));
  expect_nothing_changed();
}

// agMemsetD16/D32 (and Async): counts of elements, the destination aligned to the element.
struct WideMemset {
  std::string name;
  unsigned size;  // bytes per element
  ag_result (*call)(ag_device, ag_stream, void* dst, size_t count);
};
const WideMemset kWideMemsets[] = {
    {"agMemsetD16", 2,
     [](ag_device d, ag_stream, void* dst, size_t n) { return agMemsetD16(d, dst, 0xBEEF, n); }},
    {"agMemsetD32", 4,
     [](ag_device d, ag_stream, void* dst, size_t n) {
       return agMemsetD32(d, dst, 0xC0FFEE11u, n);
     }},
    {"agMemsetD16Async", 2,
     [](ag_device, ag_stream s, void* dst, size_t n) {
       return agMemsetD16Async(dst, 0xBEEF, n, s);
     }},
    {"agMemsetD32Async", 4,
     [](ag_device, ag_stream s, void* dst, size_t n) {
       return agMemsetD32Async(dst, 0xC0FFEE11u, n, s);
     }},
};

TEST_F(MemoryErrorTest, WideMemsetsRejectBadCountsAlignmentAndRanges) {
  for (const WideMemset& op : kWideMemsets) {
    const size_t whole = kBytes / op.size;
    const struct {
      const char* what;
      void* dst;
      size_t count;
      ag_result expected;
    } bad[] = {
        {"zero elements", device_dst(), 0, AG_ERROR_INVALID_VALUE},
        {"NULL dst", nullptr, 4, AG_ERROR_INVALID_VALUE},
        {"a dst one byte into the buffer", at(device_dst(), 1), 4, AG_ERROR_INVALID_VALUE},
        {"more elements than size_t bytes", device_dst(), SIZE_MAX / op.size + 1,
         AG_ERROR_INVALID_VALUE},
        {"one element too many", device_dst(), whole + 1, AG_ERROR_INVALID_ADDRESS},
        {"the last element and one more", at(device_dst(), kBytes - op.size), 2,
         AG_ERROR_INVALID_ADDRESS},
        {"a freed allocation", freed_, 4, AG_ERROR_INVALID_ADDRESS},
    };
    for (const auto& b : bad) {
      SCOPED_TRACE(op.name + " given " + b.what);
      EXPECT_TRUE(fails_with(b.expected, op.name.c_str(),
                             [&] { return op.call(device, stream, b.dst, b.count); }));
      expect_nothing_changed();
    }
  }
}

TEST_F(MemoryErrorTest, WideMemsetsRejectBadHandles) {
  for (const WideMemset& op : kWideMemsets) {
    if (op.name.find("Async") != std::string::npos)
      expect_invalid_handles<ag_stream>(
          op.name, [&](ag_stream bad) { return op.call(device, bad, device_dst(), 4); });
    else
      expect_invalid_handles<ag_device>(
          op.name, [&](ag_device bad) { return op.call(bad, stream, device_dst(), 4); });
    expect_nothing_changed();
  }
}

// agMemcpy (and Async) infer the direction: one side must be device memory, both in range.
TEST_F(MemoryErrorTest, InferredCopiesRejectHostOnlyNullAndBadRanges) {
  const struct {
    const char* what;
    void* dst;
    const void* src;
    size_t bytes;
    ag_result expected;
  } bad[] = {
      {"two host pointers", host_dst_.data(), host_src_.data(), 16, AG_ERROR_INVALID_VALUE},
      {"NULL dst", nullptr, device_src(), 16, AG_ERROR_INVALID_VALUE},
      {"NULL src", device_dst(), nullptr, 16, AG_ERROR_INVALID_VALUE},
      {"zero bytes", device_dst(), host_src_.data(), 0, AG_ERROR_INVALID_VALUE},
      {"a device dst one byte too long", device_dst(), host_src_.data(), kBytes + 1,
       AG_ERROR_INVALID_ADDRESS},
      {"a device src one byte too long", host_dst_.data(), device_src(), kBytes + 1,
       AG_ERROR_INVALID_ADDRESS},
      {"device memory running past its end", at(device_dst(), kBytes / 2), device_src(), kBytes,
       AG_ERROR_INVALID_ADDRESS},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.what);
    EXPECT_TRUE(
        fails_with(b.expected, "agMemcpy", [&] { return agMemcpy(b.dst, b.src, b.bytes); }));
    EXPECT_TRUE(fails_with(b.expected, "agMemcpyAsync",
                           [&] { return agMemcpyAsync(b.dst, b.src, b.bytes, stream); }));
    expect_nothing_changed();
  }
  expect_invalid_handles<ag_stream>("agMemcpyAsync", [&](ag_stream s) {
    return agMemcpyAsync(device_dst(), host_src_.data(), kBytes, s);
  });
  expect_nothing_changed();
}

TEST_F(MemoryErrorTest, StreamGetDeviceRejectsBadHandlesAndNullOutput) {
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agStreamGetDevice",
                         [&] { return agStreamGetDevice(stream, nullptr); }));
  expect_invalid_handles<ag_stream>("agStreamGetDevice", [&](ag_stream s) {
    return with_untouched_output<ag_device>(
        [&](ag_device* out) { return agStreamGetDevice(s, out); });
  });
}

TEST_F(MemoryErrorTest, AllocationRejectsBadSizesAndNullOutput) {
  for (const Allocator& a : kAllocators) {
    EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, a.alloc_name,
                           [&] { return a.alloc(device, 64, nullptr); }));
    const std::pair<size_t, ag_result> sizes[] = {
        {0, AG_ERROR_INVALID_VALUE},
        {SIZE_MAX / 2, AG_ERROR_OUT_OF_MEMORY},
        {SIZE_MAX, AG_ERROR_OUT_OF_MEMORY},
        {static_cast<size_t>(properties.total_memory) + 1, AG_ERROR_OUT_OF_MEMORY}};
    for (const auto& size : sizes) {
      SCOPED_TRACE(std::string(a.alloc_name) + " of " + std::to_string(size.first) + " bytes");
      Sentinel<void*> pointer;
      EXPECT_TRUE(fails_with(size.second, a.alloc_name,
                             [&] { return a.alloc(device, size.first, pointer.get()); }));
      EXPECT_TRUE(pointer.intact());
    }
    void* pointer = nullptr;
    ASSERT_AG(a.alloc(device, 64, &pointer));
    EXPECT_AG(a.release(device, pointer));
  }
}

TEST_F(MemoryErrorTest, FreeRejectsPointersThatAreNotAllocationsOfItsKind) {
  for (size_t k = 0; k < 2; ++k) {
    const Allocator& a = kAllocators[k];
    const Allocator& other = kAllocators[1 - k];
    void *mine = nullptr, *theirs = nullptr;
    ASSERT_AG(a.alloc(device, kBytes, &mine));
    ASSERT_AG(other.alloc(device, kBytes, &theirs));
    ASSERT_AG(agMemcpyHtoD(device, mine, host_src_.data(), kBytes));
    void* gone = nullptr;  // freed after the others were made, so not reused by them
    ASSERT_AG(a.alloc(device, kBytes, &gone));
    ASSERT_AG(a.release(device, gone));
    int on_stack = 0;
    const std::pair<const char*, void*> bad[] = {
        {"one byte into an allocation", at(mine, 1)},
        {"the middle of an allocation", at(mine, kBytes / 2)},
        {"the end of an allocation", at(mine, kBytes)},
        {"an allocation of the other kind", theirs},
        {"a stack address", &on_stack},
        {"a made-up address", made_up<void*>(0x1234)},
        {"an allocation already freed", gone}};
    for (const auto& pointer : bad) {
      SCOPED_TRACE(std::string(a.free_name) + " of " + pointer.first);
      EXPECT_TRUE(fails_with(AG_ERROR_INVALID_ADDRESS, a.free_name,
                             [&] { return a.release(device, pointer.second); }));
    }
    EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, a.free_name,
                           [&] { return a.release(device, nullptr); }));
    // Both allocations survived: contents intact, each freed once by its own free.
    Bytes back(kBytes);
    ASSERT_AG(agMemcpyDtoH(device, back.data(), mine, kBytes));
    EXPECT_EQ(host_src_, back);
    EXPECT_AG(a.release(device, mine));
    EXPECT_AG(other.release(device, theirs));
    SCOPED_TRACE(std::string(a.free_name) + " twice");
    EXPECT_TRUE(
        fails_with(AG_ERROR_INVALID_ADDRESS, a.free_name, [&] { return a.release(device, mine); }));
  }
}

TEST_F(MemoryErrorTest, AllocationCallsRejectBadDeviceHandles) {
  for (const Allocator& a : kAllocators) {
    void* pointer = nullptr;
    ASSERT_AG(a.alloc(device, kBytes, &pointer));
    expect_invalid_handles<ag_device>(a.alloc_name, [&](ag_device bad) {
      return with_untouched_output<void*>([&](void** out) { return a.alloc(bad, 64, out); });
    });
    expect_invalid_handles<ag_device>(a.free_name,
                                      [&](ag_device bad) { return a.release(bad, pointer); });
    EXPECT_AG(a.release(device, pointer));  // still an allocation
  }
}

TEST_F(MemoryErrorTest, GetInfoRejectsBadInput) {
  expect_invalid_handles<ag_device>("agMemGetInfo", [](ag_device bad) {
    Sentinel<size_t> free_bytes, total_bytes;
    const ag_result result = agMemGetInfo(bad, free_bytes.get(), total_bytes.get());
    EXPECT_TRUE(free_bytes.intact());
    EXPECT_TRUE(total_bytes.intact());
    return result;
  });
  Sentinel<size_t> free_bytes, total_bytes;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemGetInfo(device, nullptr, total_bytes.get()));
  EXPECT_TRUE(total_bytes.intact());
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemGetInfo(device, free_bytes.get(), nullptr));
  EXPECT_TRUE(free_bytes.intact());
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemGetInfo(device, nullptr, nullptr));
  size_t free_value = 0, total_value = 0;
  EXPECT_AG(agMemGetInfo(device, &free_value, &total_value));
  EXPECT_GT(total_value, 0u);
}

}  // namespace

namespace {

TEST_F(MemoryErrorTest, PitchedAllocationRejectsBadInput) {
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemAllocPitch", [&] {
    return with_untouched_output<size_t>(
        [&](size_t* pitch) { return agMemAllocPitch(device, 64, 2, nullptr, pitch); });
  }));
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemAllocPitch", [&] {
    return with_untouched_output<void*>(
        [&](void** p) { return agMemAllocPitch(device, 64, 2, p, nullptr); });
  }));
  const struct {
    size_t width, height;
    ag_result expected;
  } sizes[] = {{0, 4, AG_ERROR_INVALID_VALUE},
               {64, 0, AG_ERROR_INVALID_VALUE},
               {SIZE_MAX, 1, AG_ERROR_INVALID_VALUE},
               {SIZE_MAX / 2, 3, AG_ERROR_INVALID_VALUE},
               {1024, SIZE_MAX / 2048, AG_ERROR_OUT_OF_MEMORY}};
  for (const auto& s : sizes) {
    SCOPED_TRACE(std::to_string(s.width) + " x " + std::to_string(s.height));
    Sentinel<void*> pointer;
    Sentinel<size_t> pitch;
    EXPECT_TRUE(fails_with(s.expected, "agMemAllocPitch", [&] {
      return agMemAllocPitch(device, s.width, s.height, pointer.get(), pitch.get());
    }));
    EXPECT_TRUE(pointer.intact());
    EXPECT_TRUE(pitch.intact());
  }
  expect_invalid_handles<ag_device>("agMemAllocPitch", [&](ag_device bad) {
    return with_untouched_output<void*>([&](void** p) {
      size_t pitch = 0;
      return agMemAllocPitch(bad, 64, 2, p, &pitch);
    });
  });
}

TEST_F(MemoryErrorTest, PitchedCopiesRejectBadInput) {
  // Rows of 16 bytes in a 32-byte pitch: the buffer holds kBytes / 32 rows.
  const size_t rows = kBytes / 32;
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_ADDRESS, "agMemcpy2D", [&] {
    return agMemcpy2D(device_dst(), 32, host_src_.data(), 32, 16, rows + 1);
  }));
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_ADDRESS, "agMemcpy2DAsync", [&] {
    return agMemcpy2DAsync(host_dst_.data(), 32, device_src(), 32, 16, rows + 1, stream);
  }));
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemcpy2D",
                         [&] { return agMemcpy2D(device_dst(), 8, host_src_.data(), 32, 16, 2); }));
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemcpy2D", [&] {
    return agMemcpy2D(device_dst(), 32, host_src_.data(), SIZE_MAX, 16, 3);
  }));
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemcpy2DAsync", [&] {
    return agMemcpy2DAsync(device_dst(), 32, nullptr, 32, 16, 2, stream);
  }));
  expect_invalid_handles<ag_stream>("agMemcpy2DAsync", [&](ag_stream s) {
    return agMemcpy2DAsync(device_dst(), 32, host_src_.data(), 32, 16, 2, s);
  });

  ag_memcpy_3d c{};
  c.struct_size = sizeof c;
  c.src = {host_src_.data(), 32, 4};
  c.dst = {device_dst(), 32, 4};
  c.width_bytes = 16;
  c.height = 4;
  c.depth = rows / 4 + 1;  // one slice more than the buffer holds
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_ADDRESS, "agMemcpy3D", [&] { return agMemcpy3D(&c); }));
  c.depth = 2;
  c.dst_z = SIZE_MAX;
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemcpy3D", [&] { return agMemcpy3D(&c); }));
  c.dst_z = 0;
  c.src_x_bytes = 20;  // 20 + 16 bytes do not fit the 32-byte pitch
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemcpy3DAsync",
                         [&] { return agMemcpy3DAsync(&c, stream); }));
  c.src_x_bytes = 0;
  for (size_t size : {size_t{0}, sizeof c - 1}) {
    c.struct_size = size;
    EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemcpy3D", [&] { return agMemcpy3D(&c); }));
  }
  c.struct_size = sizeof c;
  EXPECT_TRUE(fails_with(AG_ERROR_INVALID_VALUE, "agMemcpy3D", [] { return agMemcpy3D(nullptr); }));
  expect_invalid_handles<ag_stream>("agMemcpy3DAsync",
                                    [&](ag_stream s) { return agMemcpy3DAsync(&c, s); });
  expect_nothing_changed();
}

}  // namespace

namespace {

// Managed memory: allocation's arguments in order (device, output, size, flags), and the hints'
// (stream, pointer, size, range, device, advice); nothing is written or changed by a refusal.
TEST_F(MemoryErrorTest, ManagedMemoryCallsRejectBadInput) {
  expect_invalid_handles<ag_device>("agMemAllocManaged", [&](ag_device bad) {
    return with_untouched_output<void*>(
        [&](void** out) { return agMemAllocManaged(bad, 64, AG_MEM_ATTACH_GLOBAL, out); });
  });
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agMemAllocManaged(device, 64, AG_MEM_ATTACH_GLOBAL, nullptr));
  for (unsigned flags : {0u, 2u, 3u, 0x80000000u}) {
    SCOPED_TRACE(flags);
    Sentinel<void*> out;
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemAllocManaged(device, 64, flags, out.get()));
    EXPECT_TRUE(out.intact());
  }
  Sentinel<void*> none;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agMemAllocManaged(device, 0, AG_MEM_ATTACH_GLOBAL, none.get()));
  EXPECT_TRUE(none.intact());

  void* managed = nullptr;
  ASSERT_AG(agMemAllocManaged(device, kBytes, AG_MEM_ATTACH_GLOBAL, &managed));
  void* plain = nullptr;
  ASSERT_AG(agMemAlloc(device, kBytes, &plain));
  expect_invalid_handles<ag_stream>("agMemPrefetchAsync", [&](ag_stream bad) {
    return agMemPrefetchAsync(managed, kBytes, device, bad);
  });
  expect_invalid_handles<ag_device>(
      "agMemPrefetchAsync",
      [&](ag_device bad) { return agMemPrefetchAsync(managed, kBytes, bad, stream); },
      /*null_is_valid=*/true);  // NULL: the host
  expect_invalid_handles<ag_device>(
      "agMemAdvise",
      [&](ag_device bad) {
        return agMemAdvise(managed, kBytes, AG_MEM_ADVISE_SET_READ_MOSTLY, bad);
      },
      /*null_is_valid=*/true);
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemPrefetchAsync(nullptr, kBytes, device, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemPrefetchAsync(managed, 0, device, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
               agMemAdvise(nullptr, kBytes, AG_MEM_ADVISE_SET_READ_MOSTLY, device));
  int on_stack = 0;
  for (const void* outside : {static_cast<const void*>(plain), static_cast<const void*>(&on_stack),
                              static_cast<const void*>(at(managed, kBytes))}) {
    EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS, agMemPrefetchAsync(outside, 1, device, stream));
    EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS,
                 agMemAdvise(outside, 1, AG_MEM_ADVISE_SET_READ_MOSTLY, nullptr));
  }
  EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS, agMemPrefetchAsync(managed, SIZE_MAX, device, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS,
               agMemPrefetchAsync(at(managed, 1), kBytes, nullptr, stream));
  for (int advice : {0, 7, -1, 0x7fffffff}) {
    SCOPED_TRACE(advice);
    EXPECT_FAILS(AG_ERROR_INVALID_VALUE,
                 agMemAdvise(managed, kBytes, static_cast<ag_mem_advice>(advice), device));
  }
  // Still managed memory, and freed by agMemFree only.
  EXPECT_AG(agMemPrefetchAsync(managed, kBytes, device, stream));
  EXPECT_AG(agMemAdvise(managed, kBytes, AG_MEM_ADVISE_SET_PREFERRED_LOCATION, device));
  EXPECT_AG(agStreamSynchronize(stream));
  EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS, agMemFreeHost(device, managed));
  EXPECT_AG(agMemFree(device, plain));
  EXPECT_AG(agMemFree(device, managed));
  EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS, agMemFree(device, managed));
}

}  // namespace

namespace {

// Stream-ordered allocation and pools: bad streams and pools, NULL outputs, zero sizes, pointers
// that are not live stream-ordered allocations, a small props struct; refused calls hand out and
// change nothing.
TEST_F(MemoryErrorTest, StreamOrderedCallsRejectBadInput) {
  ag_mem_pool pool = nullptr;
  ASSERT_AG(agMemPoolCreate(device, nullptr, &pool));
  expect_invalid_handles<ag_stream>("agMemAllocAsync", [&](ag_stream bad) {
    return with_untouched_output<void*>([&](void** out) { return agMemAllocAsync(out, 64, bad); });
  });
  expect_invalid_handles<ag_stream>("agMemAllocFromPoolAsync", [&](ag_stream bad) {
    return with_untouched_output<void*>(
        [&](void** out) { return agMemAllocFromPoolAsync(out, 64, pool, bad); });
  });
  expect_invalid_handles<ag_device>("agMemPoolCreate", [&](ag_device bad) {
    return with_untouched_output<ag_mem_pool>(
        [&](ag_mem_pool* out) { return agMemPoolCreate(bad, nullptr, out); });
  });
  expect_invalid_handles<ag_device>("agDeviceGetDefaultMemPool", [&](ag_device bad) {
    return with_untouched_output<ag_mem_pool>(
        [&](ag_mem_pool* out) { return agDeviceGetDefaultMemPool(bad, out); });
  });
  void* memory = nullptr;
  ag_mem_pool dead = nullptr;
  ASSERT_AG(agMemPoolCreate(device, nullptr, &dead));
  ASSERT_AG(agMemPoolDestroy(dead));
  const ag_mem_pool bad_pools[] = {nullptr, made_up<ag_mem_pool>(0x1234), dead,
                                   reinterpret_cast<ag_mem_pool>(stream)};
  for (ag_mem_pool bad : bad_pools) {
    SCOPED_TRACE(reinterpret_cast<uintptr_t>(bad));
    Sentinel<void*> out;
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agMemAllocFromPoolAsync(out.get(), 64, bad, stream));
    EXPECT_TRUE(out.intact());
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agMemPoolDestroy(bad));
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agMemPoolTrimTo(bad, 0));
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agMemPoolSetReleaseThreshold(bad, 0));
    EXPECT_FAILS(AG_ERROR_INVALID_HANDLE, agMemPoolGetUsage(bad, nullptr, nullptr));
  }
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemAllocAsync(nullptr, 64, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemAllocFromPoolAsync(nullptr, 64, pool, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemPoolCreate(device, nullptr, nullptr));
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agDeviceGetDefaultMemPool(device, nullptr));
  for (size_t bytes : {size_t{0}, SIZE_MAX}) {
    Sentinel<void*> out;
    EXPECT_FAILS(bytes ? AG_ERROR_OUT_OF_MEMORY : AG_ERROR_INVALID_VALUE,
                 agMemAllocAsync(out.get(), bytes, stream));
    EXPECT_TRUE(out.intact());
  }
  ag_mem_pool_props small{};
  small.struct_size = sizeof small - 1;
  Sentinel<ag_mem_pool> not_made;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemPoolCreate(device, &small, not_made.get()));
  EXPECT_TRUE(not_made.intact());

  // agMemFreeAsync takes live stream-ordered allocations only.
  void* plain = nullptr;
  ASSERT_AG(agMemAlloc(device, kBytes, &plain));
  ASSERT_AG(agMemAllocAsync(&memory, kBytes, stream));
  int on_stack = 0;
  EXPECT_FAILS(AG_ERROR_INVALID_VALUE, agMemFreeAsync(nullptr, stream));
  for (void* bad : {plain, static_cast<void*>(&on_stack), static_cast<void*>(at(memory, 1))}) {
    EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS, agMemFreeAsync(bad, stream));
  }
  expect_invalid_handles<ag_stream>("agMemFreeAsync",
                                    [&](ag_stream bad) { return agMemFreeAsync(memory, bad); });
  // Still live and usable, then freed once.
  EXPECT_AG(agMemsetD8Async(memory, 1, kBytes, stream));
  EXPECT_AG(agMemFreeAsync(memory, stream));
  EXPECT_FAILS(AG_ERROR_INVALID_ADDRESS, agMemFreeAsync(memory, stream));
  EXPECT_AG(agStreamSynchronize(stream));
  EXPECT_AG(agMemFree(device, plain));
  EXPECT_AG(agMemPoolDestroy(pool));
}

}  // namespace
