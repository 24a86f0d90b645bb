// The clang offload-bundle container: anygpu's writer, and reading bundles written by it and by
// hipcc.
#include <gtest/gtest.h>

#include "bundle_test_support.h"
#include "shim/code_object/offload_bundle.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

TEST(OffloadBundle, WhatIsWrittenReadsBack) {
  const Bytes ptx = text_bytes(".version 7.0\n.target sm_70\n"), empty, co = data_file("gfx90a.co");
  const Bytes image = make_bundle({{"hip-nvptx64-nvidia-cuda--compute_70", ptx},
                                   {"host-x86_64-unknown-linux-gnu", empty},
                                   {"hipv4-amdgcn-amd-amdhsa--gfx90a", co}});
  const OffloadBundle bundle = read_ok(read_offload_bundle, image);
  ASSERT_EQ(3u, bundle.entries.size());
  EXPECT_EQ("hip-nvptx64-nvidia-cuda--compute_70", bundle.entries[0].id);
  EXPECT_EQ("host-x86_64-unknown-linux-gnu", bundle.entries[1].id);
  EXPECT_EQ("hipv4-amdgcn-amd-amdhsa--gfx90a", bundle.entries[2].id);
  const Bytes* contents[] = {&ptx, &empty, &co};
  for (size_t i = 0; i < 3; ++i) {
    const BundleEntry& entry = bundle.entries[i];
    EXPECT_TRUE(holds(CodeObject{CodeObjectFormat::unknown, entry.data, entry.size}, *contents[i]))
        << entry.id;
    if (entry.size) {
      EXPECT_EQ(0u, (entry.data - image.data()) % kOffloadBundleAlignment) << entry.id;
    }
  }
  EXPECT_EQ(image.size(), bundle.extent);
  EXPECT_EQ(&bundle.entries[2], find_bundle_entry(bundle, "hipv4-amdgcn-amd-amdhsa--gfx90a"));
  EXPECT_EQ(nullptr, find_bundle_entry(bundle, "hipv4-amdgcn-amd-amdhsa--gfx942"));
}

TEST(OffloadBundle, ReadsTheBundleHipccWrites) {
  const Bytes image = data_file("hipcc_gfx90a.bundle");
  const OffloadBundle bundle = read_ok(read_offload_bundle, image);
  ASSERT_EQ(2u, bundle.entries.size());
  EXPECT_EQ("host-x86_64-unknown-linux", bundle.entries[0].id);
  EXPECT_EQ(0u, bundle.entries[0].size);
  EXPECT_EQ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", bundle.entries[1].id);
  EXPECT_EQ(CodeObjectFormat::amdgpu_code_object,
            detect_code_object(bundle.entries[1].data, bundle.entries[1].size).format);
}

TEST(OffloadBundle, AnEmptyBundleHasNoEntries) {
  const OffloadBundle bundle = read_ok(read_offload_bundle, make_bundle({}));
  EXPECT_TRUE(bundle.entries.empty());
}

TEST(OffloadBundle, WriterRefusesBadIds) {
  const Bytes bytes = text_bytes("x");
  const std::vector<std::vector<std::string>> id_sets = {{""},
                                                         {"has space"},
                                                         {"tab\tid"},
                                                         {"non-ascii-\xc3\xa9"},
                                                         {"same", "same"},
                                                         {std::string(2000, 'a')}};
  for (const auto& ids : id_sets) {
    std::vector<BundleEntry> entries;
    for (const std::string& id : ids)
      entries.push_back(BundleEntry{id, bytes.data(), bytes.size()});
    Bytes out = {1, 2, 3};
    std::string error;
    EXPECT_FALSE(write_offload_bundle(entries, &out, &error)) << ids[0];
    EXPECT_FALSE(error.empty());
    EXPECT_EQ((Bytes{1, 2, 3}), out) << "a refused write leaves the output alone";
  }
}

}  // namespace
