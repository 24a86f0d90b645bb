#include "cuda_module.h"

#include <cstdint>
#include <cstring>

#include "cuda_result.h"
#include "shim/code_object/code_object_kernels.h"
#include "shim/code_object/kernel_params.h"
#include "shim/core/error.h"

namespace anygpu::cuda {
namespace {

constexpr size_t kLogBytes = size_t{16} * 1024;

bool loadable_by_the_driver(CodeObjectFormat format) {
  return format == CodeObjectFormat::ptx || format == CodeObjectFormat::cuda_cubin ||
         format == CodeObjectFormat::nvidia_fatbin;
}

// The text a JIT log option left, bounded by the size the driver reports it wrote.
std::string log_text(const std::vector<char>& buffer, void* written_value) {
  const size_t written = reinterpret_cast<uintptr_t>(written_value);
  const size_t length = strnlen(buffer.data(), std::min(written, buffer.size()));
  std::string text(buffer.data(), length);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// A driver with lazy loading (the default from CUDA 12.2 on) loads a kernel when it is first used
// (its first launch; cuModuleGetFunction before CUDA 12.4), and that load may wait for the whole
// context: a launch queued behind a kernel that waits for the host (a spin on a flag the host sets
// next) would never return. anygpu loads every kernel with its module instead, as HIP and Level
// Zero do, so that no later call waits for a load: with cuFuncLoad (CUDA 12.4), else by asking for
// each kernel the code object names, which is what loads it on CUDA 12.2 and 12.3.
CUresult load_every_kernel(const CudaFunctions& cu, const CodeObject& code, CUmodule module,
                           const char** call) {
  if (!cu.cuModuleGetFunctionCount || !cu.cuModuleEnumerateFunctions || !cu.cuFuncLoad) {
    std::vector<std::string> names;
    std::string unreadable;
    if (!code_object_kernels(code, &names, &unreadable)) return CUDA_SUCCESS;
    *call = "cuModuleGetFunction";
    for (const std::string& name : names) {
      CUfunction function = nullptr;
      if (CUresult r = cu.cuModuleGetFunction(&function, module, name.c_str())) return r;
    }
    return CUDA_SUCCESS;
  }
  unsigned count = 0;
  *call = "cuModuleGetFunctionCount";
  if (CUresult r = cu.cuModuleGetFunctionCount(&count, module)) return r;
  if (count == 0) return CUDA_SUCCESS;
  std::vector<CUfunction> functions(count);
  *call = "cuModuleEnumerateFunctions";
  if (CUresult r = cu.cuModuleEnumerateFunctions(functions.data(), count, module)) return r;
  *call = "cuFuncLoad";
  for (CUfunction function : functions)
    if (CUresult r = cu.cuFuncLoad(function)) return r;
  return CUDA_SUCCESS;
}

}  // namespace

ag_result load_cuda_module(const CudaFunctions& cu, const CodeObject& code, CudaModule** module) {
  if (!loadable_by_the_driver(code.format))
    return fail(AG_ERROR_NO_BINARY_FOR_DEVICE, "a CUDA device cannot load a %s",
                format_name(code.format));
  auto* loaded = new CudaModule;
  loaded->format = code.format;
  loaded->image.assign(code.data, code.data + code.size);
  if (code.format == CodeObjectFormat::ptx) loaded->image.push_back(0);  // the driver reads to NUL

  std::vector<char> info_log(kLogBytes, 0), error_log(kLogBytes, 0);
  CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {info_log.data(), reinterpret_cast<void*>(uintptr_t{kLogBytes}),
                    error_log.data(), reinterpret_cast<void*>(uintptr_t{kLogBytes})};
  const CUresult result = cu.cuModuleLoadDataEx(
      &loaded->module, loaded->image.data(), sizeof options / sizeof options[0], options, values);
  if (result != CUDA_SUCCESS) {
    delete loaded;
    std::string logs;
    const std::string error_text = log_text(error_log, values[3]);
    const std::string info_text = log_text(info_log, values[1]);
    if (!error_text.empty()) logs += "JIT error log: " + error_text;
    if (!info_text.empty()) logs += (logs.empty() ? "" : "; ") + ("JIT info log: " + info_text);
    const std::string extra =
        std::string("loading a ") + format_name(code.format) + (logs.empty() ? "" : "; ") + logs;
    return cuda_fail(result, "cuModuleLoadDataEx", extra.c_str());
  }
  const char* call = nullptr;
  if (CUresult r = load_every_kernel(cu, code, loaded->module, &call)) {
    cu.cuModuleUnload(loaded->module);
    delete loaded;
    return cuda_fail(r, call, "loading every kernel of the module before its first launch");
  }
  *module = loaded;
  return AG_SUCCESS;
}

bool cuda_kernel_layout(const CudaFunctions& cu, const CudaModule& module, CUfunction function,
                        const std::string& name, std::vector<ag_param_info>* layout) {
  std::string error;
  const CodeObject code{module.format, module.image.data(), module.image.size()};
  layout->clear();
  if (read_kernel_params(code, name, layout, &error)) return true;
  layout->clear();
  if (!cu.cuFuncGetParamInfo) return false;
  // The driver gives offsets and sizes only: without anygpu's record the kind is a guess from
  // the size, and a pointer reads as an 8-byte integer.
  for (size_t index = 0;; ++index) {
    size_t offset = 0, size = 0;
    // Past the last parameter the driver answers CUDA_ERROR_INVALID_VALUE; a kernel without
    // parameters answers so at once.
    if (cu.cuFuncGetParamInfo(function, index, &offset, &size) != CUDA_SUCCESS) break;
    ag_param_info info{};
    info.struct_size = sizeof info;
    info.kind = size <= 8 && (size & (size - 1)) == 0 ? AG_PARAM_INTEGER : AG_PARAM_STRUCT;
    info.size = size;
    info.alignment = size <= 8 && (size & (size - 1)) == 0 ? size : 1;
    info.offset = offset;
    layout->push_back(info);
  }
  return true;
}

}  // namespace anygpu::cuda
