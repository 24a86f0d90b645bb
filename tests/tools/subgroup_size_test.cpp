// pin_subgroup_size (shim/kernel_build/spirv_subgroup_size.h): which kernels of a linked module get
// a required sub-group size, and how.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shim/kernel_build/spirv_subgroup_size.h"

namespace {

using anygpu::pin_subgroup_size;

// A module as llvm-link writes one: a kernel that shuffles through a helper, one that reads the
// HIP-mode built-in variable, one that already asks for 16 lanes, and one with no sub-group use.
const char* kModule = R"(; ModuleID = 'llvm-link'
@__spirv_BuiltInSubgroupMaxSize = external addrspace(1) global i32

define spir_func i32 @helper(i32 %0) {
  %2 = tail call spir_func i32 @_Z28__spirv_SubgroupShuffleINTELjj(i32 %0, i32 1)
  ret i32 %2
}

define spir_kernel void @shuffles(i32 addrspace(1)* %0) #0 !kernel_arg_addr_space !4 {
  %2 = tail call spir_func i32 @helper(i32 3)
  store i32 %2, i32 addrspace(1)* %0, align 4
  ret void
}

define spir_kernel void @reads_width(i32 addrspace(1)* %0) {
  %2 = load i32, i32 addrspace(1)* @__spirv_BuiltInSubgroupMaxSize, align 4
  store i32 %2, i32 addrspace(1)* %0, align 4
  ret void
}

define spir_kernel void @asks_16(i32 addrspace(1)* %0) !intel_reqd_sub_group_size !5 {
  %2 = tail call spir_func i32 @_Z22get_max_sub_group_sizev()
  store i32 %2, i32 addrspace(1)* %0, align 4
  ret void
}

define spir_kernel void @plain(i32 addrspace(1)* %0) {
  %2 = tail call spir_func i32 @helper_without_subgroups()
  store i32 %2, i32 addrspace(1)* %0, align 4
  ret void
}

define spir_func i32 @helper_without_subgroups() {
  ret i32 7
}

declare spir_func i32 @_Z28__spirv_SubgroupShuffleINTELjj(i32, i32)
declare spir_func i32 @_Z22get_max_sub_group_sizev()

!4 = !{i32 1}
!5 = !{i32 16}
)";

std::string line_of(const std::string& text, const std::string& start) {
  const size_t at = text.find(start);
  return at == std::string::npos ? "" : text.substr(at, text.find('\n', at) - at);
}

TEST(SpirvSubgroupSize, KernelsThatReachTheSubgroupRequire32Lanes) {
  std::string out, error;
  std::vector<std::string> pinned;
  ASSERT_TRUE(pin_subgroup_size(kModule, 32, &out, &pinned, &error)) << error;
  EXPECT_EQ((std::vector<std::string>{"reads_width", "shuffles"}), pinned);
  EXPECT_EQ(
      "define spir_kernel void @shuffles(i32 addrspace(1)* %0) #0 !kernel_arg_addr_space !4 "
      "!intel_reqd_sub_group_size !6 {",
      line_of(out, "define spir_kernel void @shuffles"));
  EXPECT_NE(
      std::string::npos,
      line_of(out, "define spir_kernel void @reads_width").find("!intel_reqd_sub_group_size !6 {"));
  EXPECT_NE(std::string::npos, out.find("\n!6 = !{i32 32}\n"));
  // A kernel's own request stays; a kernel without sub-group use and the helpers get none.
  EXPECT_EQ(
      "define spir_kernel void @asks_16(i32 addrspace(1)* %0) !intel_reqd_sub_group_size !5 {",
      line_of(out, "define spir_kernel void @asks_16"));
  EXPECT_EQ("define spir_kernel void @plain(i32 addrspace(1)* %0) {",
            line_of(out, "define spir_kernel void @plain"));
  EXPECT_EQ("define spir_func i32 @helper(i32 %0) {",
            line_of(out, "define spir_func i32 @helper("));
}

// __syncwarp is a barrier of Subgroup scope (3): its kernel needs 32 lanes as a shuffle's does; a
// work-group barrier (scope 2) does not. A helper whose return type has parentheses is still
// followed, and a user function whose name merely mentions sub-groups is no built-in.
TEST(SpirvSubgroupSize, SubgroupBarriersAndHelpersOfAnyReturnType) {
  const std::string module = R"(define spir_kernel void @syncs_warp() {
  tail call spir_func void @_Z22__spirv_ControlBarrieriii(i32 noundef 3, i32 noundef 3, i32 noundef 776)
  ret void
}

define spir_kernel void @syncs_block() {
  tail call spir_func void @_Z22__spirv_ControlBarrieriii(i32 noundef 2, i32 noundef 2, i32 noundef 272)
  ret void
}

define spir_func noundef align 4 dereferenceable(4) i32 addrspace(4)* @lane_slot(i32 addrspace(4)* %0) {
  %2 = tail call spir_func i32 @_Z22get_sub_group_local_idv()
  ret i32 addrspace(4)* %0
}

define spir_kernel void @through_slot(i32 addrspace(4)* %0) {
  %2 = tail call spir_func i32 addrspace(4)* @lane_slot(i32 addrspace(4)* %0)
  ret void
}

define spir_kernel void @named_like_one() {
  tail call spir_func void @my_sub_group_helper()
  ret void
}

define spir_func void @my_sub_group_helper() {
  ret void
}
)";
  std::string out, error;
  std::vector<std::string> pinned;
  ASSERT_TRUE(pin_subgroup_size(module, 32, &out, &pinned, &error)) << error;
  EXPECT_EQ((std::vector<std::string>{"syncs_warp", "through_slot"}), pinned);
}

TEST(SpirvSubgroupSize, AModuleWithoutSubgroupUseIsUnchanged) {
  const std::string module =
      "define spir_kernel void @k(float addrspace(1)* %0) {\n  ret void\n}\n!0 = !{i32 1}\n";
  std::string out, error;
  std::vector<std::string> pinned;
  ASSERT_TRUE(pin_subgroup_size(module, 32, &out, &pinned, &error)) << error;
  EXPECT_TRUE(pinned.empty());
  EXPECT_EQ(module, out);
}

TEST(SpirvSubgroupSize, AFunctionWithoutItsEndIsAnError) {
  std::string out, error;
  EXPECT_FALSE(
      pin_subgroup_size("define spir_kernel void @k() {\n  ret void\n", 32, &out, nullptr, &error));
  EXPECT_EQ("the definition of @k has no end", error);
}

}  // namespace
