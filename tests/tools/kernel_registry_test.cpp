// The pieces of anygpu-pack that build CUDA sources: how a kernel's declaration is read from its
// mangled name, how SPIR-V's extern __shared__ arrays are given a size, and how a module's blocks
// are put in dominance order for llvm-spirv.
#include <gtest/gtest.h>

#include "shim/kernel_build/kernel_declaration.h"
#include "shim/kernel_build/spirv_block_order.h"
#include "shim/kernel_build/spirv_shared_memory.h"

namespace {

using anygpu::kernel_declaration;
using anygpu::KernelDeclaration;
using anygpu::size_extern_shared_arrays;

KernelDeclaration declared(const std::string& mangled) {
  KernelDeclaration declaration;
  std::string error;
  EXPECT_TRUE(kernel_declaration(mangled, &declaration, &error)) << error;
  return declaration;
}

TEST(KernelDeclaration, PlainFunction) {
  const KernelDeclaration d = declared("_Z5saxpyifPKfPf");
  EXPECT_EQ("saxpy", d.name);
  EXPECT_EQ("int, float, float const*, float*", d.params);
}

TEST(KernelDeclaration, TemplateInstanceDropsItsReturnType) {
  const KernelDeclaration d = declared("_Z10block_sumsILj256EEvPKfPfj");
  EXPECT_EQ("block_sums<256u>", d.name);
  EXPECT_EQ("float const*, float*, unsigned int", d.params);
}

TEST(KernelDeclaration, NamespacesAndNoParameters) {
  EXPECT_EQ("ns::scale<float>", declared("_ZN2ns5scaleIfEEvPT_i").name);
  const KernelDeclaration empty = declared("_Z5emptyv");
  EXPECT_EQ("empty", empty.name);
  EXPECT_EQ("", empty.params);
}

TEST(KernelDeclaration, AnonymousNamespacesAreDropped) {
  const KernelDeclaration d = declared("_ZN12_GLOBAL__N_16kernelEPN12_GLOBAL__N_14PairE");
  EXPECT_EQ("kernel", d.name);
  EXPECT_EQ("Pair*", d.params);
}

TEST(KernelDeclaration, FunctionPointerParameters) {
  const KernelDeclaration d = declared("_Z5applyPFviEi");
  EXPECT_EQ("apply", d.name);
  EXPECT_EQ("void (*)(int), int", d.params);
}

// extern "C" kernels: the symbol is the name; the type comes from the function (decltype).
TEST(KernelDeclaration, ExternCNamesAreTheirOwnDeclaration) {
  KernelDeclaration d;
  std::string error;
  ASSERT_TRUE(kernel_declaration("saxpy", &d, &error)) << error;
  EXPECT_EQ("saxpy", d.name);
  EXPECT_TRUE(d.c_linkage);
  EXPECT_EQ("", d.params);
  EXPECT_FALSE(kernel_declaration("_Z5saxpyi", &d, &error) && d.c_linkage);
}

TEST(KernelDeclaration, NamesThatAreNeitherAreRefused) {
  KernelDeclaration d;
  std::string error;
  EXPECT_FALSE(kernel_declaration("not-an-identifier", &d, &error));
  EXPECT_NE(std::string::npos, error.find("not-an-identifier")) << error;
  EXPECT_FALSE(kernel_declaration("_Z3fooi_garbage(", &d, &error));
  EXPECT_FALSE(kernel_declaration("", &d, &error));
}

TEST(SpirvSharedMemory, ExternArraysGetTheirSizeEverywhere) {
  const std::string ir =
      "@sdata = external hidden local_unnamed_addr addrspace(3) global [0 x float], align 4\n"
      "  %1 = getelementptr inbounds [0 x float], [0 x float] addrspace(3)* @sdata, i64 0, "
      "i64 %0\n";
  std::string sized, error;
  ASSERT_TRUE(size_extern_shared_arrays(ir, 49152, &sized, &error)) << error;
  EXPECT_EQ(std::string::npos, sized.find("[0 x")) << sized;
  EXPECT_NE(std::string::npos,
            sized.find("@sdata = hidden addrspace(3) global [12288 x float] undef, align 4"))
      << sized;
  EXPECT_NE(std::string::npos,
            sized.find("getelementptr inbounds [12288 x float], [12288 x float]"))
      << sized;
}

TEST(SpirvSharedMemory, StructElementsAreSizedWithTheirPadding) {
  const std::string ir =
      "%struct.Pair = type { i8, double }\n"
      "%struct.Wide = type { [3 x float], <4 x float> }\n"
      "@pairs = external addrspace(3) global [0 x %struct.Pair], align 8\n"
      "@wide = external addrspace(3) global [0 x %struct.Wide], align 16\n";
  std::string sized, error;
  ASSERT_TRUE(size_extern_shared_arrays(ir, 4096, &sized, &error)) << error;
  EXPECT_NE(std::string::npos, sized.find("[256 x %struct.Pair] undef")) << sized;  // 16 bytes
  EXPECT_NE(std::string::npos, sized.find("[128 x %struct.Wide] undef")) << sized;  // 32 bytes
}

TEST(SpirvSharedMemory, ModulesWithoutExternArraysAreUnchanged) {
  const std::string ir = "@tile = internal addrspace(3) global [16 x float] undef, align 4\n";
  std::string sized, error;
  ASSERT_TRUE(size_extern_shared_arrays(ir, 49152, &sized, &error)) << error;
  EXPECT_EQ(ir, sized);
}

TEST(SpirvSharedMemory, AnElementOfUnknownSizeIsAnError) {
  const std::string ir = "@odd = external addrspace(3) global [0 x %struct.Missing], align 4\n";
  std::string sized, error;
  EXPECT_FALSE(size_extern_shared_arrays(ir, 49152, &sized, &error));
  EXPECT_NE(std::string::npos, error.find("@odd")) << error;
}

// A rotated loop as clang -O2 lays it out (valid LLVM 15 IR): the exit block (%7) comes before the
// loop's body (%9), which dominates it and defines the value it uses.
const char kLoopExitFirst[] =
    "define float @sum(float* %0, i32 %1) {\n"
    "  %3 = icmp sgt i32 %1, 0\n"
    "  br i1 %3, label %9, label %4\n"
    "4:                                                ; preds = %2\n"
    "  br label %5\n"
    "5:                                                ; preds = %7, %4\n"
    "  %6 = phi float [ 0.000000e+00, %4 ], [ %8, %7 ]\n"
    "  ret float %6\n"
    "7:                                                ; preds = %9\n"
    "  %8 = fadd float %11, 1.000000e+00\n"
    "  br label %5\n"
    "9:                                                ; preds = %2, %9\n"
    "  %10 = phi float [ 0.000000e+00, %2 ], [ %11, %9 ]\n"
    "  %11 = fadd float %10, 2.000000e+00\n"
    "  br i1 %3, label %9, label %7\n"
    "}\n";

std::string ordered(const std::string& ir) {
  std::string out, error;
  EXPECT_TRUE(anygpu::order_blocks_by_dominance(ir, &out, &error)) << error;
  return out;
}

TEST(SpirvBlockOrder, BlocksFollowTheirDominators) {
  const std::string out = ordered(kLoopExitFirst);
  const size_t body = out.find("\nagk.9:"), exit = out.find("\nagk.7:");
  ASSERT_NE(std::string::npos, body) << out;
  ASSERT_NE(std::string::npos, exit) << out;
  EXPECT_LT(body, exit) << out;
  EXPECT_LT(exit, out.find("\nagk.5:")) << out;
  // The entry block gets the label its number gave it; every numbered value is renamed.
  EXPECT_EQ(0u, out.find("define float @sum(float* %agk.0, i32 %agk.1) {\nagk.2:\n")) << out;
  EXPECT_NE(std::string::npos, out.find("%agk.10 = phi float [ 0.000000e+00, %agk.2 ], "
                                        "[ %agk.11, %agk.9 ]"))
      << out;
  EXPECT_EQ(std::string::npos, out.find(" %1")) << out;
}

TEST(SpirvBlockOrder, FunctionsInDominanceOrderAreUnchanged) {
  const std::string in =
      "@g = global i32 0\n"
      "define void @f(i32 %0) {\n"
      "  br label %2\n"
      "2:\n"
      "  ret void\n"
      "}\n"
      "declare void @h()\n";
  EXPECT_EQ(in, ordered(in));
}

TEST(SpirvBlockOrder, NumberedTypesAreRefused) {
  std::string out, error;
  EXPECT_FALSE(anygpu::order_blocks_by_dominance("%0 = type { i32 }\n", &out, &error));
  EXPECT_NE(std::string::npos, error.find("numbered types")) << error;
}

}  // namespace
