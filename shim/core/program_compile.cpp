#include "shim/core/program_compile.h"

#include <string>

#include "shim/core/compile_cache.h"
#include "shim/core/compiler_registry.h"
#include "shim/core/error.h"
#include "shim/core/log.h"

namespace anygpu {

ag_result compile_for_device(Device& device, CompileRequest& request, bool cacheable,
                             const char* caller, CompileOutput& output, bool* from_cache) {
  if (from_cache) *from_cache = false;
  const CompilerRecord& compiler = compiler_for(*device.backend);
  if (!compiler.compiler)
    return fail(AG_ERROR_NOT_SUPPORTED, "device %d (%s) cannot compile at run time: %s",
                device.ordinal, device.backend->label, compiler.reason.c_str());
  request.target = device.impl->code_target();

  CompileCache& cache = CompileCache::instance();
  const bool cached = cache.enabled() && cacheable;
  std::string key;
  if (cached) {
    const std::string driver =
        std::string(device.backend->name) + " " + std::to_string(device.properties.driver_version);
    key = compile_cache_key(request, compiler.identity, driver);
    if (cache.lookup(key, output)) {
      log(LogLevel::info, "%s: %s for %s from the cache (%zu bytes)", caller,
          request.source.name.c_str(), request.target.architecture.c_str(), output.image.size());
      if (from_cache) *from_cache = true;
      return AG_SUCCESS;
    }
  }
  if (ag_result r = compiler.compiler->compile(request, output)) return r;
  log(LogLevel::info, "%s: compiled %s for %s with %s (%zu bytes)", caller,
      request.source.name.c_str(), request.target.architecture.c_str(), compiler.identity.c_str(),
      output.image.size());
  if (cached) cache.store(key, output);
  return AG_SUCCESS;
}

}  // namespace anygpu
