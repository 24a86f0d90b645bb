// NVIDIA fatbins made by nvcc, and PTX text made by clang.
#include <gtest/gtest.h>

#include "bundle_test_support.h"
#include "shim/code_object/fatbin_reader.h"
#include "shim/code_object/ptx_reader.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

TEST(FatbinReader, EntriesOfAnUncompressedFatbin) {
  const Bytes image = data_file("kernels_sm80_compute90.fatbin");
  const std::vector<FatbinEntry> entries = read_ok(read_fatbin, image);
  ASSERT_EQ(2u, entries.size());
  EXPECT_EQ(FatbinEntryKind::elf, entries[0].kind);
  EXPECT_EQ(80u, entries[0].sm);
  EXPECT_EQ(nullptr, entries[0].compression);
  EXPECT_TRUE(holds(CodeObject{CodeObjectFormat::cuda_cubin, entries[0].data, entries[0].size},
                    data_file("kernels_sm80.cubin")));
  EXPECT_EQ(FatbinEntryKind::ptx, entries[1].kind);
  EXPECT_EQ(90u, entries[1].sm);
  EXPECT_EQ(9u, entries[1].ptx_major);
  EXPECT_EQ(0u, entries[1].ptx_minor);
  const PtxInfo ptx = read_ok(read_ptx, Bytes(entries[1].data, entries[1].data + entries[1].size));
  EXPECT_EQ(90u, ptx.target.sm);
}

TEST(FatbinReader, SaysWhichEntriesAreCompressed) {
  const Bytes compressed = data_file("kernels_compressed.fatbin");
  const std::vector<FatbinEntry> entries = read_ok(read_fatbin, compressed);
  ASSERT_EQ(2u, entries.size());
  for (const FatbinEntry& entry : entries) {
    ASSERT_NE(nullptr, entry.compression);
    EXPECT_STREQ("zstd", entry.compression);
    EXPECT_LT(entry.size, entry.uncompressed_size);
  }
}

TEST(FatbinReader, ReadsConcatenatedContainers) {
  Bytes two = data_file("kernels_sm80_compute90.fatbin");
  const Bytes second = data_file("kernels_compressed.fatbin");
  two.insert(two.end(), second.begin(), second.end());
  EXPECT_EQ(4u, read_ok(read_fatbin, two).size());
}

TEST(PtxReader, ClangPtx) {
  const Bytes file = data_file("kernels_sm80.ptx");
  const PtxInfo info = read_ok(read_ptx, file);
  EXPECT_EQ(8u, info.version_major);
  EXPECT_EQ(5u, info.version_minor);
  EXPECT_EQ(80u, info.target.sm);
  EXPECT_EQ((std::vector<std::string>{"scale", "fill"}), info.entries);
}

TEST(PtxReader, CommentsStringsAndTheEndOfText) {
  const PtxInfo info = read_ok(
      read_ptx,
      text_bytes("// .version 1.0 in a comment\n/* .entry hidden( */ .version 7.8\n"
                 ".target sm_90a, debug\n.file 1 \".entry fake(\"\n"
                 ".visible .entry first(.param .u64 p)\n{ ret; }\n.entry second() { ret; }\n"
                 "// .entry after_a_comment(\n"
                 "\n.entry $odd_name_1(\n" +
                 std::string(1, '\0') + ".entry after_nul("));
  EXPECT_EQ(7u, info.version_major);
  EXPECT_EQ(8u, info.version_minor);
  EXPECT_EQ(90u, info.target.sm);
  EXPECT_EQ('a', info.target.suffix);
  EXPECT_EQ((std::vector<std::string>{"first", "second", "$odd_name_1"}), info.entries);
}

TEST(PtxReader, RefusesPtxWithoutVersionOrTarget) {
  for (const char* bad :
       {".target sm_80\n", ".version 7.0\n", ".version seven\n.target sm_80",
        ".version 7.0\n.target compute\n", ".version 7.0 .target sm_80 .entry", ""}) {
    PtxInfo info;
    std::string error;
    EXPECT_FALSE(read_ptx(ByteReader(bad, strlen(bad)), &info, &error)) << bad;
    EXPECT_FALSE(error.empty());
  }
}

}  // namespace
