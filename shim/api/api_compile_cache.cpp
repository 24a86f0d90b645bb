// agCompileCacheGetInfo, agCompileCacheClear: the on-disk cache of run-time compiles
// (shim/core/compile_cache.h). Neither touches a device, so both work in a forked child too.
#include "shim/api/api_common.h"
#include "shim/core/compile_cache.h"

using namespace anygpu;

extern "C" {

ag_result agCompileCacheGetInfo(ag_compile_cache_info* info) try {
  AG_ENTRY();
  if (ag_result r = require_versioned(info, "info")) return r;
  ag_compile_cache_info value{};
  value.struct_size = sizeof value;
  CompileCache::instance().info(value);
  return write_versioned(info, value, "info");
} catch (...) {
  return fail_from_exception();
}

ag_result agCompileCacheClear(void) try {
  AG_ENTRY();
  CompileCache::instance().clear();
  return AG_SUCCESS;
} catch (...) {
  return fail_from_exception();
}

}  // extern "C"
