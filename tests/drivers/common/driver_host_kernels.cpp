#include "driver_host_kernels.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

#include "driver_cpu.h"
#include "shim/code_object/code_object.h"

namespace anygpu::test_driver {
namespace {

void* load(const char* driver, const char* variable, const std::string& path) {
  if (path.empty()) return nullptr;
  std::ifstream file(path, std::ios::binary);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                         std::istreambuf_iterator<char>());
  const CodeObject code = detect_code_object(bytes.data(), bytes.size());
  void* module = nullptr;
  if (!file.good() && !file.eof()) {
    fprintf(stderr, "%s: cannot read %s=%s\n", driver, variable, path.c_str());
  } else if (code.format != CodeObjectFormat::host_shared_object ||
             cpu(driver).module_load(code, &module) != AG_SUCCESS) {
    fprintf(stderr, "%s: %s=%s is not a host code object this machine loads\n", driver, variable,
            path.c_str());
    module = nullptr;
  }
  return module;
}

}  // namespace

void* host_kernels(const char* driver, const char* variable, const std::string& path) {
  static std::once_flag once;
  static void* module = nullptr;
  std::call_once(once, [&] { module = load(driver, variable, path); });
  return module;
}

}  // namespace anygpu::test_driver
