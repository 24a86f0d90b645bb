#include "driver_host_kernels.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

#include "driver_cpu.h"
#include "driver_state.h"
#include "shim/code_object.h"

namespace anygpu::cuda_test_driver {
namespace {

void* load() {
  const std::string& path = config().kernels_path;
  if (path.empty()) return nullptr;
  std::ifstream file(path, std::ios::binary);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                         std::istreambuf_iterator<char>());
  const CodeObject code = detect_code_object(bytes.data(), bytes.size());
  void* module = nullptr;
  if (!file.good() && !file.eof()) {
    fprintf(stderr, "anygpu CUDA test driver: cannot read ANYGPU_CUDA_TEST_KERNELS=%s\n",
            path.c_str());
  } else if (code.format != CodeObjectFormat::host_shared_object ||
             cpu().module_load(code, &module) != AG_SUCCESS) {
    fprintf(stderr,
            "anygpu CUDA test driver: ANYGPU_CUDA_TEST_KERNELS=%s is not a host code "
            "object this machine loads\n",
            path.c_str());
    module = nullptr;
  }
  return module;
}

}  // namespace

void* host_kernels() {
  static std::once_flag once;
  static void* module = nullptr;
  std::call_once(once, [] { module = load(); });
  return module;
}

}  // namespace anygpu::cuda_test_driver
