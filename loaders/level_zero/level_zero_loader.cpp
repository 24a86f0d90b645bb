#include "level_zero_loader.h"

#include <dlfcn.h>

#include "../dynamic_library.h"
#include "level_zero_result.h"

namespace anygpu::level_zero {
namespace {

template <typename Function>
void assign(Function& target, void* found) {
  target = reinterpret_cast<Function>(found);
}

}  // namespace

bool load_level_zero(LevelZeroLoader* loader, std::string* reason) {
  const OpenedLibrary opened = open_library({"libze_loader.so.1"}, "ANYGPU_LEVEL_ZERO_LIBRARY");
  loader->path = opened.path;
  if (!opened.handle) {
    *reason = "Level Zero loader library not found: " + opened.error;
    return false;
  }
  std::string missing;
#define ANYGPU_LEVEL_ZERO_RESOLVE(symbol, result, parameters) \
  assign(loader->fn.symbol, dlsym(opened.handle, #symbol));   \
  if (!loader->fn.symbol) missing += (missing.empty() ? "" : ", ") + std::string(#symbol);
  ANYGPU_LEVEL_ZERO_REQUIRED_FUNCTIONS(ANYGPU_LEVEL_ZERO_RESOLVE)
#undef ANYGPU_LEVEL_ZERO_RESOLVE
  if (!loader->fn.zeInit) {
    *reason = opened.path + " exports no zeInit: not a Level Zero loader";
    return false;
  }
  if (!missing.empty()) {
    *reason = "the Level Zero loader " + opened.path + " lacks required functions: " + missing;
    return false;
  }
  // GPUs only: anygpu has its own CPU backend, and a VPU runs no compute kernels.
  if (ze_result_t r = loader->fn.zeInit(ZE_INIT_FLAG_GPU_ONLY)) {
    *reason = "zeInit failed: " + describe_ze_result(r);
    if (r == ZE_RESULT_ERROR_UNINITIALIZED)
      *reason += " - the Level Zero loader " + opened.path +
                 " found no driver that initialises (no Intel GPU driver, or no GPU)";
    return false;
  }
  return true;
}

}  // namespace anygpu::level_zero
