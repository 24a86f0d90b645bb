#include "loaders/hip/hip_loader.h"

#include <dlfcn.h>

#include <cstring>
#include <vector>

#include "loaders/dynamic_library.h"
#include "loaders/hip/hip_result.h"
#include "loaders/symbol_resolver.h"
#include "shim/core/environment.h"
#include "shim/support/string_format.h"

namespace anygpu::hip {
namespace {

constexpr const char* kOverrideEnv = "ANYGPU_HIP_LIBRARY";

const std::vector<std::string>& candidates() {
  static const std::vector<std::string> names = {"libamdhip64.so.6", "libamdhip64.so.5",
                                                 "libamdhip64.so", "/opt/rocm/lib/libamdhip64.so"};
  return names;
}

// A process holds one HIP runtime: when the application has loaded any of the candidates
// already, that copy is used, whichever comes first in the list. Otherwise the newest that opens.
OpenedLibrary open_hip_library() {
  if (environment(kOverrideEnv).empty()) {
    for (const std::string& name : candidates()) {
      if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
        OpenedLibrary opened;
        opened.handle = handle;
        opened.path = name;
        return opened;
      }
    }
  }
  return open_library(candidates(), kOverrideEnv);
}

// hipInit's error, and what hipGetDeviceCount says on top: without a GPU HIP 5.2's hipInit answers
// hipErrorInvalidDevice (101) and hipGetDeviceCount hipErrorNoDevice (100).
std::string init_failure(const HipRuntime& runtime, void* library, hipError_t result) {
  std::string reason = "hipInit failed: " + describe_hip_result(result);
  PFN_hipGetDeviceCount get_device_count = nullptr;
  set_function(get_device_count, dlsym(library, "hipGetDeviceCount"));
  int count = 0;
  const hipError_t count_result = get_device_count ? get_device_count(&count) : hipSuccess;
  if (count_result == hipErrorNoDevice ||
      (count_result == hipSuccess && get_device_count && count == 0))
    reason += "; hipGetDeviceCount: " +
              (count_result == hipSuccess ? std::string("0 devices")
                                          : describe_hip_result(count_result)) +
              " - the HIP runtime " + runtime.path + " (HIP " +
              hip_version_text(runtime.runtime_version) + ") found no AMD GPU";
  else if (count_result != hipSuccess)
    reason += "; hipGetDeviceCount: " + describe_hip_result(count_result);
  return reason;
}

}  // namespace

std::string hip_version_text(int version) {
  return strprintf("%d.%d", version / 10000000, (version / 100000) % 100);
}

bool load_hip_runtime(HipRuntime* runtime, std::string* reason) {
  const OpenedLibrary opened = open_hip_library();
  runtime->path = opened.path;
  if (!opened.handle) {
    *reason = "HIP runtime library not found: " + opened.error;
    return false;
  }
  // hipInit and the version queries are looked up with dlsym, before anything else is asked of
  // the library; hipRuntimeGetVersion answers before hipInit.
  set_function(runtime->fn.hipInit, dlsym(opened.handle, "hipInit"));
  set_function(runtime->fn.hipRuntimeGetVersion, dlsym(opened.handle, "hipRuntimeGetVersion"));
  if (!runtime->fn.hipInit || !runtime->fn.hipRuntimeGetVersion) {
    *reason = opened.path + " exports no hipInit or hipRuntimeGetVersion: not a HIP runtime";
    return false;
  }
  if (hipError_t result = runtime->fn.hipRuntimeGetVersion(&runtime->runtime_version)) {
    *reason = "hipRuntimeGetVersion failed: " + describe_hip_result(result);
    return false;
  }
  if (runtime->runtime_version < kMinimumRuntimeVersion) {
    *reason = "the HIP runtime " + opened.path + " is HIP " +
              hip_version_text(runtime->runtime_version) + "; anygpu needs HIP " +
              hip_version_text(kMinimumRuntimeVersion) + " or newer";
    return false;
  }
  if (hipError_t result = runtime->fn.hipInit(0)) {
    *reason = init_failure(*runtime, opened.handle, result);
    return false;
  }

  const bool get_proc_address = dlsym(opened.handle, "hipGetProcAddress") != nullptr;
  runtime->through_get_proc_address = get_proc_address;
  const std::string missing = resolve_functions(runtime->fn, hip_symbol_lookup(opened.handle));
  if (!missing.empty()) {
    *reason = "the HIP runtime " + opened.path + " (HIP " +
              hip_version_text(runtime->runtime_version) +
              ") lacks required functions: " + missing +
              (get_proc_address ? strprintf(" (asked through hipGetProcAddress for HIP %d.%d)",
                                            kRequestedApiVersion / 100, kRequestedApiVersion % 100)
                                : std::string(" (looked up with dlsym)"));
    return false;
  }
  if (hipError_t result = runtime->fn.hipDriverGetVersion(&runtime->driver_version)) {
    *reason = "hipDriverGetVersion failed: " + describe_hip_result(result);
    return false;
  }
  return true;
}

}  // namespace anygpu::hip
