// The test kernels' SPIR-V as anygpu_add_kernels builds it: the kernels with warp functions require
// 32-lane sub-groups (OpExecutionMode SubgroupSize 32, read by the SPIR-V reader), the others none.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "shim/code_object/spirv_reader.h"

namespace {

TEST(SpirvWarpLanes, KernelsWithWarpFunctionsRequire32LaneSubgroups) {
  std::ifstream file(ANYGPU_TEST_SPIRV, std::ios::binary);
  if (!file) GTEST_SKIP() << ANYGPU_TEST_SPIRV << " was not built (no SPIR-V tools)";
  const std::vector<unsigned char> image((std::istreambuf_iterator<char>(file)),
                                         std::istreambuf_iterator<char>());
  anygpu::SpirvInfo info;
  std::string error;
  ASSERT_TRUE(anygpu::read_spirv(anygpu::ByteReader(image.data(), image.size()), &info, &error))
      << error;
  int warp = 0, plain = 0;
  for (const anygpu::SpirvEntryPoint& entry : info.entry_points) {
    const bool uses_warp = entry.name.find("warp_vote") != std::string::npos ||
                           entry.name.find("reduceWarpShuffle") != std::string::npos ||
                           entry.name.find("cg_reduce") != std::string::npos;
    const bool no_warp = entry.name == "saxpy" || entry.name == "_Z5saxpyifPKfPf";
    if (uses_warp) {
      EXPECT_EQ(32u, entry.required_subgroup_size) << entry.name;
      ++warp;
    }
    if (no_warp) {
      EXPECT_EQ(0u, entry.required_subgroup_size) << entry.name;
      ++plain;
    }
  }
  EXPECT_GE(warp, 5);
  EXPECT_EQ(2, plain);
  // The light reader the Level Zero backend checks images with finds the same requirements.
  std::vector<std::pair<std::string, uint32_t>> sizes;
  ASSERT_TRUE(anygpu::read_spirv_subgroup_sizes(anygpu::ByteReader(image.data(), image.size()),
                                                &sizes, &error))
      << error;
  size_t required = 0;
  for (const anygpu::SpirvEntryPoint& entry : info.entry_points)
    required += entry.required_subgroup_size != 0;
  EXPECT_EQ(required, sizes.size());
  for (const auto& [name, lanes] : sizes) EXPECT_EQ(32u, lanes) << name;
}

}  // namespace
