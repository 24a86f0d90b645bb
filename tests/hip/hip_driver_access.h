// Tests' direct line to the HIP test driver anygpu loaded: its control functions (failures to
// inject, live objects, call counts, the last code object loaded, which device an allocation is
// on) and the calling thread's current HIP device, as an application would see it.
#pragma once

#include <anygpu/anygpu.h>

#include <string>

namespace anygpu_test {

class HipDriverAccess {
 public:
  // Initialises anygpu, then finds the driver it loaded (RTLD_NOLOAD: the same copy).
  HipDriverAccess();

  bool loaded() const { return handle_ != nullptr; }
  // The nth call from now (1: the next) of `function` returns `result` without doing anything.
  void fail(const char* function, int result, int nth = 1) const;
  void clear_failures() const;
  long live_objects() const;
  long calls(const char* function) const;
  // The target id of the code object the driver last loaded ("" before any), whether it came in
  // an offload bundle, and its size (-1 before any).
  std::string last_target(bool* from_bundle = nullptr, long* bytes = nullptr) const;
  // The driver's device of the allocation holding `pointer`; -1 for none.
  int device_of(const void* pointer) const;

  // The index-th device of the HIP backend, nullptr without one.
  ag_device hip_device(int index = 0) const;

  // hipGetDevice and hipSetDevice on the calling thread.
  int current_device() const;
  void set_current_device(int device) const;

 private:
  void* symbol(const char* name) const;
  void* handle_ = nullptr;
};

}  // namespace anygpu_test
