// The module-scope variables a code object offers the host (what cuModuleGetGlobal,
// hipModuleGetGlobal and zeModuleGetGlobalPointer find): PTX .visible .global and .const
// variables, SPIR-V variables with Export linkage, and in an ELF code object (cubin, AMD, host)
// the defined, non-local data symbols.
#pragma once

#include <string>
#include <vector>

#include "shim/code_object/code_object.h"

namespace anygpu {

// False with `error` when the code object cannot be read far enough to find them; true with none
// for containers (bundles, fatbins), which hold no variables themselves.
bool code_object_globals(const CodeObject& code, std::vector<std::string>* globals,
                         std::string* error);

}  // namespace anygpu
