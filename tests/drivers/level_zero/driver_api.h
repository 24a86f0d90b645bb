// The Level Zero entry points the driver implements, which driver_tables.cpp hands the loader.
#pragma once

#include <cstdint>
#include <type_traits>

#include "driver_state.h"

namespace anygpu::level_zero_test_driver {

// The device's limits: reported by zeDeviceGetComputeProperties, enforced on kernels and launches.
constexpr uint32_t kMaxGroupSize = 1024;
constexpr uint32_t kMaxGroupSizeDim[3] = {1024, 1024, 64};
constexpr uint32_t kMaxGroupCount[3] = {2147483647u, 65535, 65535};
constexpr uint32_t kSharedLocalMemory = 65536;

// Every entry point the driver implements (ANYGPU_L0_TEST_FUNCTIONS), declared with the type
// level_zero_api.h gives it (PFN_<symbol>). A definition whose signature differs would be another
// function, which driver_tables.cpp's put() could not tell from this one: it does not compile.
#define ANYGPU_L0_TEST_DECLARE(symbol) std::remove_pointer_t<PFN_##symbol> symbol;
ANYGPU_L0_TEST_FUNCTIONS(ANYGPU_L0_TEST_DECLARE)
#undef ANYGPU_L0_TEST_DECLARE

}  // namespace anygpu::level_zero_test_driver
