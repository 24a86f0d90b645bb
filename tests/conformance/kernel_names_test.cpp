// Kernels found by every spelling of their names on every device (docs/runtime-core.md): the
// mangled-name kernels of tests/cuda_sources/kernel_names.cu by plain name, qualified name,
// template arguments, mangled name and signature; one handle whatever the spelling; the backend
// (and on the test drivers, cuModuleGetFunction, hipModuleGetFunction, zeKernelCreate) asked for
// the exact name, as the launch of the right kernel shows; ambiguity and unknown names reported.
#include <string>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class KernelNameTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());
  TestModule module{device};
};

// Runs `kernel(out, nullptr, n)` on n floats and returns them.
std::vector<float> run_reduce(ag_device device, ag_function kernel) {
  unsigned n = 70;
  DeviceBuffer<float> out(device, std::vector<float>(n, 0.0f));
  void* unused = nullptr;
  void* params[] = {out.param(), &unused, &n};
  EXPECT_AG(agLaunchKernel(kernel, 1, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  return out.download();
}

std::vector<float> run_on_floats(ag_device device, ag_function kernel, float value) {
  int n = 50;
  DeviceBuffer<float> x(device, std::vector<float>(n, value));
  void* params[] = {x.param(), &n};
  EXPECT_AG(agLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  return x.download();
}

ag_function lookup(ag_module module, const std::string& name) {
  ag_function function = nullptr;
  EXPECT_AG(agModuleGetFunction(module, name.c_str(), &function)) << "name: " << name;
  return function;
}

TEST_P(KernelNameTest, ATemplateInstantiationByEverySpellingIsOneHandleThatRunsIt) {
  const ag_function by_mangled = lookup(module.module(), "_Z6reduceILi256EEvPfS0_j");
  ASSERT_NE(nullptr, by_mangled);
  for (const char* spelling :
       {"reduce<256>", "reduce < 256 >", "reduce<256>(float*, float*, unsigned int)",
        "void reduce<256>(float *, float *, unsigned int)"})
    EXPECT_EQ(by_mangled, lookup(module.module(), spelling)) << spelling;
  const ag_function other = lookup(module.module(), "reduce<128>");
  ASSERT_NE(nullptr, other);
  EXPECT_NE(by_mangled, other);
  for (float v : run_reduce(device, by_mangled)) ASSERT_EQ(256.0f, v);
  for (float v : run_reduce(device, other)) ASSERT_EQ(128.0f, v);
  int count = -1;
  ASSERT_AG(agFunctionGetParamCount(by_mangled, &count));
  EXPECT_EQ(3, count);
}

TEST_P(KernelNameTest, NamespacedAndAnonymousNamespaceKernelsByTheirNames) {
  const ag_function scale = lookup(module.module(), "ns::scale<float>");
  ASSERT_NE(nullptr, scale);
  for (const char* spelling : {"scale", "ns::scale", "scale<float>", "_ZN2ns5scaleIfEEvPT_i",
                               "ns::scale<float>(float*, int)"})
    EXPECT_EQ(scale, lookup(module.module(), spelling)) << spelling;
  for (float v : run_on_floats(device, scale, 2.0f)) ASSERT_EQ(6.0f, v);

  const ag_function offset = lookup(module.module(), "offset");
  ASSERT_NE(nullptr, offset);
  EXPECT_EQ(offset, lookup(module.module(), "(anonymous namespace)::offset(int*, int)"));
  int n = 40;
  DeviceBuffer<int> x(device, std::vector<int>(n, 5));
  void* params[] = {x.param(), &n};
  ASSERT_AG(agLaunchKernel(offset, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  for (int v : x.download()) ASSERT_EQ(12, v);
}

TEST_P(KernelNameTest, AnExternCKernelByItsName) {
  const ag_function kernel = lookup(module.module(), "c_linkage_offset");
  ASSERT_NE(nullptr, kernel);
  int n = 40;
  DeviceBuffer<int> x(device, std::vector<int>(n, 5));
  void* params[] = {x.param(), &n};
  ASSERT_AG(agLaunchKernel(kernel, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  for (int v : x.download()) ASSERT_EQ(16, v);
}

TEST_P(KernelNameTest, AnExactNameWinsOverThePlainNameOfAMangledKernel) {
  const ag_function saxpy = lookup(module.module(), "saxpy");  // the AG_KERNEL
  ASSERT_NE(nullptr, saxpy);
  expect_saxpy_layout(saxpy);
  const ag_function other = lookup(module.module(), "other::saxpy");
  ASSERT_NE(nullptr, other);
  EXPECT_NE(saxpy, other);
  for (float v : run_on_floats(device, other, 2.0f)) ASSERT_EQ(-1.0f, v);
}

TEST_P(KernelNameTest, AnAmbiguousNameListsTheCandidatesAndGivesNoHandle) {
  ag_function function = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_VALUE, agModuleGetFunction(module.module(), "reduce", &function));
  EXPECT_EQ(nullptr, function);
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("'reduce' names 2 kernels")) << detail;
  EXPECT_NE(std::string::npos, detail.find("void reduce<128>(float*, float*, unsigned int)"))
      << detail;
  EXPECT_NE(std::string::npos, detail.find("void reduce<256>(float*, float*, unsigned int)"))
      << detail;
}

TEST_P(KernelNameTest, AnUnknownNameListsTheModulesKernels) {
  ag_function function = nullptr;
  EXPECT_EQ(AG_ERROR_NOT_FOUND, agModuleGetFunction(module.module(), "reduce<512>", &function));
  EXPECT_EQ(nullptr, function);
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("reduce<512>")) << detail;  // the backend's reason
  EXPECT_NE(std::string::npos, detail.find("; the module's ")) << detail;
  EXPECT_NE(std::string::npos,
            detail.find(" kernels are: (anonymous namespace)::offset(int*, int)"))
      << detail;
  EXPECT_NE(std::string::npos, detail.find(" more")) << detail;  // more than 20 kernels
  EXPECT_LT(detail.size(), 1100u) << detail;
  // The module still gives the kernels it has.
  EXPECT_NE(nullptr, lookup(module.module(), "reduce<256>"));
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, KernelNameTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);

}  // namespace
