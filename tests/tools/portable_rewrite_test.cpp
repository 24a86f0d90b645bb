// The portable text of a kernel source from clang's -frewrite-includes output
// (shim/kernel_build/portable_rewrite.h): inputs as clang 19 writes them.
#include "shim/kernel_build/portable_rewrite.h"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string portable(const std::string& rewritten, std::string* error = nullptr) {
  std::string text, problem;
  const bool made = anygpu::make_portable_text(rewritten, {"/src/include"}, &text, &problem);
  if (error) *error = problem;
  EXPECT_EQ(made, problem.empty());
  return made ? text : "FAILED: " + problem;
}

// The application's header stays inlined, anygpu's becomes its #include again, #pragma once goes,
// clang's own definitions go, line markers keep only the file name.
TEST(PortableRewriteTest, KeepsTheApplicationsHeadersAndRestoresTheLibrarys) {
  const std::string rewritten =
      "# 1 \"<built-in>\"\n"
      "# 1 \"/app/k.cu\"\n"
      "#if defined(__CLANG_REWRITTEN_INCLUDES) /* user.h expanded by -frewrite-includes */\n"
      "#include \"user.h\"\n"
      "#else /* user.h expanded by -frewrite-includes */\n"
      "# 1 \"/app/k.cu\"\n"
      "# 1 \"/app/inc/user.h\" 1\n"
      "#if 0 /* expanded by -frewrite-includes */\n"
      "#pragma once\n"
      "#endif /* expanded by -frewrite-includes */\n"
      "# 2 \"/app/inc/user.h\"\n"
      "#define SCALE 2\n"
      "#endif /* user.h expanded by -frewrite-includes */\n"
      "# 2 \"/app/k.cu\" 2\n"
      "#if defined(__CLANG_REWRITTEN_INCLUDES) /* kernel.h expanded by -frewrite-includes */\n"
      "#include <anygpu/kernel.h>\n"
      "#else /* kernel.h expanded by -frewrite-includes */\n"
      "# 3 \"/app/k.cu\"\n"
      "# 1 \"/src/include/anygpu/kernel.h\" 1\n"
      "#define AG_KERNEL_INSIDE 1\n"
      "#if defined(__CLANG_REWRITTEN_INCLUDES) || defined(__CLANG_REWRITTEN_SYSTEM_INCLUDES) /* "
      "stddef.h expanded by -frewrite-includes */\n"
      "#include <stddef.h>\n"
      "#else /* stddef.h expanded by -frewrite-includes */\n"
      "# 1 \"/usr/lib/clang/19/include/stddef.h\" 1 3\n"
      "typedef unsigned long size_t;\n"
      "#endif /* stddef.h expanded by -frewrite-includes */\n"
      "#endif /* kernel.h expanded by -frewrite-includes */\n"
      "# 4 \"/app/k.cu\" 2\n"
      "__global__ void k(float* d) { d[0] = SCALE; }\n";
  EXPECT_EQ(
      "#line 1 \"k.cu\"\n"
      "#line 1 \"k.cu\"\n"
      "#line 1 \"user.h\"\n"
      "#line 2 \"user.h\"\n"
      "#define SCALE 2\n"
      "#line 2 \"k.cu\"\n"
      "#include <anygpu/kernel.h>\n"
      "#line 4 \"k.cu\"\n"
      "__global__ void k(float* d) { d[0] = SCALE; }\n",
      portable(rewritten));
}

// A system header clang inlined goes back to its #include.
TEST(PortableRewriteTest, RestoresSystemHeaders) {
  const std::string rewritten =
      "#if defined(__CLANG_REWRITTEN_INCLUDES) || defined(__CLANG_REWRITTEN_SYSTEM_INCLUDES) /* "
      "stdint.h expanded by -frewrite-includes */\n"
      "#include <stdint.h>\n"
      "#else /* stdint.h expanded by -frewrite-includes */\n"
      "# 1 \"/app/k.cu\"\n"
      "# 1 \"/usr/include/stdint.h\" 1 3 4\n"
      "typedef int int32_t;\n"
      "#endif /* stdint.h expanded by -frewrite-includes */\n"
      "int32_t x;\n";
  EXPECT_EQ("#include <stdint.h>\nint32_t x;\n", portable(rewritten));
}

// The conditions clang evaluated for the build's target come back as written, #if and #elif.
TEST(PortableRewriteTest, RestoresTheConditionsClangEvaluated) {
  const std::string rewritten =
      "#if 0 /* disabled by -frewrite-includes */\n"
      "#if __AMDGCN_WAVEFRONT_SIZE__ == 64\n"
      "#endif\n"
      "#endif /* disabled by -frewrite-includes */\n"
      "#if 1 /* evaluated by -frewrite-includes */\n"
      "#define W 64\n"
      "#if 0 /* disabled by -frewrite-includes */\n"
      "#if 0\n"
      "#elif defined(__gfx1101__) && \\\n"
      "    1\n"
      "#endif\n"
      "#endif /* disabled by -frewrite-includes */\n"
      "#elif 0 /* evaluated by -frewrite-includes */\n"
      "#define W 32\n"
      "#endif\n";
  EXPECT_EQ(
      "#if __AMDGCN_WAVEFRONT_SIZE__ == 64\n"
      "#define W 64\n"
      "#elif defined(__gfx1101__) && \\\n"
      "    1\n"
      "#define W 32\n"
      "#endif\n",
      portable(rewritten));
}

