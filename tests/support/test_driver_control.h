// Tests' direct line to the test driver anygpu loaded (tests/drivers): the control functions every
// one of them exports under its prefix (<prefix>_fail, _clear_failures, _live_objects, _calls), the
// backend's devices, and any other symbol of the driver.
#pragma once

#include <anygpu/anygpu.h>
#include <gtest/gtest.h>

#include <string>

namespace anygpu_test {

class TestDriverControl {
 public:
  // Initialises anygpu, then finds the driver at `path` it loaded (RTLD_NOLOAD: the same copy),
  // whose control functions are named `prefix`_fail and so on.
  TestDriverControl(const char* path, const char* prefix);

  bool loaded() const { return handle_ != nullptr; }
  // The nth call from now (1: the next) of `function` returns `result` (the driver's own result
  // type) without doing anything.
  template <typename Result>
  void fail(const char* function, Result result, int nth = 1) const {
    auto control = reinterpret_cast<int (*)(const char*, Result, int)>(control_symbol("fail"));
    ASSERT_NE(nullptr, control);
    ASSERT_EQ(0, control(function, result, nth)) << "the test driver has no " << function;
  }
  void clear_failures() const;
  long live_objects() const;
  long calls(const char* function) const;

  // The index-th device of `backend`, nullptr without one.
  static ag_device device(ag_backend_kind backend, int index = 0);

  // The driver's entry point `name` as the application would call it (PFN: its pointer type);
  // a failed expectation and nullptr where it has none.
  template <typename PFN>
  PFN function(const char* name) const {
    return reinterpret_cast<PFN>(symbol(name));
  }

 protected:
  // The driver's `name`; a failed expectation where it has none.
  void* symbol(const char* name) const;

 private:
  void* control_symbol(const char* name) const { return symbol((prefix_ + "_" + name).c_str()); }
  void* handle_ = nullptr;
  std::string prefix_;
};

}  // namespace anygpu_test
