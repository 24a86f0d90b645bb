// agProgramCompile's options as the core parses them (shim/core/compile_options.h): what each
// backend's compiler gets, and which programs the cache may keep.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shim/core/compile_options.h"

namespace {

struct Parsed {
  ag_result result;
  anygpu::CompileOptions options;
  bool cacheable;
};

Parsed parse(const std::vector<const char*>& given, const char* backend = "cpu") {
  Parsed parsed{};
  parsed.result = anygpu::parse_compile_options(static_cast<int>(given.size()), given.data(),
                                                backend, parsed.options, parsed.cacheable);
  return parsed;
}

TEST(CompileOptions, SharedOptionsAreParsedOnce) {
  const Parsed parsed = parse({"-DA", "-D", "B=2", "-O1", "--use_fast_math"});
  ASSERT_EQ(AG_SUCCESS, parsed.result);
  EXPECT_EQ((std::vector<std::string>{"A", "B=2"}), parsed.options.defines);
  EXPECT_EQ(1, parsed.options.optimization);
  EXPECT_TRUE(parsed.options.fast_math);
  EXPECT_TRUE(parsed.options.vendor.empty());
  EXPECT_TRUE(parsed.cacheable);
}

TEST(CompileOptions, VendorOptionsReachOnlyTheirBackend) {
  const Parsed cuda = parse({"-Xcuda=-lineinfo", "-Xcpu=-fno-unroll-loops"}, "cuda");
  ASSERT_EQ(AG_SUCCESS, cuda.result);
  EXPECT_EQ((std::vector<std::string>{"-lineinfo"}), cuda.options.vendor);
  EXPECT_TRUE(cuda.cacheable);
  const Parsed cpu = parse({"-Xcuda=-lineinfo", "-Xcpu=-fno-unroll-loops"}, "cpu");
  EXPECT_EQ((std::vector<std::string>{"-fno-unroll-loops"}), cpu.options.vendor);
}

// Files on disk and the machine compiling are not in the cache key: such programs are compiled
// every time.
TEST(CompileOptions, ResultsThatDependOnFilesOrTheMachineAreNotCached) {
  for (const std::vector<const char*>& given :
       std::vector<std::vector<const char*>>{{"-I/usr/include"},
                                             {"-I", "/usr/include"},
                                             {"-Xcpu=-march=native"},
                                             {"-Xcpu=-isystem/opt/x"},
                                             {"-Xcpu=-include", "-Xcpu=/opt/x.h"},
                                             {"-Xcpu=@/opt/options"}}) {
    const Parsed parsed = parse(given);
    ASSERT_EQ(AG_SUCCESS, parsed.result) << given[0];
    EXPECT_FALSE(parsed.cacheable) << given[0];
  }
  // Another backend's option changes nothing for this one.
  const Parsed other = parse({"-Xcuda=--include-path=/opt/x"}, "cpu");
  ASSERT_EQ(AG_SUCCESS, other.result);
  EXPECT_TRUE(other.cacheable);
}

TEST(CompileOptions, UnknownBackendPrefixIsRefused) {
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, parse({"-Xcdua=-lineinfo"}).result);
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, parse({"-march=native"}).result);
}

}  // namespace
