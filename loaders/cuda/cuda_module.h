// CUDA modules: loading a cubin, PTX or fatbin with the JIT's logs kept for the error detail, and
// the parameter layout of each kernel.
#pragma once

#include <anygpu/anygpu.h>

#include <string>
#include <vector>

#include "cuda_api.h"
#include "shim/code_object/code_object.h"

namespace anygpu::cuda {

struct CudaModule {
  CUmodule module = nullptr;
  CodeObjectFormat format = CodeObjectFormat::unknown;
  std::vector<unsigned char> image;  // the loaded bytes (PTX NUL-terminated), for layouts
};

// Loads `code` into the current context. On failure the detail carries the JIT's logs.
ag_result load_cuda_module(const CudaFunctions& cu, const CodeObject& code, CudaModule** module);

// The layout of kernel `name`: anygpu's parameter record or the PTX .param list from the image,
// else cuFuncGetParamInfo's offsets and sizes. False when none says.
bool cuda_kernel_layout(const CudaFunctions& cu, const CudaModule& module, CUfunction function,
                        const std::string& name, std::vector<ag_param_info>* layout);

}  // namespace anygpu::cuda
