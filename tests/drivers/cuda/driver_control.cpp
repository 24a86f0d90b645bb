// The control functions of cuda_test_driver_control.h, defined beside its declarations (global,
// C linkage) so that a definition whose signature differs does not compile.
#include "cuda_test_driver_control.h"

#include "driver_library.h"
#include "driver_objects.h"
#include "driver_state.h"

using anygpu::cuda_test_driver::Fn;
namespace driver = anygpu::cuda_test_driver;

ANYGPU_CUDA_TEST_API int anygpu_cuda_test_fail(const char* function, int result, int nth) {
  Fn fn;
  if (!driver::find_function(function, &fn)) return -1;
  return driver::inject_failure(fn, result, nth) ? 0 : -1;
}

ANYGPU_CUDA_TEST_API void anygpu_cuda_test_clear_failures(void) {
  driver::clear_failures();
}

ANYGPU_CUDA_TEST_API long anygpu_cuda_test_live_objects(void) {
  return driver::live_objects() + driver::live_libraries();
}

ANYGPU_CUDA_TEST_API long anygpu_cuda_test_calls(const char* function) {
  Fn fn;
  return driver::find_function(function, &fn) ? driver::call_count(fn) : -1;
}
