// Selection for described Level Zero and CPU devices, and what a device with no fit is told.
#include <elf.h>
#include <gtest/gtest.h>

#include "bundle_test_support.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

class SelectOther : public ::testing::Test {
 protected:
  const Bytes host = host_code_object(), spirv = data_file("kernels.spv"),
              ptx = data_file("kernels_sm80.ptx"), amd = data_file("gfx90a.co");
  const Bytes all = make_bundle({{"host-x86_64-unknown-linux-gnu", host},
                                 {"hip-nvptx64-nvidia-cuda--compute_80", ptx},
                                 {"hipv4-amdgcn-amd-amdhsa--gfx90a", amd},
                                 {"hip-spirv64-unknown-unknown", spirv}});
};

TEST_F(SelectOther, LevelZeroTakesSpirv) {
  Selected s = select(device(AG_BACKEND_LEVEL_ZERO, "Intel Xe"), all);
  ASSERT_EQ(AG_SUCCESS, s.result) << s.detail;
  EXPECT_TRUE(holds(s.code, spirv));
  EXPECT_EQ(CodeObjectFormat::spirv, s.code.format);
  s = select(device(AG_BACKEND_LEVEL_ZERO, "Intel Xe"), spirv);
  EXPECT_EQ(AG_SUCCESS, s.result);
  s = select(device(AG_BACKEND_LEVEL_ZERO, "Intel Xe"), make_bundle({{"x-ptx", ptx}}));
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
  EXPECT_NE(std::string::npos, s.detail.find("needs a SPIR-V module")) << s.detail;
}

TEST_F(SelectOther, TheCpuTakesTheHostCodeObjectForItsMachine) {
  Selected s = select(device(AG_BACKEND_CPU, "x86_64-linux-gnu"), all);
#if defined(__x86_64__)
  ASSERT_EQ(AG_SUCCESS, s.result) << s.detail;
  EXPECT_TRUE(holds(s.code, host));
  EXPECT_EQ(CodeObjectFormat::host_shared_object, s.code.format);
  s = select(device(AG_BACKEND_CPU, "aarch64-linux-gnu"), all);
#endif
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
  EXPECT_NE(std::string::npos, s.detail.find("needs a host code object for")) << s.detail;
}

TEST_F(SelectOther, AnExecutableIsNotAHostCodeObject) {
  Bytes executable = host;
  const uint16_t type = ET_EXEC;
  memcpy(executable.data() + offsetof(Elf64_Ehdr, e_type), &type, sizeof type);
  const Selected s = select(device(AG_BACKEND_CPU, "x86_64-linux-gnu"),
                            make_bundle({{"host-x86_64-unknown-linux-gnu", executable}}));
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
}

TEST_F(SelectOther, NoFitListsEveryEntry) {
  const Selected s = select(device(AG_BACKEND_CUDA, "sm_70"), all);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
  for (const char* part :
       {"the device (sm_70) needs a cubin for sm_70, or PTX for sm_70 or older",
        "holds 4 code objects", "'host-x86_64-unknown-linux-gnu' (host code object",
        "'hip-nvptx64-nvidia-cuda--compute_80' (PTX 8.5 for sm_80)",
        "'hipv4-amdgcn-amd-amdhsa--gfx90a' (AMD code object for gfx90a)",
        "'hip-spirv64-unknown-unknown' (SPIR-V module)"})
    EXPECT_NE(std::string::npos, s.detail.find(part)) << part << "\n in: " << s.detail;
}

TEST_F(SelectOther, ALongListIsCutShort) {
  std::vector<std::pair<std::string, Bytes>> entries;
  for (int i = 0; i < 60; ++i)
    entries.push_back({"hip-spirv64-unknown-unknown-" + std::to_string(i), spirv});
  const Selected s = select(device(AG_BACKEND_CUDA, "sm_80"), make_bundle(entries));
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
  EXPECT_LT(s.detail.size(), 1000u) << "fail() keeps 1023 characters";
  EXPECT_NE(std::string::npos, s.detail.find("more")) << s.detail;
}

TEST_F(SelectOther, AnArchitectureSelectionCannotReadIsSaidSo) {
  const Selected s = select(device(AG_BACKEND_HIP, "navi"), all);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, s.result);
  EXPECT_NE(std::string::npos, s.detail.find("cannot read ('navi')")) << s.detail;
}

}  // namespace
