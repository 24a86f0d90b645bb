// NVIDIA architectures and AMD target ids: parsed from names, read from code objects, matched.
#include <gtest/gtest.h>

#include "bundle_test_support.h"
#include "shim/code_object/amdgpu_target.h"
#include "shim/code_object/cuda_arch.h"

using namespace anygpu;
using namespace bundle_test;

namespace {

std::string target_of(const Bytes& code_object) {
  AmdgpuTarget target;
  std::string error;
  EXPECT_TRUE(amdgpu_target_from_elf(elf_header(code_object), &target, &error)) << error;
  return amdgpu_target_name(target);
}

AmdgpuTarget parsed(const std::string& text) {
  AmdgpuTarget target;
  EXPECT_TRUE(parse_amdgpu_target(text, &target)) << text;
  return target;
}

CudaArch arch(const std::string& text) {
  CudaArch parsed_arch;
  EXPECT_TRUE(parse_cuda_arch(text, &parsed_arch)) << text;
  return parsed_arch;
}

TEST(CudaArch, CubinSmFromBothElfAbis) {
  EXPECT_EQ(80u, cubin_sm(elf_header(data_file("kernels_sm80.cubin"))));
  EXPECT_EQ(90u, cubin_sm(elf_header(data_file("kernels_sm90.cubin"))));
  // CUDA 12 and older (ELF ABI version 7): the SM in the low byte, e.g. 0x500550 for sm_80.
  EXPECT_EQ(86u,
            cubin_sm(elf_header(with_elf_flags(data_file("kernels_sm80.cubin"), 0x560556, 7))));
}

TEST(CudaArch, Names) {
  EXPECT_EQ(86u, arch("sm_86").sm);
  EXPECT_EQ('a', arch("sm_90a").suffix);
  EXPECT_EQ(100u, arch("compute_100").sm);
  EXPECT_EQ("sm_120f", cuda_arch_name(arch("sm_120f")));
  CudaArch unused;
  for (const char* bad : {"", "sm_", "sm_8", "sm_1000", "sm_86x", "gfx90a", "sm86", "sm_-1"})
    EXPECT_FALSE(parse_cuda_arch(bad, &unused)) << bad;
}

TEST(CudaArch, WhereCubinsAndPtxRun) {
  EXPECT_TRUE(cubin_runs_on(arch("sm_80"), arch("sm_86")));
  EXPECT_TRUE(cubin_runs_on(arch("sm_86"), arch("sm_86")));
  EXPECT_FALSE(cubin_runs_on(arch("sm_86"), arch("sm_80")));
  EXPECT_FALSE(cubin_runs_on(arch("sm_80"), arch("sm_90")));
  EXPECT_FALSE(cubin_runs_on(arch("sm_90a"), arch("sm_91")));
  EXPECT_TRUE(ptx_runs_on(arch("sm_70"), arch("sm_90")));
  EXPECT_FALSE(ptx_runs_on(arch("sm_90"), arch("sm_86")));
  EXPECT_FALSE(ptx_runs_on(arch("sm_90a"), arch("sm_100")));
  EXPECT_TRUE(ptx_runs_on(arch("sm_100f"), arch("sm_103")));
  EXPECT_FALSE(ptx_runs_on(arch("sm_100f"), arch("sm_120")));
}

TEST(AmdgpuTarget, FromCodeObjectsBuiltWithEachXnackSetting) {
  EXPECT_EQ("gfx90a", target_of(data_file("gfx90a.co")));
  EXPECT_EQ("gfx90a:xnack+", target_of(data_file("gfx90a_xnack_on.co")));
  EXPECT_EQ("gfx90a:xnack-", target_of(data_file("gfx90a_xnack_off.co")));
}

TEST(AmdgpuTarget, FromEFlagsOfEachCodeObjectVersion) {
  const Bytes co = data_file("gfx90a.co");
  // v4/v5: two bits per feature (0 unsupported, 1 any, 2 off, 3 on).
  EXPECT_EQ("gfx90a:sramecc+:xnack-", target_of(with_elf_flags(co, 0x03f | 0xc00 | 0x200, 3)));
  EXPECT_EQ("gfx942:sramecc-", target_of(with_elf_flags(co, 0x04c | 0x800 | 0x100, 2)));
  EXPECT_EQ("gfx1100", target_of(with_elf_flags(co, 0x041, 4)));
  // v3: one "enabled" bit each.
  EXPECT_EQ("gfx906:sramecc+:xnack+", target_of(with_elf_flags(co, 0x02f | 0x300, 1)));
  EXPECT_EQ("gfx906", target_of(with_elf_flags(co, 0x02f, 1)));
  AmdgpuTarget unused;
  std::string error;
  EXPECT_FALSE(amdgpu_target_from_elf(elf_header(with_elf_flags(co, 0x0ff, 3)), &unused, &error));
  EXPECT_NE(std::string::npos, error.find("0xff")) << error;
}

TEST(AmdgpuTarget, Names) {
  EXPECT_EQ("gfx90a:sramecc+:xnack-", amdgpu_target_name(parsed("gfx90a:xnack-:sramecc+")));
  EXPECT_EQ("gfx90a:xnack-", amdgpu_target_name(parsed("amdgcn-amd-amdhsa--gfx90a:xnack-")));
  EXPECT_EQ("gfx10-3-generic", amdgpu_target_name(parsed("gfx10-3-generic")));
  AmdgpuTarget unused;
  for (const char* bad : {"", "gfx", "sm_80", "gfx90a:", "gfx90a:xnack", "gfx90a:xnack*",
                          "gfx90a:cumode+", "gfx 90a", "gfx90a::xnack+"})
    EXPECT_FALSE(parse_amdgpu_target(bad, &unused)) << bad;
}

TEST(AmdgpuTarget, FeaturesFit) {
  const AmdgpuTarget device = parsed("gfx90a:sramecc+:xnack-");
  EXPECT_EQ(0, amdgpu_target_fit(parsed("gfx90a"), device));
  EXPECT_EQ(1, amdgpu_target_fit(parsed("gfx90a:xnack-"), device));
  EXPECT_EQ(2, amdgpu_target_fit(parsed("gfx90a:sramecc+:xnack-"), device));
  EXPECT_EQ(-1, amdgpu_target_fit(parsed("gfx90a:xnack+"), device));
  EXPECT_EQ(-1, amdgpu_target_fit(parsed("gfx90a:sramecc-"), device));
  EXPECT_EQ(-1, amdgpu_target_fit(parsed("gfx942"), device));
  // A device that states no setting runs only code that states none.
  EXPECT_EQ(-1, amdgpu_target_fit(parsed("gfx90a:xnack-"), parsed("gfx90a")));
  EXPECT_EQ(0, amdgpu_target_fit(parsed("gfx90a"), parsed("gfx90a")));
}

}  // namespace
