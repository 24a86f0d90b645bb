// hipError_t names and their ag_result mapping (loaders/hip/hip_result.h), and the names checked
// against a real HIP runtime's hipGetErrorName where libamdhip64 is installed.
#include "loaders/hip/hip_result.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "shim/core/error.h"

namespace {

using namespace anygpu::hip;

bool contains(const char* text, const char* part) {
  return std::string(text).find(part) != std::string::npos;
}

TEST(HipResult, DescribesKnownAndUnknownValues) {
  EXPECT_EQ(describe_hip_result(hipErrorNoDevice), "hipErrorNoDevice (100)");
  EXPECT_EQ(describe_hip_result(hipErrorInvalidDevice), "hipErrorInvalidDevice (101)");
  EXPECT_EQ(describe_hip_result(12345), "hipError_t 12345");
  EXPECT_EQ(hip_result_name(12345), nullptr);
}

TEST(HipResult, FailRecordsTheCallAndTheName) {
  anygpu::clear_last_error_detail();
  EXPECT_EQ(hip_fail(hipErrorOutOfMemory, "hipMalloc"), AG_ERROR_OUT_OF_MEMORY);
  EXPECT_TRUE(contains(anygpu::last_error_detail(), "hipMalloc failed: hipErrorOutOfMemory (2)"))
      << anygpu::last_error_detail();
  EXPECT_EQ(hip_fail(hipErrorNotFound, "hipModuleGetFunction", "kernel saxpy"), AG_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(anygpu::last_error_detail(),
                       "hipModuleGetFunction failed: hipErrorNotFound (500): kernel saxpy"))
      << anygpu::last_error_detail();
  anygpu::clear_last_error_detail();
  EXPECT_EQ(hip_fail(hipSuccess, "hipFree"), AG_SUCCESS);
  EXPECT_STREQ(anygpu::last_error_detail(), "");
}

TEST(HipResult, MapsEveryValue) {
  EXPECT_EQ(map_hip_result(hipSuccess), AG_SUCCESS);
  EXPECT_EQ(map_hip_result(hipErrorInvalidValue), AG_ERROR_INVALID_VALUE);
  EXPECT_EQ(map_hip_result(hipErrorNotInitialized), AG_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(map_hip_result(hipErrorNoDevice), AG_ERROR_NO_DEVICE);
  EXPECT_EQ(map_hip_result(hipErrorInvalidDevice), AG_ERROR_INVALID_DEVICE);
  EXPECT_EQ(map_hip_result(hipErrorInvalidImage), AG_ERROR_INVALID_IMAGE);
  EXPECT_EQ(map_hip_result(hipErrorNoBinaryForGpu), AG_ERROR_NO_BINARY_FOR_DEVICE);
  EXPECT_EQ(map_hip_result(hipErrorInvalidHandle), AG_ERROR_INVALID_HANDLE);
  EXPECT_EQ(map_hip_result(hipErrorNotReady), AG_ERROR_NOT_READY);
  EXPECT_EQ(map_hip_result(701), AG_ERROR_INVALID_CONFIGURATION);  // LaunchOutOfResources
  EXPECT_EQ(map_hip_result(719), AG_ERROR_LAUNCH_FAILED);          // LaunchFailure
  EXPECT_EQ(map_hip_result(hipErrorNotSupported), AG_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(map_hip_result(hipErrorUnknown), AG_ERROR_BACKEND_FAILURE);
  EXPECT_EQ(map_hip_result(12345), AG_ERROR_BACKEND_FAILURE);
  // Every named failure maps to a failure.
  std::set<std::string> names;
  for (int value = 1; value < 2000; ++value) {
    if (const char* name = hip_result_name(value)) {
      EXPECT_TRUE(names.insert(name).second) << name << " named twice";
      EXPECT_NE(map_hip_result(value), AG_SUCCESS) << name;
    }
  }
  EXPECT_GE(names.size(), 70u);
}

// The table agrees with the runtime's own hipGetErrorName for every value both know. No hipInit
// is needed (the names are a static table in the runtime).
TEST(HipResult, NamesMatchAnInstalledRuntime) {
  void* library = nullptr;
  for (const char* name : {"libamdhip64.so.6", "libamdhip64.so.5"})
    if ((library = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  if (!library) GTEST_SKIP() << "no libamdhip64 installed";
  auto get_error_name = reinterpret_cast<PFN_hipGetErrorName>(dlsym(library, "hipGetErrorName"));
  ASSERT_NE(get_error_name, nullptr);
  int compared = 0;
  for (int value = 0; value < 2000; ++value) {
    const char* ours = hip_result_name(value);
    const char* theirs = get_error_name(value);
    if (!ours || !theirs || std::string(theirs) == "hipErrorUnknown") continue;
    EXPECT_STREQ(ours, theirs) << "hipError_t " << value;
    ++compared;
  }
  EXPECT_GE(compared, 50);
}

}  // namespace
