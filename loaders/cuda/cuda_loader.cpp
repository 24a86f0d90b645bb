#include "loaders/cuda/cuda_loader.h"

#include <dlfcn.h>

#include <cstring>

#include "loaders/cuda/cuda_result.h"
#include "loaders/dynamic_library.h"
#include "loaders/symbol_resolver.h"
#include "shim/support/string_format.h"

namespace anygpu::cuda {
namespace {

std::string init_failure(const CudaDriver& driver, CUresult result) {
  std::string reason = "cuInit failed: " + describe_cuda_result(result);
  if (result == CUDA_ERROR_STUB_LIBRARY)
    reason += " - " + driver.path +
              " is the CUDA toolkit's stub library, which stands in for the driver at link "
              "time only; no NVIDIA driver is installed";
  else if (result == CUDA_ERROR_NO_DEVICE)
    reason += " - the driver " + driver.path + " found no CUDA-capable device";
  return reason;
}

}  // namespace

std::string cuda_version_text(int version) {
  return strprintf("%d.%d", version / 1000, (version % 1000) / 10);
}

bool load_cuda_driver(CudaDriver* driver, std::string* reason) {
  const OpenedLibrary opened = open_library({"libcuda.so.1", "libcuda.so"}, "ANYGPU_CUDA_LIBRARY");
  driver->path = opened.path;
  if (!opened.handle) {
    *reason = "CUDA driver library not found: " + opened.error;
    return false;
  }
  // cuInit and cuDriverGetVersion have had one version since CUDA 2.0; dlsym finds them in any
  // driver, before anything else is asked of it.
  set_function(driver->fn.cuInit, dlsym(opened.handle, "cuInit"));
  set_function(driver->fn.cuDriverGetVersion, dlsym(opened.handle, "cuDriverGetVersion"));
  if (!driver->fn.cuInit || !driver->fn.cuDriverGetVersion) {
    *reason = opened.path + " exports no cuInit or cuDriverGetVersion: not a CUDA driver";
    return false;
  }
  if (CUresult result = driver->fn.cuInit(0)) {
    *reason = init_failure(*driver, result);
    return false;
  }
  if (CUresult result = driver->fn.cuDriverGetVersion(&driver->version)) {
    *reason = "cuDriverGetVersion failed: " + describe_cuda_result(result);
    return false;
  }
  if (driver->version < kMinimumDriverVersion) {
    *reason = "the CUDA driver " + opened.path + " supports CUDA " +
              cuda_version_text(driver->version) + "; anygpu needs CUDA " +
              cuda_version_text(kMinimumDriverVersion) + " or newer";
    return false;
  }

  const bool get_proc_address = dlsym(opened.handle, "cuGetProcAddress_v2") != nullptr;
  driver->through_get_proc_address = get_proc_address;
  const std::string missing = resolve_functions(driver->fn, cuda_symbol_lookup(opened.handle));
  if (!missing.empty()) {
    *reason = "the CUDA driver " + opened.path + " (CUDA " + cuda_version_text(driver->version) +
              ") lacks required functions: " + missing +
              (get_proc_address ? " (asked through cuGetProcAddress_v2 for CUDA " +
                                      cuda_version_text(kRequestedApiVersion) + ")"
                                : " (looked up with dlsym)");
    return false;
  }
  return true;
}

}  // namespace anygpu::cuda
