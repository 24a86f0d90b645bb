// One compile of a program for a device, through its backend's compiler and the on-disk cache:
// what agProgramCompile, agModuleLoadSource and the run-time build of a missing code object
// (run_time_build.h) share.
#pragma once

#include "shim/core/objects.h"
#include "shim/core/runtime_compiler.h"

namespace anygpu {

// Compiles `request` (its target is set here, to the device's) for `device`, or takes the
// result from the cache when `cacheable` and the cache holds it. `caller` names the call in the
// log ("agProgramCompile"). AG_ERROR_NOT_SUPPORTED (recorded) when the backend has no compiler
// here; otherwise RuntimeCompiler::compile's results. `from_cache` (optional) says whether the
// cache gave it.
ag_result compile_for_device(Device& device, CompileRequest& request, bool cacheable,
                             const char* caller, CompileOutput& output, bool* from_cache = nullptr);

}  // namespace anygpu
