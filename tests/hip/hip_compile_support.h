// What the tests of the HIP backend's run-time compilers share: a file of this source tree, one
// compile through a compiler's interface, and the check that an image is an AMD code object for a
// target id.
#pragma once

#include <string>
#include <vector>

#include "shim/core/runtime_compiler.h"

namespace anygpu_test {

// The text of `relative` (to the source tree, ANYGPU_SOURCE_DIR); "" when it cannot be read.
std::string read_source(const std::string& relative);

struct Compiled {
  ag_result result = AG_ERROR_UNKNOWN;
  std::string detail;  // the error detail when the compile failed
  anygpu::CompileOutput output;
};

Compiled compile(anygpu::RuntimeCompiler* compiler, const std::string& name,
                 const std::string& text, const std::string& target,
                 std::vector<anygpu::SourceFile> headers = {});

// The image is one AMD code object for `target` (processor and features, as e_flags say).
void expect_amd_code_object(const std::vector<unsigned char>& image, const std::string& target);

}  // namespace anygpu_test
