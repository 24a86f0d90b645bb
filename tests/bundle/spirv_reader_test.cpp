// SPIR-V from clang-15 and llvm-spirv-15: entry points and their kernels' parameter layout.
#include <gtest/gtest.h>

#include "bundle_test_support.h"
#include "shim/code_object/spirv_reader.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

struct Expected {
  ag_param_kind kind;
  size_t size, alignment;
  bool workgroup_pointer;
};

void expect_params(const SpirvEntryPoint& entry, const std::vector<Expected>& expected) {
  ASSERT_EQ(expected.size(), entry.params.size()) << entry.name;
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(entry.name + " parameter " + std::to_string(i));
    EXPECT_EQ(expected[i].kind, entry.params[i].kind);
    EXPECT_EQ(expected[i].size, entry.params[i].size);
    EXPECT_EQ(expected[i].alignment, entry.params[i].alignment);
    EXPECT_EQ(expected[i].workgroup_pointer, entry.params[i].workgroup_pointer);
  }
}

TEST(SpirvReader, KernelsAndTheirParameters) {
  const SpirvInfo info = read_ok(read_spirv, data_file("kernels.spv"));
  ASSERT_EQ(2u, info.entry_points.size());
  EXPECT_EQ(1u, info.version_major);
  const SpirvEntryPoint& scale = info.entry_points[0];
  EXPECT_EQ("scale", scale.name);
  EXPECT_EQ(kSpirvExecutionModelKernel, scale.execution_model);
  expect_params(scale, {{AG_PARAM_POINTER, 8, 8, false},
                        {AG_PARAM_FLOAT, 4, 4, false},
                        {AG_PARAM_INTEGER, 4, 4, false}});
  // mixed(global int*, char, short, long, double, struct Pair, float4, uchar, struct Nested,
  //       local float*, float3): Pair {char; int; double} is 16 bytes; Nested {Pair; short[3]}
  //       is 24; a 3-element vector takes the room of 4.
  expect_params(info.entry_points[1], {{AG_PARAM_POINTER, 8, 8, false},
                                       {AG_PARAM_INTEGER, 1, 1, false},
                                       {AG_PARAM_INTEGER, 2, 2, false},
                                       {AG_PARAM_INTEGER, 8, 8, false},
                                       {AG_PARAM_FLOAT, 8, 8, false},
                                       {AG_PARAM_STRUCT, 16, 8, false},
                                       {AG_PARAM_STRUCT, 16, 16, false},
                                       {AG_PARAM_INTEGER, 1, 1, false},
                                       {AG_PARAM_STRUCT, 24, 8, false},
                                       {AG_PARAM_POINTER, 8, 8, true},
                                       {AG_PARAM_STRUCT, 16, 16, false}});
}

TEST(SpirvReader, ReadsAByteSwappedModule) {
  Bytes swapped = data_file("kernels.spv");
  for (size_t i = 0; i + 4 <= swapped.size(); i += 4) {
    std::swap(swapped[i], swapped[i + 3]);
    std::swap(swapped[i + 1], swapped[i + 2]);
  }
  const SpirvInfo info = read_ok(read_spirv, swapped);
  ASSERT_EQ(2u, info.entry_points.size());
  EXPECT_EQ("mixed", info.entry_points[1].name);
  EXPECT_EQ(11u, info.entry_points[1].params.size());
}

}  // namespace
