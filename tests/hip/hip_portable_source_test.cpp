// A gfx1101 device (RX 7800), which anygpu's default AMD targets leave out, loading images built by
// anygpu_add_kernels: the code object it lacks is built at load time from the portable source the
// image carries (an AG_KERNEL source with an application header; an image of an AG_KERNEL source
// and a CUDA source, linked into one code object), launched and checked; a second load takes it
// from the on-disk cache; an image without a portable source, or with one that does not compile
// or is malformed, is AG_ERROR_NO_BINARY_FOR_DEVICE saying why.
// The test driver runs a launched kernel from the host build of the test kernels by name, so the
// images here are built from test-kernel sources.
#include <gtest/gtest.h>

#include <ftw.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "anygpu_image_hip_portable_mixed.h"
#include "anygpu_image_hip_portable_several.h"
#include "hip_bundle_support.h"
#include "hip_driver_access.h"
#include "mixed_params.h"
#include "shim/code_object/offload_bundle.h"
#include "shim/code_object/portable_source.h"
#include "test_support.h"

namespace anygpu_test {
namespace {

// A cache of this process's own, so that the first load really builds.
const std::string kPrivateCache = use_private_compile_cache("anygpu-portable");

// Each cache entry's file and its inode: an entry stored again is a new file (temporary file,
// then rename), so an unchanged inode means the load read the entry and stored nothing.
std::map<std::string, ino_t> cache_files() {
  static std::map<std::string, ino_t>* found = nullptr;
  std::map<std::string, ino_t> files;
  found = &files;
  nftw(
      kPrivateCache.c_str(),
      [](const char* path, const struct stat* status, int type, struct FTW*) {
        const std::string name = path;
        if (type == FTW_F && name.size() > 4 && name.compare(name.size() - 4, 4, ".agc") == 0)
          (*found)[name] = status->st_ino;
        return 0;
      },
      16, FTW_PHYS);
  return files;
}

class HipPortableSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(driver.loaded());
    device = driver.hip_device();
    ASSERT_NE(nullptr, device) << "no HIP device from the test driver";
    if (!ANYGPU_TEST_HAVE_AMDGPU)
      GTEST_SKIP() << "this build makes no AMD code objects (clang-19, lld-19 or ROCm's ocml.bc "
                      "missing at configure time), so its images carry no portable source";
    for (int i = 0;; ++i) {
      ag_backend_info backend{};
      backend.struct_size = sizeof backend;
      if (agBackendGetInfo(i, &backend) != AG_SUCCESS) break;
      if (backend.kind != AG_BACKEND_HIP) continue;
      ag_compiler_info info{};
      info.struct_size = sizeof info;
      ASSERT_AG(agBackendGetCompilerInfo(i, &info));
      if (!info.available)
        GTEST_SKIP() << "the HIP backend has no run-time compiler here: " << info.reason;
    }
  }
  void TearDown() override { EXPECT_EQ(0, driver.live_objects()) << "a test leaked"; }

  // Loads `image` on the device; AG_SUCCESS leaves the module in `module`.
  ag_result load(const void* image, size_t size) {
    return agModuleLoadData(device, image, size, &module);
  }
  void unload() {
    if (module) {
      EXPECT_AG(agModuleUnload(module));
    }
    module = nullptr;
  }

  HipDriverAccess driver;
  ag_device device = nullptr;
  ag_module module = nullptr;
};

std::vector<unsigned char> portable_bytes(const anygpu::PortableSource& source) {
  std::vector<unsigned char> bytes;
  std::string error;
  EXPECT_TRUE(anygpu::write_portable_source(source, &bytes, &error)) << error;
  return bytes;
}

std::vector<unsigned char> bundle_of(const std::vector<unsigned char>& bytes) {
  std::vector<unsigned char> bundle;
  std::string error;
  EXPECT_TRUE(anygpu::write_offload_bundle(
      {{"hip-amdgcn-amd-amdhsa-anygpusource", bytes.data(), bytes.size()}}, &bundle, &error))
      << error;
  return bundle;
}

