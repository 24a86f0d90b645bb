#include "test_driver_control.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

namespace anygpu_test {

TestDriverControl::TestDriverControl(const char* path, const char* prefix) : prefix_(prefix) {
  int count = 0;
  agDeviceGetCount(&count);  // initialises anygpu, which loads the driver
  handle_ = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(nullptr, handle_) << "anygpu did not load " << path;
}

void* TestDriverControl::symbol(const char* name) const {
  void* found = handle_ ? dlsym(handle_, name) : nullptr;
  EXPECT_NE(nullptr, found) << "the test driver lacks " << name;
  return found;
}

void TestDriverControl::clear_failures() const {
  auto control = reinterpret_cast<void (*)()>(control_symbol("clear_failures"));
  if (control) control();
}

long TestDriverControl::live_objects() const {
  auto control = reinterpret_cast<long (*)()>(control_symbol("live_objects"));
  return control ? control() : -1;
}

long TestDriverControl::calls(const char* function) const {
  auto control = reinterpret_cast<long (*)(const char*)>(control_symbol("calls"));
  return control ? control(function) : -1;
}

ag_device TestDriverControl::device(ag_backend_kind backend, int index) {
  int count = 0;
  agDeviceGetCount(&count);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    ag_device device = nullptr;
    ag_device_properties p{};
    p.struct_size = sizeof p;
    if (agDeviceGet(ordinal, &device) == AG_SUCCESS &&
        agDeviceGetProperties(device, &p) == AG_SUCCESS && p.backend == backend && index-- == 0)
      return device;
  }
  return nullptr;
}

}  // namespace anygpu_test
