// Corrupt bundles: each is a clear error from the reader and from selection, never a crash or an
// allocation the size of a corrupt count (run under ASan to see no read outside and no leak).
#include <gtest/gtest.h>

#include <cstring>

#include "bundle_test_support.h"
#include "shim/code_object/offload_bundle.h"
#include "test_support.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

constexpr size_t kCountAt = 24, kFirstOffsetAt = 32, kFirstSizeAt = 40, kFirstIdLengthAt = 48;

Bytes with_u64(Bytes image, size_t at, uint64_t value) {
  memcpy(image.data() + at, &value, sizeof value);
  return image;
}

// The reader's error, "" when it accepted the image.
std::string read_error(const Bytes& image) {
  OffloadBundle bundle;
  std::string error;
  if (read_offload_bundle(ByteReader(image.data(), image.size()), &bundle, &error)) return "";
  EXPECT_FALSE(error.empty());
  return error;
}

void expect_rejected(const Bytes& image, const std::string& reason) {
  const std::string error = read_error(image);
  EXPECT_NE(std::string::npos, error.find(reason)) << "error: '" << error << "'";
  const Selected s = select(device(AG_BACKEND_CPU, "x86_64-linux-gnu"), image);
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, s.result) << s.detail;
  EXPECT_NE(std::string::npos, s.detail.find("malformed clang offload bundle")) << s.detail;
}

class CorruptBundle : public ::testing::Test {
 protected:
  const Bytes host = host_code_object(), ptx = data_file("kernels_sm80.ptx");
  const Bytes good = make_bundle(
      {{"host-x86_64-unknown-linux-gnu", host}, {"hip-nvptx64-nvidia-cuda--compute_80", ptx}});
};

TEST_F(CorruptBundle, EveryTruncationIsRefused) {
  ASSERT_EQ("", read_error(good));
  for (size_t size = 0; size < good.size(); size += size < 512 ? 1 : 509) {
    const Bytes truncated(good.begin(), good.begin() + size);
    EXPECT_NE("", read_error(truncated)) << size;
    const Selected s = select(device(AG_BACKEND_CPU, "x86_64-linux-gnu"), truncated);
    EXPECT_NE(AG_SUCCESS, s.result) << size;
  }
}

TEST_F(CorruptBundle, OffsetsAndSizesPastTheEnd) {
  expect_rejected(with_u64(good, kFirstOffsetAt, good.size() + 1), "runs past the end");
  expect_rejected(with_u64(good, kFirstSizeAt, good.size()), "runs past the end");
  expect_rejected(with_u64(good, kFirstOffsetAt, UINT64_MAX), "runs past the end");
}

TEST_F(CorruptBundle, SizesThatOverflow) {
  // offset + size wraps around to a small number: it must not pass as inside the image.
  Bytes image = with_u64(good, kFirstOffsetAt, 64);
  expect_rejected(with_u64(image, kFirstSizeAt, UINT64_MAX - 63), "runs past the end");
  expect_rejected(with_u64(good, kFirstIdLengthAt, UINT64_MAX), "id length");
  expect_rejected(with_u64(good, kFirstIdLengthAt, UINT64_MAX - 7), "id length");
}

TEST_F(CorruptBundle, EntryCountsInTheBillions) {
  for (uint64_t count : {uint64_t{3000000000}, uint64_t{1} << 40, UINT64_MAX})
    expect_rejected(with_u64(good, kCountAt, count), "entries, more than its");
  // A count the image could hold reads the padding after the header as a third entry.
  expect_rejected(with_u64(good, kCountAt, 3), "entry 2's id length 0");
}

TEST_F(CorruptBundle, BadIds) {
  Bytes image = good;
  image[56] = '\n';
  expect_rejected(image, "not printable");
  expect_rejected(with_u64(good, kFirstIdLengthAt, 0), "id length 0");
  Bytes same = make_bundle({{"a", ptx}, {"b", ptx}});
  const size_t second_id = kFirstOffsetAt + 3 * 8 + 1 + 3 * 8;  // after entry 0's fields and id
  ASSERT_EQ('b', same[second_id]);
  same[second_id] = 'a';
  expect_rejected(same, "two entries have the id 'a'");
}

TEST_F(CorruptBundle, WrongMagicAndEmptyInput) {
  Bytes image = good;
  image[5] = 'X';
  EXPECT_NE(std::string::npos, read_error(image).find("does not start with"));
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE,
            select(device(AG_BACKEND_CPU, "x86_64-linux-gnu"), image).result);
  EXPECT_NE("", read_error(Bytes()));
  const Selected empty = select(device(AG_BACKEND_CPU, "x86_64-linux-gnu"), Bytes());
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, empty.result);
  EXPECT_NE(std::string::npos, empty.detail.find("no known code-object format")) << empty.detail;
}

TEST_F(CorruptBundle, CompressedBundlesAreNotSupported) {
  const Bytes ccob = text_bytes(std::string("CCOB\x02\x00\x01\x00", 8) + std::string(64, 'z'));
  EXPECT_NE(std::string::npos, read_error(ccob).find("compressed offload bundle"));
  const Selected s = select(device(AG_BACKEND_HIP, "gfx90a"), ccob);
  EXPECT_EQ(AG_ERROR_NOT_SUPPORTED, s.result);
  EXPECT_NE(std::string::npos, s.detail.find("-offload-compress")) << s.detail;
}

TEST_F(CorruptBundle, ACorruptEntryIsListedNotFatal) {
  Bytes broken_elf = host;
  broken_elf.resize(40);  // an ELF magic and nothing else
  const Bytes image = make_bundle({{"host-x86_64-unknown-linux-gnu", broken_elf},
                                   {"hip-nvptx64-nvidia-cuda--compute_80", ptx}});
  expect_selected(device(AG_BACKEND_CUDA, "sm_80"), image, ptx);
}

// Issue 15, defect 1: a host entry whose size field is smaller than the host code object cuts it
// short; loading the bundle on the CPU device is refused, never a crash in the dynamic loader.
TEST_F(CorruptBundle, ASmallerHostEntrySizeIsRefusedWhenLoaded) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the bundle's host entry is named for x86_64";
#endif
  ag_device cpu = anygpu_test::cpu_device();
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  const uint64_t step = 1021;  // each load is many times slower there
#else
  const uint64_t step = 251;
#endif
  for (uint64_t size = 0; size < host.size(); size += size < 2048 ? 61 : step) {
    const Bytes image = with_u64(good, kFirstSizeAt, size);
    ag_module module = nullptr;
    const ag_result result = agModuleLoadData(cpu, image.data(), image.size(), &module);
    const std::string detail = anygpu_test::last_detail();
    ASSERT_NE(AG_SUCCESS, result) << size;
    ASSERT_FALSE(detail.empty()) << size;
    if (size >= 64) {
      EXPECT_EQ(AG_ERROR_INVALID_IMAGE, result) << size << ": " << detail;
      EXPECT_NE(std::string::npos, detail.find("host code object refused before loading"))
          << size << ": " << detail;
    }
  }
}

}  // namespace
