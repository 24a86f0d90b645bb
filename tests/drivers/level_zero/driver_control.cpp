// The control functions tests reach with dlsym (level_zero_test_driver_control.h).
#include <mutex>

#include "driver_state.h"
#include "level_zero_test_driver_control.h"

using namespace anygpu::level_zero_test_driver;

ANYGPU_L0_EXPORT int anygpu_l0_test_fail(const char* function, uint32_t result, int nth) {
  const int fn = function ? find_function(function) : -1;
  if (fn < 0 || result == 0 || nth < 1) return -1;
  std::lock_guard<std::mutex> lock(calls().mutex);
  calls().failures.push_back({fn, result, nth});
  calls().armed.fetch_add(1);
  return 0;
}

ANYGPU_L0_EXPORT void anygpu_l0_test_clear_failures(void) {
  std::lock_guard<std::mutex> lock(calls().mutex);
  calls().armed.fetch_sub(static_cast<int>(calls().failures.size()));
  calls().failures.clear();
}

ANYGPU_L0_EXPORT long anygpu_l0_test_calls(const char* function) {
  const int fn = function ? find_function(function) : -1;
  return fn < 0 ? -1 : calls().counts[fn].load();
}

ANYGPU_L0_EXPORT long anygpu_l0_test_live_objects(void) {
  return calls().live.load();
}
