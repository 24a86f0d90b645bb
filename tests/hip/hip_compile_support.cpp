#include "hip_compile_support.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "shim/code_object/amdgpu_target.h"
#include "shim/code_object/code_object.h"
#include "shim/code_object/code_object_target.h"
#include "test_support.h"

namespace anygpu_test {

std::string read_source(const std::string& relative) {
  std::ifstream file(std::string(ANYGPU_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

Compiled compile(anygpu::RuntimeCompiler* compiler, const std::string& name,
                 const std::string& text, const std::string& target,
                 std::vector<anygpu::SourceFile> headers) {
  anygpu::CompileRequest request;
  request.source = {name, text};
  request.headers = std::move(headers);
  request.target.architecture = target;
  Compiled compiled;
  compiled.result = compiler->compile(request, compiled.output);
  if (compiled.result != AG_SUCCESS) compiled.detail = last_detail();
  return compiled;
}

void expect_amd_code_object(const std::vector<unsigned char>& image, const std::string& target) {
  ASSERT_GE(image.size(), 64u);
  EXPECT_EQ(0, std::memcmp(image.data(),
                           "\x7f"
                           "ELF",
                           4));
  uint16_t machine = 0;
  std::memcpy(&machine, image.data() + 18, 2);
  EXPECT_EQ(224, machine) << "e_machine is not EM_AMDGPU";
  const anygpu::CodeObject code = anygpu::detect_code_object(image.data(), image.size());
  ASSERT_EQ(anygpu::CodeObjectFormat::amdgpu_code_object, code.format);
  const anygpu::CodeTarget described = anygpu::describe_code_object(code);
  EXPECT_TRUE(described.problem.empty()) << described.problem;
  EXPECT_EQ(target, anygpu::amdgpu_target_name(described.amdgpu));
}

}  // namespace anygpu_test
