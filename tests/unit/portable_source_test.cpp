// The portable-source entry's bytes (shim/code_object/portable_source.h): written and read back,
// detected as their own format, and every kind of malformed entry refused with the reason.
#include "shim/code_object/portable_source.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shim/code_object/code_object.h"
#include "shim/code_object/code_object_target.h"

namespace {

using anygpu::PortableSource;

PortableSource sample() {
  PortableSource source;
  source.family = anygpu::kPortableFamilyAmdgcn;
  source.defines = {"SCALE=2", "FLAG"};
  source.fast_math = true;
  source.sources = {{"scale.cu", "__global__ void k(float* d) { d[0] *= SCALE; }\n"},
                    {"empty.cpp", ""},
                    {"shift.cpp", "no newline at the end"}};
  return source;
}

std::vector<unsigned char> bytes_of(const PortableSource& source) {
  std::vector<unsigned char> bytes;
  std::string error;
  EXPECT_TRUE(anygpu::write_portable_source(source, &bytes, &error)) << error;
  return bytes;
}

std::string read_error(const std::string& text) {
  PortableSource source;
  std::string error;
  EXPECT_FALSE(
      anygpu::read_portable_source(anygpu::ByteReader(text.data(), text.size()), &source, &error))
      << text;
  return error;
}

TEST(PortableSourceTest, ReadsWhatItWrites) {
  const std::vector<unsigned char> bytes = bytes_of(sample());
  PortableSource read;
  std::string error;
  ASSERT_TRUE(
      anygpu::read_portable_source(anygpu::ByteReader(bytes.data(), bytes.size()), &read, &error))
      << error;
  EXPECT_EQ("amdgcn", read.family);
  EXPECT_EQ(sample().defines, read.defines);
  EXPECT_TRUE(read.fast_math);
  ASSERT_EQ(3u, read.sources.size());
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(sample().sources[i].name, read.sources[i].name);
    EXPECT_EQ(sample().sources[i].text, read.sources[i].text);
  }
}

TEST(PortableSourceTest, IsItsOwnFormatAndNamesItsFamily) {
  const std::vector<unsigned char> bytes = bytes_of(sample());
  const anygpu::CodeObject code = anygpu::detect_code_object(bytes.data(), bytes.size());
  EXPECT_EQ(anygpu::CodeObjectFormat::portable_source, code.format);
  const anygpu::CodeTarget target = anygpu::describe_code_object(code);
  EXPECT_TRUE(target.problem.empty()) << target.problem;
  EXPECT_EQ("amdgcn", target.portable_family);
  EXPECT_NE(std::string::npos, anygpu::code_target_text(target).find("portable source for amdgcn"));
}

TEST(PortableSourceTest, RefusesMalformedEntries) {
  const std::vector<unsigned char> good = bytes_of(sample());
  const std::string text(good.begin(), good.end());
  EXPECT_NE(std::string::npos, read_error("ANYGPU PORTABLE SOURCE 2\n").find("does not start"));
  const std::string cut = text.substr(0, text.size() - 3);  // inside shift.cpp's text
  EXPECT_NE(std::string::npos,
            read_error(cut).find("source shift.cpp should have 21 bytes and has 18"))
      << read_error(cut);
  const std::string head = "ANYGPU PORTABLE SOURCE 1\n";
  EXPECT_NE(std::string::npos, read_error(head + "for amdgcn\n").find("no source"));
  EXPECT_NE(std::string::npos, read_error(head + "for amdgcn\ndefine A").find("no end"));
  EXPECT_NE(std::string::npos, read_error(head + "for sm_90\nsource a.cu 0\n").find("sm_90"));
  EXPECT_NE(std::string::npos, read_error(head + "source a.cu 0\n").find("family"));
  EXPECT_NE(std::string::npos,
            read_error(head + "for amdgcn\nsource a.cu 99999999999\n").find("not 'source <name>"));
  EXPECT_NE(std::string::npos,
            read_error(head + "for amdgcn\nsource a.cu -1\n").find("not 'source <name>"));
  EXPECT_NE(std::string::npos,
            read_error(head + "for amdgcn\nsource 12\n").find("not 'source <name>"));
  EXPECT_NE(std::string::npos,
            read_error(head + "for amdgcn\nbogus\nsource a.cu 0\n").find("bogus"));
  // fields come before the sources: a "define" after one is text that should not be there
  EXPECT_NE(std::string::npos,
            read_error(head + "for amdgcn\nsource a.cu 0\ndefine A\n").find("define A"));

  const anygpu::CodeObject code = anygpu::detect_code_object(cut.data(), cut.size());
  EXPECT_NE(std::string::npos, anygpu::describe_code_object(code).problem.find("malformed"));
}

TEST(PortableSourceTest, RefusesToWriteFieldsItCouldNotReadBack) {
  std::vector<unsigned char> bytes;
  std::string error;
  PortableSource source = sample();
  source.sources[0].name = "two\nlines.cu";
  EXPECT_FALSE(anygpu::write_portable_source(source, &bytes, &error));
  source = sample();
  source.sources[1].name = "with space.cpp";
  EXPECT_FALSE(anygpu::write_portable_source(source, &bytes, &error));
  source = sample();
  source.sources.clear();
  EXPECT_FALSE(anygpu::write_portable_source(source, &bytes, &error));
  source = sample();
  source.defines.push_back("");
  EXPECT_FALSE(anygpu::write_portable_source(source, &bytes, &error));
  source = sample();
  source.family = "nvptx";
  EXPECT_FALSE(anygpu::write_portable_source(source, &bytes, &error));
  EXPECT_NE(std::string::npos, error.find("nvptx")) << error;
}

}  // namespace
