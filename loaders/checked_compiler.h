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
      return compile_checked(request, output);
    } catch (...) {
      return fail_from_exception();
    }
  }

 protected:
  virtual ag_result compile_checked(const CompileRequest& request, CompileOutput& output) = 0;
};

}  // namespace anygpu
