// Each backend's run-time compiler (runtime_compiler.h), made on first use and kept until exit,
// as drivers are.
#pragma once

#include <string>

#include "shim/core/backend.h"

namespace anygpu {

struct CompilerRecord {
  RuntimeCompiler* compiler = nullptr;  // nullptr when the backend has none here
  std::string identity;                 // compiler->identity(); "" without one
  std::string reason;                   // why there is none, naming what to install
};

// The record of `backend`'s compiler, made on the first call from any thread; the reference
// stays valid for the process lifetime.
const CompilerRecord& compiler_for(const BackendDescriptor& backend);

}  // namespace anygpu
