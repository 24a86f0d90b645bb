// Which of tests/drivers/hip's libraries this is, chosen by ANYGPU_HIP_TEST_VARIANT when it is
// compiled (CMakeLists.txt); the rest of the driver is the same objects in each. What a library
// exports is its version script's business; this says the same in words the driver reads.
#include "driver_state.h"

namespace anygpu::hip_test_driver {
namespace {

#if ANYGPU_HIP_TEST_VARIANT == 6
// libamdhip64.so.6: HIP 6.2, with hipGetProcAddress and hipGetDevicePropertiesR0600.
const Variant kVariant{"HIP 6.2", 60200000, true, true, nullptr};
#elif ANYGPU_HIP_TEST_VARIANT == 5
// hip5/libamdhip64.so.5: HIP 5.3, neither of them: everything is found with dlsym, and the
// properties come in HIP 5's layout.
const Variant kVariant{"HIP 5.3", 50322000, false, false, nullptr};
#elif ANYGPU_HIP_TEST_VARIANT == 0
// incomplete/libamdhip64.so.5: HIP 5.3 without two required functions, so that a loader that
// uses dlsym meets a missing symbol (hip_test_driver_incomplete.map hides the same two).
const char* const kHidden[] = {"hipMemsetD8Async", "hipModuleLaunchKernel", nullptr};
const Variant kVariant{"HIP 5.3 (incomplete)", 50322000, false, false, kHidden};
#else
#error "ANYGPU_HIP_TEST_VARIANT must be 6, 5 or 0"
#endif

}  // namespace

const Variant& variant() {
  return kVariant;
}

}  // namespace anygpu::hip_test_driver
