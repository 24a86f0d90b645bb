// What the test driver is told when it is loaded (its environment and the build it is), and what
// tests do to it while it runs: failures injected into the next calls of a function, and each
// function's call count (tests/drivers/common/driver_calls.h).
#pragma once

#include <set>
#include <string>

#include "driver_api.h"
#include "shim/code_object/amdgpu_target.h"

namespace anygpu::hip_test_driver {

constexpr const char* kDriverName = "anygpu HIP test driver";

// One id per function: hip_api.h's lists in order, then hipGetProcAddress.
// clang-format off
enum class Fn : int {
#define ANYGPU_HIP_TEST_ID(symbol, name, result, parameters) symbol,
  ANYGPU_HIP_REQUIRED_FUNCTIONS(ANYGPU_HIP_TEST_ID)
  ANYGPU_HIP_OPTIONAL_FUNCTIONS(ANYGPU_HIP_TEST_ID)
#undef ANYGPU_HIP_TEST_ID
  hipGetProcAddress,
  count
};
// clang-format on

// The build: what each of tests/drivers/hip's libraries is (driver_variant.cpp, one per library).
struct Variant {
  const char* description;      // "HIP 6.2"
  int default_runtime_version;  // HIP_VERSION encoding: 60200000
  bool has_proc_address;        // exports hipGetProcAddress (HIP 6.2+)
  bool has_r0600;               // exports hipGetDevicePropertiesR0600 (HIP 6.0+)
  const char* const* hidden;    // required functions it does not export; nullptr-terminated
};
const Variant& variant();

// The exported name of `fn`: "hipMalloc".
const char* function_name(Fn fn);
// False for what this build does not export.
bool is_exported(Fn fn);
// The exported function a name denotes; false for none.
bool find_function(const char* name, Fn* fn);

// Read once, when the library is loaded.
struct Config {
  std::string arch = "gfx90a:sramecc+:xnack-";  // ANYGPU_HIP_TEST_ARCH: gcnArchName
  AmdgpuTarget target;                          // the same, parsed
  int device_count = 1;                         // ANYGPU_HIP_TEST_DEVICE_COUNT
  int runtime_version = 0;                      // ANYGPU_HIP_TEST_RUNTIME_VERSION
  std::string kernels_path;                     // ANYGPU_HIP_TEST_KERNELS
  std::set<std::string> missing;                // ANYGPU_HIP_TEST_MISSING
};
const Config& config();

// "major * 100 + minor" of a HIP_VERSION-encoded version (60200000 -> 602), as hipGetProcAddress
// takes versions.
inline int api_version(int runtime_version) {
  return runtime_version / 10000000 * 100 + runtime_version / 100000 % 100;
}

// Counts a call of `fn` and returns the failure injected for it that is due now, else hipSuccess.
// Every entry point starts with it (DRIVER_ENTRY), before anything else.
hipError_t enter(Fn fn);
#define DRIVER_ENTRY(fn) \
  if (const hipError_t injected = enter(Fn::fn)) return injected
// The same for the functions that return a string (hipGetErrorName, hipGetErrorString): an
// injected failure makes them return NULL, which a real runtime never does.
#define DRIVER_ENTRY_TEXT(fn) \
  if (enter(Fn::fn)) return nullptr

// The `nth` call of `fn` from now (1: the next) returns `result`, which must not be hipSuccess.
bool inject_failure(Fn fn, hipError_t result, int nth);
void clear_failures();
long call_count(Fn fn);

}  // namespace anygpu::hip_test_driver
