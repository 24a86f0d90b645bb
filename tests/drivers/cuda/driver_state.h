// What the test driver is told when it is loaded (its environment), and what tests do to it while
// it runs: failures injected into the next calls of a function, and each function's call count.
#pragma once

#include <set>
#include <string>

#include "driver_api.h"
#include "shim/code_object/cuda_arch.h"

namespace anygpu::cuda_test_driver {

// How the driver names itself in what it says on stderr.
constexpr const char* kDriverName = "anygpu CUDA test driver";

// One id per exported function: cuda_api.h's backend lists in order, the CUDA Runtime's, then
// cuGetProcAddress_v2.
// clang-format off
enum class Fn : int {
#define ANYGPU_CUDA_TEST_ID(symbol, name, result, parameters) symbol,
  ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_CUDA_TEST_ID)
  ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_CUDA_TEST_ID)
  ANYGPU_CUDA_RUNTIME_FUNCTIONS(ANYGPU_CUDA_TEST_ID)
#undef ANYGPU_CUDA_TEST_ID
  cuGetProcAddress_v2,
  count
};
// clang-format on

struct FunctionInfo {
  const char* symbol;  // the exported, versioned name: "cuMemAlloc_v2"
  const char* name;    // the name cuGetProcAddress takes: "cuMemAlloc"
};
const FunctionInfo& function_info(Fn fn);
// False for what this build leaves out (the old driver's cuGetProcAddress_v2, cuFuncGetParamInfo
// and the CUDA Runtime's functions).
bool is_exported(Fn fn);
// The exported function a versioned or base name denotes; false for none.
bool find_function(const char* name, Fn* fn);

// Read once, when the library is loaded.
struct Config {
  CudaArch arch{90, 0};                        // ANYGPU_CUDA_TEST_SM
  int device_count = 1;                        // ANYGPU_CUDA_TEST_DEVICE_COUNT
  int driver_version = kDefaultDriverVersion;  // ANYGPU_CUDA_TEST_DRIVER_VERSION
  std::string kernels_path;                    // ANYGPU_CUDA_TEST_KERNELS
  std::set<std::string> missing;               // ANYGPU_CUDA_TEST_MISSING, as base names
  // CUDA_MODULE_LOADING, as a real driver reads it: under LAZY (the default from CUDA 12.2 on) a
  // module's kernel loads when first used (cuFuncLoad or its first launch; cuModuleGetFunction on
  // CUDA 12.2 and 12.3), under EAGER (a driver before 12.2 knows no other) with the module.
  bool lazy_loading = kDefaultDriverVersion >= 12020;
};
const Config& config();

// Counts a call of `fn` and returns the failure injected for it that is due now, else
// CUDA_SUCCESS. Every entry point starts with it (DRIVER_ENTRY), before anything else.
CUresult enter(Fn fn);
#define DRIVER_ENTRY(fn) \
  if (const CUresult injected = enter(Fn::fn)) return injected

// The `nth` call of `fn` from now (1: the next) returns `result`, which must not be CUDA_SUCCESS.
// False for nth < 1 or result CUDA_SUCCESS.
bool inject_failure(Fn fn, CUresult result, int nth);
void clear_failures();
long call_count(Fn fn);

}  // namespace anygpu::cuda_test_driver
