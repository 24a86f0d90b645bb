// The module variables a code object offers the host (shim/code_object/code_object_globals.h), read
// from this build's code objects of kernels/module_globals.cpp, and from PTX text.
#include "shim/code_object/code_object_globals.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "shim/code_object/ptx_reader.h"

using anygpu::ByteReader;
using anygpu::code_object_globals;
using anygpu::detect_code_object;

namespace {

// kernels/module_globals.cpp's variables, by their symbol names.
const std::vector<std::string> kVariables = {"globals_coefficients", "globals_offset",
                                             "globals_counter", "_ZN10globals_ns5scaleE"};

std::vector<unsigned char> read_file(const char* path) {
  std::ifstream file(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(file),
                                    std::istreambuf_iterator<char>());
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Every variable, no kernel, and no name twice.
void expect_module_globals(const char* path) {
  const std::vector<unsigned char> bytes = read_file(path);
  if (bytes.empty()) GTEST_SKIP() << path << " was not built (its compiler is missing)";
  std::vector<std::string> globals;
  std::string error;
  ASSERT_TRUE(code_object_globals(detect_code_object(bytes.data(), bytes.size()), &globals, &error))
      << error;
  for (const std::string& name : kVariables) EXPECT_TRUE(contains(globals, name)) << name;
  for (const char* kernel : {"globals_polynomial", "globals_polynomial.kd", "saxpy"})
    EXPECT_FALSE(contains(globals, kernel)) << kernel;
  std::vector<std::string> sorted = globals;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted.end(), std::adjacent_find(sorted.begin(), sorted.end()));
}

TEST(CodeObjectGlobals, Ptx) {
  expect_module_globals(ANYGPU_TEST_PTX_SM90);
}

TEST(CodeObjectGlobals, AmdCodeObject) {
  expect_module_globals(ANYGPU_TEST_AMDGPU_GFX90A);
}

TEST(CodeObjectGlobals, SpirvExportsProgramScopeVariables) {
  expect_module_globals(ANYGPU_TEST_SPIRV);
}

TEST(CodeObjectGlobals, HostCodeObjectExportsItsVariables) {
  expect_module_globals(ANYGPU_TEST_KERNELS_PATH);
}

// Only module-scope .visible .global and .const declarations: not imports, not instructions that
// name the state space, not kernels.
TEST(PtxReader, VisibleGlobalAndConstVariables) {
  const std::string text =
      ".version 7.8\n.target sm_90\n.address_size 64\n"
      ".visible .const .align 4 .b8 table[16];\n"
      ".visible .global .align 8 .u64 counter = 0;\n"
      ".visible .global .f32 _ZN2ns5scaleE;\n"
      ".extern .global .align 4 .u32 imported;\n"
      ".global .align 4 .u32 internal_only;\n"
      ".visible .entry kernel(.param .u64 p)\n{\n  ld.global.f32 %f1, [counter];\n"
      "  st.global.f32 [table], %f1;\n  ret;\n}\n"
      ".visible .func helper()\n{ ret; }\n";
  anygpu::PtxInfo info;
  std::string error;
  ASSERT_TRUE(anygpu::read_ptx(ByteReader(text.data(), text.size()), &info, &error)) << error;
  EXPECT_EQ((std::vector<std::string>{"table", "counter", "_ZN2ns5scaleE"}), info.globals);
  EXPECT_EQ((std::vector<std::string>{"kernel"}), info.entries);
}

}  // namespace
