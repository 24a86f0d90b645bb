#include "test_support.h"

namespace anygpu_test {

std::string last_detail() {
  const char* detail = "";
  agGetLastErrorDetail(&detail);
  return detail ? detail : "";
}

std::vector<int> all_device_ordinals() {
  int count = 0;
  std::vector<int> ordinals;
  if (agDeviceGetCount(&count) == AG_SUCCESS)
    for (int i = 0; i < count; ++i) ordinals.push_back(i);
  return ordinals;
}

std::string device_test_name(const ::testing::TestParamInfo<int>& info) {
  ag_device device = nullptr;
  ag_device_properties p{};
  p.struct_size = sizeof p;
  std::string backend = "device";
  if (agDeviceGet(info.param, &device) == AG_SUCCESS &&
      agDeviceGetProperties(device, &p) == AG_SUCCESS) {
    switch (p.backend) {
      case AG_BACKEND_CUDA:
        backend = "cuda";
        break;
      case AG_BACKEND_HIP:
        backend = "hip";
        break;
      case AG_BACKEND_LEVEL_ZERO:
        backend = "level_zero";
        break;
      case AG_BACKEND_CPU:
        backend = "cpu";
        break;
    }
  }
  return backend + std::to_string(info.param);
}

ag_device device_at(int ordinal) {
  ag_device device = nullptr;
  EXPECT_EQ(AG_SUCCESS, agDeviceGet(ordinal, &device)) << last_detail();
  return device;
}

ag_device cpu_device() {
  for (int ordinal : all_device_ordinals()) {
    ag_device device = device_at(ordinal);
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (agDeviceGetProperties(device, &p) == AG_SUCCESS && p.backend == AG_BACKEND_CPU)
      return device;
  }
  ADD_FAILURE() << "no CPU device";
  return nullptr;
}

TestModule::TestModule(ag_device device) {
  EXPECT_EQ(AG_SUCCESS, agModuleLoadData(device, anygpu_image_test_kernels,
                                         anygpu_image_test_kernels_size, &module_))
      << last_detail();
}

TestModule::~TestModule() {
  if (module_) {
    EXPECT_EQ(AG_SUCCESS, agModuleUnload(module_)) << last_detail();
  }
}

ag_function TestModule::function(const char* name) {
  ag_function function = nullptr;
  EXPECT_EQ(AG_SUCCESS, agModuleGetFunction(module_, name, &function))
      << name << ": " << last_detail();
  return function;
}

}  // namespace anygpu_test
