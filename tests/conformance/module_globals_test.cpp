// Module-scope variables on every device (kernels/module_globals.cpp): the host finds them with
// agModuleGetGlobal, writes them with an ordinary copy (cudaMemcpyToSymbol's port), launches a
// kernel that reads them and counts into one, and reads the count back.
#include <cstring>
#include <vector>

#include "test_support.h"

using namespace anygpu_test;

namespace {

class ModuleGlobalTest : public ::testing::TestWithParam<int> {
 protected:
  ag_device device = device_at(GetParam());

  // The variable `name`, which must have `bytes` bytes.
  void* global(ag_module module, const char* name, size_t bytes) {
    void* address = nullptr;
    size_t size = 0;
    EXPECT_EQ(AG_SUCCESS, agModuleGetGlobal(module, name, &address, &size))
        << name << ": " << last_detail();
    EXPECT_NE(nullptr, address) << name;
    EXPECT_EQ(bytes, size) << name;
    return address;
  }
};

float polynomial(const float c[4], float offset, float scale, float x) {
  return scale * (c[0] + x * (c[1] + x * (c[2] + x * c[3])) + offset);
}

TEST_P(ModuleGlobalTest, KernelReadsWhatTheHostWroteAndTheHostReadsTheCount) {
  TestModule module(device);
  ag_function kernel = module.function("globals_polynomial");
  void* coefficients = global(module.module(), "globals_coefficients", 4 * sizeof(float));
  void* offset = global(module.module(), "globals_offset", sizeof(float));
  void* counter = global(module.module(), "globals_counter", sizeof(unsigned));
  void* scale = global(module.module(), "_ZN10globals_ns5scaleE", sizeof(float));
  ASSERT_FALSE(HasFailure());
  // Powers of two and small integers: exact on every target, contracted or not.
  const float c[4] = {1.0f, 2.0f, 0.5f, 0.25f}, offset_value = 3.0f, scale_value = 2.0f;
  const unsigned start = 5;
  ASSERT_AG(agMemcpyHtoD(device, coefficients, c, sizeof c));
  ASSERT_AG(agMemcpyHtoD(device, offset, &offset_value, sizeof offset_value));
  ASSERT_AG(agMemcpyHtoD(device, scale, &scale_value, sizeof scale_value));
  ASSERT_AG(agMemcpyHtoD(device, counter, &start, sizeof start));
  // Read back as written: the address is device memory that copies reach both ways.
  float read_back[4] = {};
  ASSERT_AG(agMemcpyDtoH(device, read_back, coefficients, sizeof read_back));
  EXPECT_EQ(0, std::memcmp(c, read_back, sizeof c));

  int n = 300;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 8) - 4.0f;
  DeviceBuffer<float> dx(device, x), dy(device, n);
  void* params[] = {&n, dx.param(), dy.param()};
  ASSERT_AG(agLaunchKernel(kernel, 2, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> y = dy.download();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(polynomial(c, offset_value, scale_value, x[i]), y[i]) << "element " << i;
  unsigned count = 0;
  ASSERT_AG(agMemcpyDtoH(device, &count, counter, sizeof count));
  EXPECT_EQ(start + static_cast<unsigned>(n), count) << "one increment per thread that wrote";

  // A second launch, after the host changed the offset, sees the new value.
  const float new_offset = -1.0f;
  ASSERT_AG(agMemcpyHtoD(device, offset, &new_offset, sizeof new_offset));
  ASSERT_AG(agLaunchKernel(kernel, 2, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> again = dy.download();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(polynomial(c, new_offset, scale_value, x[i]), again[i]) << "element " << i;
  ASSERT_AG(agMemcpyDtoH(device, &count, counter, sizeof count));
  EXPECT_EQ(start + 2 * static_cast<unsigned>(n), count);
}

// The same, from CUDA source (tests/cuda_sources/module_variables.cu): __constant__ and __device__
// as CUDA spells them, a float3 argument array, a namespaced variable by its mangled name.
TEST_P(ModuleGlobalTest, CudaSourceConstantAndDeviceVariables) {
  TestModule module(device);
  ag_function kernel = module.function("_Z12weighted_sumiPK6float3Pf");
  void* weights = global(module.module(), "cuda_weights", 3 * sizeof(float));
  void* bias = global(module.module(), "cuda_bias", sizeof(float));
  void* calls = global(module.module(), "cuda_calls", sizeof(unsigned));
  void* sign = global(module.module(), "_ZN12cuda_sources9cuda_signE", sizeof(int));
  ASSERT_FALSE(HasFailure());
  const float w[3] = {0.5f, -2.0f, 4.0f}, bias_value = 1.25f;
  const int sign_value = -1;
  const unsigned zero = 0;
  ASSERT_AG(agMemcpyHtoD(device, weights, w, sizeof w));
  ASSERT_AG(agMemcpyHtoD(device, bias, &bias_value, sizeof bias_value));
  ASSERT_AG(agMemcpyHtoD(device, sign, &sign_value, sizeof sign_value));
  ASSERT_AG(agMemcpyHtoD(device, calls, &zero, sizeof zero));
  int n = 1000;
  std::vector<float> coordinates(3 * n);
  for (int i = 0; i < 3 * n; ++i) coordinates[i] = static_cast<float>(i % 9) - 4.0f;
  DeviceBuffer<float> points(device, coordinates), out(device, n);
  void* params[] = {&n, points.param(), out.param()};
  ASSERT_AG(agLaunchKernel(kernel, 4, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> result = out.download();
  for (int i = 0; i < n; ++i) {
    const float* p = &coordinates[3 * i];
    ASSERT_EQ(sign_value * (w[0] * p[0] + w[1] * p[1] + w[2] * p[2] + bias_value), result[i])
        << "point " << i;
  }
  unsigned count = 0;
  ASSERT_AG(agMemcpyDtoH(device, &count, calls, sizeof count));
  EXPECT_EQ(static_cast<unsigned>(n), count);
}

// The same name gives the same address while the module is loaded; an unknown one is
// AG_ERROR_NOT_FOUND on every backend, with nothing written.
TEST_P(ModuleGlobalTest, LookupIsStableAndUnknownNamesAreNotFound) {
  TestModule module(device);
  void* first = global(module.module(), "globals_counter", sizeof(unsigned));
  EXPECT_EQ(first, global(module.module(), "globals_counter", sizeof(unsigned)));
  EXPECT_NE(first, global(module.module(), "globals_offset", sizeof(float)));
  void* pointer = &pointer;
  size_t bytes = 12345;
  EXPECT_EQ(AG_ERROR_NOT_FOUND,
            agModuleGetGlobal(module.module(), "no_such_global", &pointer, &bytes));
  EXPECT_NE(std::string::npos, last_detail().find("no_such_global")) << last_detail();
  EXPECT_EQ(static_cast<void*>(&pointer), pointer);
  EXPECT_EQ(12345u, bytes);
  // A kernel is not a variable.
  EXPECT_EQ(AG_ERROR_NOT_FOUND,
            agModuleGetGlobal(module.module(), "globals_polynomial", &pointer, &bytes));
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(EveryDevice, ModuleGlobalTest, ::testing::ValuesIn(all_device_ordinals()),
                         device_test_name);
