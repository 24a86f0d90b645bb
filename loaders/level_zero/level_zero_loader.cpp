#include "loaders/level_zero/level_zero_loader.h"

#include "loaders/dynamic_library.h"
#include "loaders/level_zero/level_zero_result.h"
#include "loaders/symbol_resolver.h"

namespace anygpu::level_zero {

bool load_level_zero(LevelZeroLoader* loader, std::string* reason) {
  const OpenedLibrary opened = open_library({"libze_loader.so.1"}, "ANYGPU_LEVEL_ZERO_LIBRARY");
  loader->path = opened.path;
  if (!opened.handle) {
    *reason = "Level Zero loader library not found: " + opened.error;
    return false;
  }
  // The loader has no GetProcAddress of its own: every entry point is an exported symbol.
  const std::string missing = resolve_functions(loader->fn, dlsym_lookup(opened.handle));
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
