// agProgramCompile's options: the ones every backend understands, spelled once, and those for one
// backend's compiler under the prefix -X<backend name>= (anygpu.h).
#pragma once

#include <anygpu/anygpu.h>

#include "shim/core/runtime_compiler.h"

namespace anygpu {

// Parses `count` options for a device of backend `backend_name` ("cuda"). Options for other
// backends are dropped. -I<directory> goes to the compiler among `options.vendor`. `cacheable`
// is false when the result depends on more than the cache key holds: files on disk (-I, and
// compiler options that read files: -include, -isystem, --include-path, @file, ...) or the
// machine compiling (-march=native and kin). An unknown or malformed option is
// AG_ERROR_INVALID_VALUE naming it; `options` is then unspecified.
ag_result parse_compile_options(int count, const char* const* given, const char* backend_name,
                                CompileOptions& options, bool& cacheable);

}  // namespace anygpu
