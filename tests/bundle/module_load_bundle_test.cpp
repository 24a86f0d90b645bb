// End to end: agModuleLoadData and agModuleLoad take a bundle and run its host entry on the CPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "bundle_test_support.h"
#include "test_support.h"

using namespace anygpu_test;
using namespace bundle_test;

namespace {

Bytes with_elf_machine(Bytes elf, uint16_t machine) {
  memcpy(elf.data() + 18, &machine, sizeof machine);  // e_machine
  return elf;
}

class ModuleLoadBundle : public ::testing::Test {
 protected:
  ag_device cpu = cpu_device();
  // The host entry among GPU entries that the CPU cannot run, as an application embeds them.
  const Bytes bundle =
      make_bundle({{"hip-nvptx64-nvidia-cuda--compute_80", data_file("kernels_sm80.ptx")},
                   {"hipv4-amdgcn-amd-amdhsa--gfx90a", data_file("gfx90a.co")},
                   {"host-x86_64-unknown-linux-gnu", host_code_object()},
                   {"hip-spirv64-unknown-unknown", data_file("kernels.spv")}});

  void expect_vector_add_runs(ag_module module) {
    ag_function function;
    ASSERT_AG(agModuleGetFunction(module, "vector_add", &function));
    int n = 1000;
    DeviceBuffer<float> a(cpu, std::vector<float>(n, 1.5f)), b(cpu, std::vector<float>(n, 2.0f)),
        c(cpu, n);
    void* params[] = {&n, a.param(), b.param(), c.param()};
    ASSERT_AG(agLaunchKernel(function, 4, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
    for (float v : c.download()) ASSERT_EQ(3.5f, v);
  }
};

TEST_F(ModuleLoadBundle, LoadDataRunsTheHostEntry) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the bundle's host entry is named for x86_64";
#endif
  ag_module module = nullptr;
  ASSERT_AG(agModuleLoadData(cpu, bundle.data(), bundle.size(), &module));
  expect_vector_add_runs(module);
  ASSERT_AG(agModuleUnload(module));
}

TEST_F(ModuleLoadBundle, LoadReadsABundleFile) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "the bundle's host entry is named for x86_64";
#endif
  const std::string path = ::testing::TempDir() + "anygpu_module_load_bundle.bundle";
  FILE* file = fopen(path.c_str(), "wb");
  ASSERT_NE(nullptr, file);
  ASSERT_EQ(bundle.size(), fwrite(bundle.data(), 1, bundle.size(), file));
  fclose(file);
  ag_module module = nullptr;
  ASSERT_AG(agModuleLoad(cpu, path.c_str(), &module));
  remove(path.c_str());
  expect_vector_add_runs(module);
  ASSERT_AG(agModuleUnload(module));
}

TEST_F(ModuleLoadBundle, ABundleWithoutAHostEntryIsNoBinaryForTheCpu) {
  const Bytes gpu_only = data_file("hipcc_gfx90a.bundle");
  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE,
            agModuleLoadData(cpu, gpu_only.data(), gpu_only.size(), &module));
  EXPECT_EQ(nullptr, module);
  const std::string detail = last_detail();
  for (const char* part : {"agModuleLoadData: device ", "needs a host code object",
                           "'hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-' (AMD code object for "
                           "gfx90a:xnack-)",
                           "(AG_ERROR_NO_BINARY_FOR_DEVICE)"})
    EXPECT_NE(std::string::npos, detail.find(part)) << part << "\n in: " << detail;
}

// What agModuleLoadData said of plain host code objects before bundles, it still says.
TEST_F(ModuleLoadBundle, PlainHostCodeObjectsAsBefore) {
  const Bytes host = host_code_object();
  const std::pair<Bytes, ag_result> images[] = {
      {host, AG_SUCCESS},
      {Bytes(host.begin(), host.begin() + 64), AG_ERROR_INVALID_IMAGE},
      {Bytes(host.begin(), host.begin() + 3), AG_ERROR_INVALID_IMAGE},
      {with_elf_machine(host, 190), AG_ERROR_NO_BINARY_FOR_DEVICE},
      {with_elf_machine(host, 224), AG_ERROR_NO_BINARY_FOR_DEVICE}};
  for (const auto& image : images) {
    ag_module module = nullptr;
    EXPECT_EQ(image.second, agModuleLoadData(cpu, image.first.data(), image.first.size(), &module))
        << last_detail();
    if (module) {
      EXPECT_AG(agModuleUnload(module));
    }
  }
}

TEST_F(ModuleLoadBundle, ACorruptBundleIsAnInvalidImage) {
  Bytes corrupt = bundle;
  const uint64_t count = 3000000000;
  memcpy(corrupt.data() + 24, &count, sizeof count);
  ag_module module = nullptr;
  EXPECT_EQ(AG_ERROR_INVALID_IMAGE, agModuleLoadData(cpu, corrupt.data(), corrupt.size(), &module));
  EXPECT_EQ(nullptr, module);
  EXPECT_NE(std::string::npos, last_detail().find("3000000000 entries")) << last_detail();
}

}  // namespace
