// The control functions of hip_test_driver_control.h, defined beside its declarations (global,
// C linkage) so that a definition whose signature differs does not compile.
#include "hip_test_driver_control.h"

#include <cstring>

#include "driver_modules.h"
#include "driver_objects.h"
#include "driver_state.h"

using anygpu::hip_test_driver::Fn;
namespace driver = anygpu::hip_test_driver;

ANYGPU_HIP_TEST_API int anygpu_hip_test_fail(const char* function, int result, int nth) {
  Fn fn;
  if (!driver::find_function(function, &fn)) return -1;
  return driver::inject_failure(fn, result, nth) ? 0 : -1;
}

ANYGPU_HIP_TEST_API void anygpu_hip_test_clear_failures(void) {
  driver::clear_failures();
}

ANYGPU_HIP_TEST_API long anygpu_hip_test_live_objects(void) {
  return driver::live_objects();
}

ANYGPU_HIP_TEST_API long anygpu_hip_test_calls(const char* function) {
  Fn fn;
  return driver::find_function(function, &fn) ? driver::call_count(fn) : -1;
}

ANYGPU_HIP_TEST_API long anygpu_hip_test_last_image(char* target_id, size_t capacity,
                                                    int* from_bundle) {
  const driver::LoadedImage last = driver::last_loaded_image();
  if (target_id && capacity) {
    const size_t length = std::min(last.target.size(), capacity - 1);
    memcpy(target_id, last.target.data(), length);
    target_id[length] = '\0';
  }
  if (from_bundle) *from_bundle = last.from_bundle;
  return last.target.empty() ? -1 : static_cast<long>(last.bytes);
}

ANYGPU_HIP_TEST_API int anygpu_hip_test_device_of(const void* pointer) {
  driver::Objects& o = driver::objects();
  std::lock_guard<std::mutex> lock(o.mutex);
  return o.device_of(pointer);
}
