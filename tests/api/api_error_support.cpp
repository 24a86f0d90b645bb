#include "api_error_support.h"

namespace api_test {
namespace {

std::string name_of(ag_result result) {
  const char* name = nullptr;
  if (agGetErrorName(result, &name) == AG_SUCCESS && name) return name;
  return "ag_result " + std::to_string(static_cast<int>(result));
}

}  // namespace

std::string function_of(const char* expression) {
  std::string text(expression);
  text = text.substr(0, text.find('('));
  text.erase(0, text.find_first_not_of(" \t\n"));
  text.erase(text.find_last_not_of(" \t\n") + 1);
  return text;
}

::testing::AssertionResult fails_with(ag_result expected, const std::string& function,
                                      const std::function<ag_result()>& call) {
  if (agClearLastErrorDetail() != AG_SUCCESS)
    return ::testing::AssertionFailure() << "agClearLastErrorDetail failed";
  const ag_result result = call();
  const std::string detail = anygpu_test::last_detail();
  if (result != expected)
    return ::testing::AssertionFailure()
           << function << " returned " << name_of(result) << ", expected " << name_of(expected)
           << " (detail: \"" << detail << "\")";
  if (detail.rfind(function + ": ", 0) != 0)
    return ::testing::AssertionFailure()
           << function << " returned " << name_of(result) << " but its detail \"" << detail
           << "\" does not start with \"" << function << ": \"";
  return ::testing::AssertionSuccess();
}

void ApiErrorTest::SetUp() {
  device = anygpu_test::cpu_device();
  ASSERT_NE(nullptr, device);
  properties.struct_size = sizeof properties;
  ASSERT_AG(agDeviceGetProperties(device, &properties));
  ASSERT_AG(agStreamCreate(device, 0, &stream));
  ASSERT_AG(agEventCreate(device, 0, &event));
  module = std::make_unique<anygpu_test::TestModule>(device);
  saxpy = module->function("saxpy");
  ASSERT_NE(nullptr, saxpy);

  ASSERT_AG(agStreamCreate(device, 0, &dead_stream));
  ASSERT_AG(agStreamDestroy(dead_stream));
  ASSERT_AG(agEventCreate(device, 0, &dead_event));
  ASSERT_AG(agEventDestroy(dead_event));
  ASSERT_AG(agModuleLoadData(device, anygpu_image_test_kernels, anygpu_image_test_kernels_size,
                             &dead_module));
  ASSERT_AG(agModuleGetFunction(dead_module, "saxpy", &dead_function));
  ASSERT_AG(agModuleUnload(dead_module));
}

void ApiErrorTest::TearDown() {
  // The live handles must have survived every failed call made with them.
  if (stream) {
    EXPECT_AG(agStreamDestroy(stream));
  }
  if (event) {
    EXPECT_AG(agEventDestroy(event));
  }
  module.reset();
}

}  // namespace api_test
