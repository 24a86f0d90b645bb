#include "driver_state.h"

#include <cstring>

#include "driver_calls.h"
#include "driver_environment.h"
#include "shim/core/environment.h"

namespace anygpu::cuda_test_driver {
namespace {

// clang-format off
constexpr FunctionInfo kFunctions[] = {
#define ANYGPU_CUDA_TEST_INFO(symbol, name, result, parameters) {#symbol, #name},
  ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_CUDA_TEST_INFO)
  ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_CUDA_TEST_INFO)
  ANYGPU_CUDA_RUNTIME_FUNCTIONS(ANYGPU_CUDA_TEST_INFO)
#undef ANYGPU_CUDA_TEST_INFO
  {"cuGetProcAddress_v2", "cuGetProcAddress"},
};
// clang-format on
static_assert(sizeof kFunctions / sizeof kFunctions[0] == static_cast<size_t>(Fn::count));

using test_driver::parse_int;
using test_driver::split;

void warn(const char* variable, const std::string& value, const char* why) {
  test_driver::warn(kDriverName, variable, value, why);
}

Config read_config() {
  Config c;
  if (std::string sm = environment("ANYGPU_CUDA_TEST_SM"); !sm.empty()) {
    CudaArch arch;
    if (parse_cuda_arch(sm, &arch) && arch.suffix == 0 && sm.rfind("sm_", 0) == 0)
      c.arch = arch;
    else
      warn("ANYGPU_CUDA_TEST_SM", sm, "not an sm_XY architecture");
  }
  long value = 0;
  if (std::string count = environment("ANYGPU_CUDA_TEST_DEVICE_COUNT"); !count.empty()) {
    if (parse_int(count, 0, 64, &value))
      c.device_count = static_cast<int>(value);
    else
      warn("ANYGPU_CUDA_TEST_DEVICE_COUNT", count, "not a number from 0 to 64");
  }
  if (std::string version = environment("ANYGPU_CUDA_TEST_DRIVER_VERSION"); !version.empty()) {
    if (parse_int(version, 1000, 99990, &value))
      c.driver_version = static_cast<int>(value);
    else
      warn("ANYGPU_CUDA_TEST_DRIVER_VERSION", version, "not a version such as 12040");
  }
  c.kernels_path = environment("ANYGPU_CUDA_TEST_KERNELS");
  // Lazy unless asked otherwise, on a driver that has it (the version it reports).
  const std::string loading = environment("CUDA_MODULE_LOADING");
  if (!loading.empty() && loading != "EAGER" && loading != "LAZY")
    warn("CUDA_MODULE_LOADING", loading, "neither EAGER nor LAZY");
  c.lazy_loading = loading != "EAGER" && c.driver_version >= 12020;
  for (const std::string& name : split(environment("ANYGPU_CUDA_TEST_MISSING"), ',')) {
    Fn fn;
    if (name.empty()) continue;
    if (find_function(name.c_str(), &fn))
      c.missing.insert(function_info(fn).name);
    else
      warn("ANYGPU_CUDA_TEST_MISSING", name, "not a function of this driver");
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
  calls().read_failures("ANYGPU_CUDA_TEST_FAIL", environment("ANYGPU_CUDA_TEST_FAIL"),
                        [](const std::string& name, int* fn) {
                          Fn found;
                          if (!find_function(name.c_str(), &found)) return false;
                          *fn = static_cast<int>(found);
                          return true;
                        });
  return true;
}();

}  // namespace

const FunctionInfo& function_info(Fn fn) {
  return kFunctions[static_cast<int>(fn)];
}

bool is_exported(Fn fn) {
  if (fn == Fn::cuFuncGetParamInfo) return kHasParamInfo;
  if (fn == Fn::cuGetProcAddress_v2) return kHasProcAddress;
  if (fn >= Fn::cuGetExportTable && fn < Fn::cuGetProcAddress_v2) return kHasRuntimeFunctions;
  return true;
}

bool find_function(const char* name, Fn* fn) {
  if (!name) return false;
  for (int i = 0; i < static_cast<int>(Fn::count); ++i) {
    if (!is_exported(static_cast<Fn>(i))) continue;
    if (strcmp(name, kFunctions[i].symbol) == 0 || strcmp(name, kFunctions[i].name) == 0) {
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

CUresult enter(Fn fn) {
  return static_cast<CUresult>(calls().enter(static_cast<int>(fn)));
}

bool inject_failure(Fn fn, CUresult result, int nth) {
  return calls().inject(static_cast<int>(fn), result, nth);
}

void clear_failures() {
  calls().clear();
}

long call_count(Fn fn) {
  return calls().calls(static_cast<int>(fn));
}

}  // namespace anygpu::cuda_test_driver
