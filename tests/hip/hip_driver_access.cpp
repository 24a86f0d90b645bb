#include "hip_driver_access.h"

#include <gtest/gtest.h>

#include "hip_test_driver_control.h"

namespace anygpu_test {

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
