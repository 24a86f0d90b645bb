// Tests' direct line to the HIP test driver anygpu loaded: its control functions (failures to
// inject, live objects, call counts: TestDriverControl; the last code object loaded, which device
// an allocation is on) and the calling thread's current HIP device, as an application would see it.
#pragma once

#include <anygpu/anygpu.h>

#include <string>

#include "test_driver_control.h"

namespace anygpu_test {

class HipDriverAccess : public TestDriverControl {
 public:
  // Initialises anygpu, then finds the driver it loaded (RTLD_NOLOAD: the same copy).
  HipDriverAccess() : TestDriverControl(ANYGPU_TEST_DRIVER_PATH, "anygpu_hip_test") {}

  // The target id of the code object the driver last loaded ("" before any), whether it came in
  // an offload bundle, and its size (-1 before any).
  std::string last_target(bool* from_bundle = nullptr, long* bytes = nullptr) const;
  // The driver's device of the allocation holding `pointer`; -1 for none.
  int device_of(const void* pointer) const;

  // The index-th device of the HIP backend, nullptr without one.
  ag_device hip_device(int index = 0) const { return device(AG_BACKEND_HIP, index); }

  // hipGetDevice and hipSetDevice on the calling thread.
  int current_device() const;
  void set_current_device(int device) const;
};

}  // namespace anygpu_test
