#include "driver_state.h"

#include <cstring>

#include "driver_calls.h"
#include "driver_environment.h"
#include "shim/core/environment.h"

namespace anygpu::hip_test_driver {
namespace {

using test_driver::parse_int;
using test_driver::split;

// clang-format off
constexpr const char* kNames[] = {
#define ANYGPU_HIP_TEST_NAME(symbol, name, result, parameters) #symbol,
  ANYGPU_HIP_REQUIRED_FUNCTIONS(ANYGPU_HIP_TEST_NAME)
  ANYGPU_HIP_OPTIONAL_FUNCTIONS(ANYGPU_HIP_TEST_NAME)
#undef ANYGPU_HIP_TEST_NAME
  "hipGetProcAddress",
};
// clang-format on
static_assert(sizeof kNames / sizeof kNames[0] == static_cast<size_t>(Fn::count));

void warn(const char* variable, const std::string& value, const char* why) {
  test_driver::warn(kDriverName, variable, value, why);
}

Config read_config() {
  Config c;
  c.runtime_version = variant().default_runtime_version;
  if (std::string arch = environment("ANYGPU_HIP_TEST_ARCH"); !arch.empty()) {
    AmdgpuTarget target;
    // As a device names itself: no "amdgcn-amd-amdhsa--" prefix.
    if (parse_amdgpu_target(arch, &target) && arch.rfind("gfx", 0) == 0)
      c.arch = arch;
    else
      warn("ANYGPU_HIP_TEST_ARCH", arch, "not a target id such as gfx90a:sramecc+:xnack-");
  }
  parse_amdgpu_target(c.arch, &c.target);
  long value = 0;
  if (std::string count = environment("ANYGPU_HIP_TEST_DEVICE_COUNT"); !count.empty()) {
    if (parse_int(count, 0, 64, &value))
      c.device_count = static_cast<int>(value);
    else
      warn("ANYGPU_HIP_TEST_DEVICE_COUNT", count, "not a number from 0 to 64");
  }
  if (std::string version = environment("ANYGPU_HIP_TEST_RUNTIME_VERSION"); !version.empty()) {
    if (parse_int(version, 10000000, 999999999, &value))
      c.runtime_version = static_cast<int>(value);
    else
      warn("ANYGPU_HIP_TEST_RUNTIME_VERSION", version, "not a HIP_VERSION such as 60200000");
  }
  c.kernels_path = environment("ANYGPU_HIP_TEST_KERNELS");
  for (const std::string& name : split(environment("ANYGPU_HIP_TEST_MISSING"), ',')) {
    Fn fn;
    if (name.empty()) continue;
    if (find_function(name.c_str(), &fn))
      c.missing.insert(function_name(fn));
    else
      warn("ANYGPU_HIP_TEST_MISSING", name, "not a function of this driver");
  }
  return c;
}

test_driver::CallTable& calls() {
  static auto* const table = new test_driver::CallTable(kDriverName, static_cast<int>(Fn::count));
  return *table;
}

// The environment is read when the library is loaded, as a test sets it before dlopen.
const bool environment_read = [] {
  config();
  calls().read_failures("ANYGPU_HIP_TEST_FAIL", environment("ANYGPU_HIP_TEST_FAIL"),
                        [](const std::string& name, int* fn) {
                          Fn found;
                          if (!find_function(name.c_str(), &found)) return false;
                          *fn = static_cast<int>(found);
                          return true;
                        });
  return true;
}();

}  // namespace

const char* function_name(Fn fn) {
  return kNames[static_cast<int>(fn)];
}

bool is_exported(Fn fn) {
  if (fn == Fn::hipGetProcAddress) return variant().has_proc_address;
  if (fn == Fn::hipGetDevicePropertiesR0600) return variant().has_r0600;
  if (const char* const* hidden = variant().hidden)
    for (; *hidden; ++hidden)
      if (strcmp(*hidden, function_name(fn)) == 0) return false;
  return true;
}

bool find_function(const char* name, Fn* fn) {
  if (!name) return false;
  for (int i = 0; i < static_cast<int>(Fn::count); ++i) {
    if (strcmp(name, kNames[i]) == 0 && is_exported(static_cast<Fn>(i))) {
      *fn = static_cast<Fn>(i);
      return true;
    }
  }
  return false;
}

const Config& config() {
  static const Config instance = read_config();
  return instance;
}

hipError_t enter(Fn fn) {
  return calls().enter(static_cast<int>(fn));
}

bool inject_failure(Fn fn, hipError_t result, int nth) {
  return calls().inject(static_cast<int>(fn), result, nth);
}

void clear_failures() {
  calls().clear();
}

long call_count(Fn fn) {
  return calls().calls(static_cast<int>(fn));
}

}  // namespace anygpu::hip_test_driver