TEST_F(HipPortableSourceTest, BuildsTheMissingCodeObjectOfAnAgKernelSource) {
  ASSERT_AG(load(anygpu_image_hip_portable_mixed, anygpu_image_hip_portable_mixed_size));
  EXPECT_EQ("gfx1101", driver.last_target());
  ag_function function = nullptr;
  ASSERT_AG(agModuleGetFunction(module, "mixed_params", &function));
  DeviceBuffer<double> out(device, 8);
  char c = 'x';
  short s = -7;
  int i = 123456;
  int64_t l = int64_t{1} << 40;
  float f = 2.5f;
  double d = 0.125;
  ag_pair16 pair{-3, 6.5};
  void* params[] = {&c, &s, &i, &l, &f, &d, out.param(), &pair};
  ASSERT_AG(agLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<double> got = out.download();
  const std::vector<double> want = {'x', -7, 123456, 1099511627776.0, 2.5, 0.125, -3, 6.5};
  EXPECT_EQ(want, got);
  unload();
}

TEST_F(HipPortableSourceTest, BuildsOneCodeObjectFromSeveralSources) {
  ASSERT_AG(load(anygpu_image_hip_portable_several, anygpu_image_hip_portable_several_size));
  EXPECT_EQ("gfx1101", driver.last_target());
  // vector_add from the AG_KERNEL source
  std::vector<float> left(300), right(300);
  for (int k = 0; k < 300; ++k) {
    left[k] = static_cast<float>(k);
    right[k] = 0.5f;
  }
  DeviceBuffer<float> da(device, left), db(device, right), dc(device, 300);
  int size = 300;
  void* add_params[] = {&size, da.param(), db.param(), dc.param()};
  ag_function vector_add = nullptr;
  ASSERT_AG(agModuleGetFunction(module, "vector_add", &vector_add));
  ASSERT_AG(agLaunchKernel(vector_add, 2, 1, 1, 256, 1, 1, 0, nullptr, add_params, nullptr));
  const std::vector<float> sums = dc.download();
  for (int k = 0; k < 300; ++k) ASSERT_EQ(k + 0.5f, sums[k]) << k;
  // saxpy from the CUDA source
  ag_function saxpy = nullptr;
  ASSERT_AG(agModuleGetFunction(module, "saxpy", &saxpy));
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int k = 0; k < n; ++k) {
    x[k] = static_cast<float>(k);
    y[k] = 1.0f;
  }
  DeviceBuffer<float> dx(device, x), dy(device, y);
  int count = n;
  float a = 3.0f;
  void* params[] = {&count, &a, dx.param(), dy.param()};
  ASSERT_AG(agLaunchKernel(saxpy, 4, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> got = dy.download();
  for (int k = 0; k < n; ++k) ASSERT_EQ(3.0f * k + 1.0f, got[k]) << k;
  unload();
}

TEST_F(HipPortableSourceTest, ASecondLoadTakesTheBuiltCodeObjectFromTheCache) {
  ASSERT_AG(load(anygpu_image_hip_portable_mixed, anygpu_image_hip_portable_mixed_size));
  unload();
  const std::map<std::string, ino_t> stored = cache_files();
  ASSERT_GE(stored.size(), 1u) << "the build was not stored";
  ASSERT_AG(load(anygpu_image_hip_portable_mixed, anygpu_image_hip_portable_mixed_size));
  unload();
  EXPECT_EQ(stored, cache_files()) << "the second load built and stored again";
}

TEST_F(HipPortableSourceTest, AnImageWithoutAPortableSourceNamesWhatItHolds) {
  const std::vector<unsigned char> gfx90a = test_kernels_code_object("gfx90a");
  if (gfx90a.empty()) GTEST_SKIP() << "this build has no gfx90a code object (no AMD kernels)";
  const std::vector<unsigned char> bundle = amd_bundle({gfx90a});
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, load(bundle.data(), bundle.size()));
  EXPECT_EQ(nullptr, module);
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("gfx1101")) << detail;
  EXPECT_EQ(std::string::npos, detail.find("portable source")) << detail;
}

TEST_F(HipPortableSourceTest, APortableSourceThatDoesNotCompileSaysWhy) {
  anygpu::PortableSource source;
  source.family = anygpu::kPortableFamilyAmdgcn;
  source.sources = {{"broken.cu", "__global__ void broken(int* p) { p[0] = undeclared_name; }\n"}};
  const std::vector<unsigned char> bundle = bundle_of(portable_bytes(source));
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, load(bundle.data(), bundle.size()));
  EXPECT_EQ(nullptr, module);
  const std::string detail = last_detail();
  EXPECT_NE(std::string::npos, detail.find("portable source broken.cu failed")) << detail;
  EXPECT_NE(std::string::npos, detail.find("undeclared_name")) << detail;
  EXPECT_EQ(detail.find("agModuleLoadData:"), detail.rfind("agModuleLoadData:")) << detail;
}

TEST_F(HipPortableSourceTest, AMalformedPortableSourceIsNotBuilt) {
  anygpu::PortableSource source;
  source.family = anygpu::kPortableFamilyAmdgcn;
  source.sources = {{"cut.cu", "__global__ void cut(int* p) { p[0] = 1; }\n"}};
  std::vector<unsigned char> bytes = portable_bytes(source);
  bytes.resize(bytes.size() - 5);  // the text is shorter than its size says
  const std::vector<unsigned char> bundle = bundle_of(bytes);
  EXPECT_EQ(AG_ERROR_NO_BINARY_FOR_DEVICE, load(bundle.data(), bundle.size()));
  EXPECT_EQ(nullptr, module);
  EXPECT_NE(std::string::npos, last_detail().find("malformed")) << last_detail();
}

}  // namespace
}  // namespace anygpu_test
