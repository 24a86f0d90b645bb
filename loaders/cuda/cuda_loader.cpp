#include "cuda_loader.h"

#include <dlfcn.h>

#include <cstring>

#include "../../shim/string_format.h"
#include "../dynamic_library.h"
#include "cuda_result.h"

namespace anygpu::cuda {
namespace {

// The API version a function is asked for: the common one, or the release that introduced a
// newer optional function (the driver answers "version not sufficient" below it).
int api_version(const char* base_name) {
  if (strcmp(base_name, "cuFuncGetParamInfo") == 0) return 12040;
  return kRequestedApiVersion;
}

// How one entry point is found: the driver's cuGetProcAddress_v2 answers for the base name at
// the pinned API version (so "cuMemAlloc" is cuMemAlloc_v2, as declared); older drivers by dlsym
// of the versioned symbol.
class SymbolResolver {
 public:
  SymbolResolver(void* library, PFN_cuGetProcAddress_v2 get_proc_address)
      : library_(library), get_proc_address_(get_proc_address) {}

  void* find(const char* symbol, const char* base_name) const {
    if (!get_proc_address_) return dlsym(library_, symbol);
    void* function = nullptr;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    const CUresult result = get_proc_address_(base_name, &function, api_version(base_name),
                                              CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status);
    if (result != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS) return nullptr;
    return function;
  }

 private:
  void* library_;
  PFN_cuGetProcAddress_v2 get_proc_address_;
};

template <typename Function>
void assign(Function& target, void* found) {
  target = reinterpret_cast<Function>(found);
}

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
  assign(driver->fn.cuInit, dlsym(opened.handle, "cuInit"));
  assign(driver->fn.cuDriverGetVersion, dlsym(opened.handle, "cuDriverGetVersion"));
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

  auto get_proc_address =
      reinterpret_cast<PFN_cuGetProcAddress_v2>(dlsym(opened.handle, "cuGetProcAddress_v2"));
  driver->through_get_proc_address = get_proc_address != nullptr;
  const SymbolResolver resolver(opened.handle, get_proc_address);
  std::string missing;
#define ANYGPU_CUDA_RESOLVE_REQUIRED(symbol, name, result, parameters) \
  assign(driver->fn.symbol, resolver.find(#symbol, #name));            \
  if (!driver->fn.symbol) missing += (missing.empty() ? "" : ", ") + std::string(#symbol);
#define ANYGPU_CUDA_RESOLVE_OPTIONAL(symbol, name, result, parameters) \
  assign(driver->fn.symbol, resolver.find(#symbol, #name));
  ANYGPU_CUDA_REQUIRED_FUNCTIONS(ANYGPU_CUDA_RESOLVE_REQUIRED)
  ANYGPU_CUDA_OPTIONAL_FUNCTIONS(ANYGPU_CUDA_RESOLVE_OPTIONAL)
#undef ANYGPU_CUDA_RESOLVE_REQUIRED
#undef ANYGPU_CUDA_RESOLVE_OPTIONAL
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
