// Selection for described AMD devices: the processor, then xnack and sramecc settings that fit,
// an exact match before "any".
#include <gtest/gtest.h>

#include "bundle_test_support.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

const std::string kId = "hipv4-amdgcn-amd-amdhsa--";

class SelectAmd : public ::testing::Test {
 protected:
  const Bytes any = data_file("gfx90a.co"), on = data_file("gfx90a_xnack_on.co"),
              off = data_file("gfx90a_xnack_off.co");
  // gfx90a:sramecc+ (v5 e_flags: sramecc on, xnack any).
  const Bytes sramecc_on = with_elf_flags(any, 0x03f | 0xc00 | 0x100);

  Selected select_on(const std::string& arch, const Bytes& image) {
    return select(device(AG_BACKEND_HIP, arch), image);
  }
  void expect_selects(const std::string& arch, const Bytes& image, const Bytes& expected) {
    expect_selected(device(AG_BACKEND_HIP, arch), image, expected);
  }
  void expect_no_fit(const std::string& arch, const Bytes& image) {
    const Selected s = select_on(arch, image);
    EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result) << arch;
    EXPECT_NE(std::string::npos, s.detail.find("needs an AMD code object for")) << s.detail;
  }
};

TEST_F(SelectAmd, XnackOnOffOrAnyAgainstCodeObjectsBuiltWithEach) {
  const Bytes all = make_bundle(
      {{kId + "gfx90a", any}, {kId + "gfx90a:xnack+", on}, {kId + "gfx90a:xnack-", off}});
  expect_selects("gfx90a:sramecc+:xnack+", all, on);
  expect_selects("gfx90a:sramecc+:xnack-", all, off);
  expect_selects("gfx90a:xnack-", all, off);
  expect_selects("gfx90a", all, any);
}

TEST_F(SelectAmd, AnyFitsBothSettingsAndAStatedOneOnlyItself) {
  expect_selects("gfx90a:xnack+", make_bundle({{kId + "gfx90a", any}}), any);
  expect_selects("gfx90a:xnack-", make_bundle({{kId + "gfx90a", any}}), any);
  expect_no_fit("gfx90a:xnack-", make_bundle({{kId + "gfx90a:xnack+", on}}));
  expect_no_fit("gfx90a:xnack+", make_bundle({{kId + "gfx90a:xnack-", off}}));
  expect_no_fit("gfx90a", make_bundle({{kId + "gfx90a:xnack-", off}}));
  expect_selects("gfx90a:sramecc+:xnack-", make_bundle({{kId + "gfx90a:sramecc+", sramecc_on}}),
                 sramecc_on);
  expect_no_fit("gfx90a:sramecc-:xnack-", make_bundle({{kId + "gfx90a:sramecc+", sramecc_on}}));
}

TEST_F(SelectAmd, TheProcessorMustMatch) {
  const Bytes image = make_bundle({{kId + "gfx90a", any}, {kId + "gfx90a:xnack+", on}});
  const Selected s = select_on("gfx942:sramecc+:xnack-", image);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
  for (const char* part : {"the device (gfx942:sramecc+:xnack-) needs an AMD code object for "
                           "gfx942:sramecc+:xnack-",
                           "(AMD code object for gfx90a)", "(AMD code object for gfx90a:xnack+)"})
    EXPECT_NE(std::string::npos, s.detail.find(part)) << part << "\n in: " << s.detail;
}

TEST_F(SelectAmd, HipccBundle) {
  const Bytes image = data_file("hipcc_gfx90a.bundle");
  const Selected s = select_on("gfx90a:sramecc+:xnack-", image);
  ASSERT_EQ(AG_SUCCESS, s.result) << s.detail;
  EXPECT_EQ(CodeObjectFormat::amdgpu_code_object, s.code.format);
  expect_no_fit("gfx90a:xnack+", image);
  // Its host entry is empty: no use to the CPU.
  const Selected cpu = select(device(AG_BACKEND_CPU, "x86_64-linux-gnu"), image);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, cpu.result);
  EXPECT_NE(std::string::npos, cpu.detail.find("'host-x86_64-unknown-linux' (empty)"))
      << cpu.detail;
}

TEST_F(SelectAmd, APlainCodeObject) {
  expect_selects("gfx90a:sramecc+:xnack-", off, off);
  expect_no_fit("gfx90a:sramecc+:xnack+", off);
}

}  // namespace