// An #include clang did not carry out: anygpu's and the system's are kept; the application's
// (inlined earlier, or in a branch not taken) cannot be, and become a comment.
TEST(PortableRewriteTest, IncludesNotCarriedOut) {
  const std::string rewritten =
      "#if 0 /* expanded by -frewrite-includes */\n"
      "#include <anygpu/cuda.h>\n"
      "#endif /* expanded by -frewrite-includes */\n"
      "#if 0 /* expanded by -frewrite-includes */\n"
      "#include \"anygpu/half.h\"\n"
      "#endif /* expanded by -frewrite-includes */\n"
      "#ifdef ZZ\n"
      "#if 0 /* expanded by -frewrite-includes */\n"
      "#include \"zz.h\"\n"
      "#endif /* expanded by -frewrite-includes */\n"
      "#endif\n";
  EXPECT_EQ(
      "#include <anygpu/cuda.h>\n"
      "#include \"anygpu/half.h\"\n"
      "#ifdef ZZ\n"
      "// anygpu: inlined above or not taken here: #include \"zz.h\"\n"
      "#endif\n",
      portable(rewritten));
}

// An application header included with angle brackets, inlined once and skipped the second time,
// must not come back as an #include (the run-time compiler has no such file); a library header
// named in quotes in a branch not taken (CUDA's cuda_runtime.h, which anygpu's headers provide)
// stays.
TEST(PortableRewriteTest, ApplicationAndLibraryHeadersByWhatTheyAre) {
  const std::string include = std::string(ANYGPU_SOURCE_DIR) + "/include";
  const std::string rewritten =
      "#if defined(__CLANG_REWRITTEN_INCLUDES) /* common.h expanded by -frewrite-includes */\n"
      "#include <common.h>\n"
      "#else /* common.h expanded by -frewrite-includes */\n"
      "# 1 \"/app/k.cu\"\n"
      "# 1 \"/app/inc/common.h\" 1\n"
      "int common;\n"
      "#endif /* common.h expanded by -frewrite-includes */\n"
      "#if 0 /* expanded by -frewrite-includes */\n"
      "#include <common.h>\n"
      "#endif /* expanded by -frewrite-includes */\n"
      "#ifdef OTHER_TARGET\n"
      "#if 0 /* expanded by -frewrite-includes */\n"
      "#include \"cuda_runtime.h\"\n"
      "#endif /* expanded by -frewrite-includes */\n"
      "#if 0 /* expanded by -frewrite-includes */\n"
      "#include <vector>\n"
      "#endif /* expanded by -frewrite-includes */\n"
      "#endif\n";
  std::string text, error;
  ASSERT_TRUE(anygpu::make_portable_text(rewritten, {include, include + "/anygpu/cuda_compat"},
                                         &text, &error))
      << error;
  EXPECT_EQ(
      "#line 1 \"k.cu\"\n"
      "#line 1 \"common.h\"\n"
      "int common;\n"
      "// anygpu: inlined above or not taken here: #include <common.h>\n"
      "#ifdef OTHER_TARGET\n"
      "#include \"cuda_runtime.h\"\n"
      "#include <vector>\n"
      "#endif\n",
      text);
}

// A file name a #line directive cannot carry as it is.
TEST(PortableRewriteTest, LineMarkersKeepASafeFileName) {
  EXPECT_EQ("#line 3 \"a_b_.cu\"\n", portable("# 3 \"/x/a\\\"b\\\\.cu\"\n"));
}

TEST(PortableRewriteTest, OutputThatIsNotClangsIsRefused) {
  std::string error;
  portable("#if 0 /* expanded by -frewrite-includes */\n#include <a.h>\n", &error);
  EXPECT_NE(std::string::npos, error.find("no end")) << error;
  portable("#endif /* a.h expanded by -frewrite-includes */\n", &error);
  EXPECT_NE(std::string::npos, error.find("never began")) << error;
  portable(
      "#if defined(__CLANG_REWRITTEN_INCLUDES) /* a.h expanded by -frewrite-includes */\n"
      "#include \"a.h\"\n#else /* a.h expanded by -frewrite-includes */\nint a;\n"
      "#endif /* a.h expanded by -frewrite-includes */\n",
      &error);
  EXPECT_NE(std::string::npos, error.find("which file")) << error;
  portable(
      "#if 0 /* disabled by -frewrite-includes */\n#if X\n#endif\n"
      "#endif /* disabled by -frewrite-includes */\nint x;\n",
      &error);
  EXPECT_NE(std::string::npos, error.find("not followed by its value")) << error;
}

}  // namespace
