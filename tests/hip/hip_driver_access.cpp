#include "hip_driver_access.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include "hip_test_driver_control.h"

namespace anygpu_test {

HipDriverAccess::HipDriverAccess() {
  int count = 0;
  agDeviceGetCount(&count);  // initialises anygpu, which loads the driver
  handle_ = dlopen(ANYGPU_TEST_HIP_DRIVER_PATH, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(nullptr, handle_) << "anygpu did not load " << ANYGPU_TEST_HIP_DRIVER_PATH;
}

void* HipDriverAccess::symbol(const char* name) const {
  void* found = handle_ ? dlsym(handle_, name) : nullptr;
  EXPECT_NE(nullptr, found) << "the test driver lacks " << name;
  return found;
}

void HipDriverAccess::fail(const char* function, int result, int nth) const {
  auto control = reinterpret_cast<anygpu_hip_test_fail_fn>(symbol("anygpu_hip_test_fail"));
  ASSERT_NE(nullptr, control);
  ASSERT_EQ(0, control(function, result, nth)) << "the test driver has no " << function;
}

void HipDriverAccess::clear_failures() const {
  auto control =
      reinterpret_cast<anygpu_hip_test_clear_failures_fn>(symbol("anygpu_hip_test_clear_failures"));
  if (control) control();
}

long HipDriverAccess::live_objects() const {
  auto control =
      reinterpret_cast<anygpu_hip_test_live_objects_fn>(symbol("anygpu_hip_test_live_objects"));
  return control ? control() : -1;
}

long HipDriverAccess::calls(const char* function) const {
  auto control = reinterpret_cast<anygpu_hip_test_calls_fn>(symbol("anygpu_hip_test_calls"));
  return control ? control(function) : -1;
}

std::string HipDriverAccess::last_target(bool* from_bundle, long* bytes) const {
  auto control =
      reinterpret_cast<anygpu_hip_test_last_image_fn>(symbol("anygpu_hip_test_last_image"));
  char target[64] = "";
  int bundle = 0;
  const long size = control ? control(target, sizeof target, &bundle) : -1;
  if (from_bundle) *from_bundle = bundle != 0;
  if (bytes) *bytes = size;
  return target;
}

int HipDriverAccess::device_of(const void* pointer) const {
  auto control =
      reinterpret_cast<anygpu_hip_test_device_of_fn>(symbol("anygpu_hip_test_device_of"));
  return control ? control(pointer) : -1;
}

ag_device HipDriverAccess::hip_device(int index) const {
  int count = 0;
  agDeviceGetCount(&count);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    ag_device device = nullptr;
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (agDeviceGet(ordinal, &device) == AG_SUCCESS &&
        agDeviceGetProperties(device, &p) == AG_SUCCESS && p.backend == AG_BACKEND_HIP &&
        index-- == 0)
      return device;
  }
  return nullptr;
}

int HipDriverAccess::current_device() const {
  auto get = reinterpret_cast<int (*)(int*)>(symbol("hipGetDevice"));
  int device = -1;
  EXPECT_EQ(0, get ? get(&device) : -1);
  return device;
}

void HipDriverAccess::set_current_device(int device) const {
  auto set = reinterpret_cast<int (*)(int)>(symbol("hipSetDevice"));
  EXPECT_EQ(0, set ? set(device) : -1);
}

}  // namespace anygpu_test
