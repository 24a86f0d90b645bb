// The base of the backends' run-time compilers: compile() turns an exception (std::bad_alloc)
// into the error it stands for, and the compiler's own work is compile_checked().
#pragma once

#include "shim/core/error.h"
#include "shim/core/runtime_compiler.h"

namespace anygpu {

class CheckedCompiler : public RuntimeCompiler {
 public:
  ag_result compile(const CompileRequest& request, CompileOutput& output) final {
    try {
      if (!request.more_sources.empty() && !links_sources())
        return fail(AG_ERROR_NOT_SUPPORTED,
                    "%s compiles one source at a time, and the program has %zu (%s and more)",
                    identity().c_str(), request.more_sources.size() + 1,
                    request.source.name.c_str());
      return compile_checked(request, output);
    } catch (...) {
      return fail_from_exception();
    }
  }

 protected:
  virtual ag_result compile_checked(const CompileRequest& request, CompileOutput& output) = 0;
};

}  // namespace anygpu
