// Selection for described NVIDIA devices: cubins by SM major and minor, else the newest PTX the
// device and its driver take.
#include <gtest/gtest.h>

#include "bundle_test_support.h"
#include "shim/code_object/ptx_reader.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

Bytes ptx(unsigned major, unsigned minor, const std::string& target) {
  return text_bytes(".version " + std::to_string(major) + "." + std::to_string(minor) +
                    "\n.target " + target + "\n.address_size 64\n.visible .entry k()\n{ ret; }\n");
}

// A cubin for another SM: the sm_80 cubin with its e_flags' SM (bits 8-15, ELF ABI 8) replaced.
Bytes cubin(unsigned sm) {
  return with_elf_flags(data_file("kernels_sm80.cubin"), 0x6000004 | sm << 8);
}

const std::string kPtxId = "hip-nvptx64-nvidia-cuda--compute_";
const std::string kCubinId = "hip-nvptx64-nvidia-cuda--sm_";

class SelectNvidia : public ::testing::Test {
 protected:
  // cubins for sm_80 and sm_90, PTX for sm_70 (ISA 7.0) and sm_80 (ISA 8.5).
  const Bytes cubin80 = data_file("kernels_sm80.cubin"), cubin90 = data_file("kernels_sm90.cubin");
  const Bytes ptx70 = ptx(7, 0, "sm_70"), ptx80 = data_file("kernels_sm80.ptx");
  const Bytes all = make_bundle({{kPtxId + "70", ptx70},
                                 {kPtxId + "80", ptx80},
                                 {kCubinId + "80", cubin80},
                                 {kCubinId + "90", cubin90}});

  void expect_selects(const std::string& arch, const Bytes& image, const Bytes& expected,
                      unsigned max_ptx = 0) {
    expect_selected(device(AG_BACKEND_CUDA, arch, max_ptx), image, expected);
  }
};

TEST_F(SelectNvidia, CubinOfTheSameMajorAndALowerOrEqualMinor) {
  expect_selects("sm_80", all, cubin80);
  expect_selects("sm_86", all, cubin80);
  expect_selects("sm_89", all, cubin80);
  expect_selects("sm_90", all, cubin90);
  const Selected s = select(device(AG_BACKEND_CUDA, "sm_86"), all);
  EXPECT_EQ(CodeObjectFormat::cuda_cubin, s.code.format);
}

TEST_F(SelectNvidia, TheHighestMinorAmongFittingCubins) {
  const Bytes cubin86 = cubin(86), cubin87 = cubin(87);
  const Bytes image = make_bundle(
      {{kCubinId + "80", cubin80}, {kCubinId + "86", cubin86}, {kCubinId + "87", cubin87}});
  expect_selects("sm_86", image, cubin86);
  expect_selects("sm_89", image, cubin87);
  expect_selects("sm_80", image, cubin80);
}

TEST_F(SelectNvidia, ElsePtxWithTheHighestTargetTheDeviceTakes) {
  expect_selects("sm_70", all, ptx70);
  expect_selects("sm_75", all, ptx70);
  expect_selects("sm_100", all, ptx80);
  expect_selects("sm_120", all, ptx80);
  const Bytes cubin86 = cubin(86);
  expect_selects("sm_80", make_bundle({{kCubinId + "86", cubin86}, {kPtxId + "80", ptx80}}), ptx80);
}

TEST_F(SelectNvidia, PtxWhoseIsaVersionTheDriverTakes) {
  const Bytes ptx90 = ptx(9, 0, "sm_90"), ptx90_old = ptx(7, 8, "sm_90");
  const Bytes image = make_bundle({{kPtxId + "70", ptx70},
                                   {kPtxId + "80", ptx80},
                                   {kPtxId + "90", ptx90},
                                   {kPtxId + "90-isa78", ptx90_old}});
  expect_selects("sm_90", image, ptx90);
  expect_selects("sm_90", image, ptx90, ptx_version_number(9, 0));
  expect_selects("sm_90", image, ptx90_old, ptx_version_number(8, 8));
  expect_selects("sm_90", image, ptx70, ptx_version_number(7, 0));
  const Bytes no_old_isa =
      make_bundle({{kPtxId + "70", ptx70}, {kPtxId + "80", ptx80}, {kPtxId + "90", ptx90}});
  expect_selects("sm_90", no_old_isa, ptx80, ptx_version_number(8, 8));
  const Selected none = select(device(AG_BACKEND_CUDA, "sm_90", ptx_version_number(6, 5)), image);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, none.result);
  EXPECT_NE(std::string::npos, none.detail.find("ISA version 6.5 or older")) << none.detail;
}

TEST_F(SelectNvidia, NoFitNamesWhatTheImageHoldsAndWhatTheDeviceNeeds) {
  const Bytes image = make_bundle({{kPtxId + "80", ptx80}, {kCubinId + "90", cubin90}});
  const Selected s = select(device(AG_BACKEND_CUDA, "sm_75"), image);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
  for (const char* part : {"the device (sm_75) needs a cubin for sm_70 to sm_75, or PTX for sm_75 "
                           "or older",
                           "holds 2 code objects",
                           "'hip-nvptx64-nvidia-cuda--compute_80' (PTX 8.5 "
                           "for sm_80)",
                           "'hip-nvptx64-nvidia-cuda--sm_90' (cubin for sm_90)"})
    EXPECT_NE(std::string::npos, s.detail.find(part)) << part << "\n in: " << s.detail;
}

TEST_F(SelectNvidia, AFatbinAloneOrInsideABundle) {
  const Bytes fatbin = data_file("kernels_sm80_compute90.fatbin");
  for (const Bytes& image : {fatbin, make_bundle({{kCubinId + "80", fatbin}})}) {
    Selected s = select(device(AG_BACKEND_CUDA, "sm_86"), image);
    ASSERT_EQ(AG_SUCCESS, s.result) << s.detail;
    EXPECT_TRUE(holds(s.code, cubin80));
    s = select(device(AG_BACKEND_CUDA, "sm_90"), image);
    ASSERT_EQ(AG_SUCCESS, s.result) << s.detail;
    EXPECT_EQ(CodeObjectFormat::ptx, s.code.format);
    s = select(device(AG_BACKEND_CUDA, "sm_75"), image);
    EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
    EXPECT_NE(std::string::npos, s.detail.find("fatbin entry 1 (PTX 9.0 for sm_90)")) << s.detail;
  }
}

TEST_F(SelectNvidia, ACompressedEntryThatFitsIsNotSupported) {
  const Selected s =
      select(device(AG_BACKEND_CUDA, "sm_80"), data_file("kernels_compressed.fatbin"));
  EXPECT_EQ(AG_ERROR_NOT_SUPPORTED, s.result);
  EXPECT_NE(std::string::npos, s.detail.find("compressed with zstd")) << s.detail;
  EXPECT_NE(std::string::npos, s.detail.find("cannot be loaded")) << s.detail;
}

TEST_F(SelectNvidia, PlainPtxAndCubinImages) {
  expect_selects("sm_86", ptx80, ptx80);
  expect_selects("sm_90", cubin90, cubin90);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE,
            select(device(AG_BACKEND_CUDA, "sm_86"), cubin90).result);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, select(device(AG_BACKEND_CUDA, "sm_75"), ptx80).result);
}

}  // namespace
