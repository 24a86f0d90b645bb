// HIP modules: loading the AMD code object selection chose, and the parameter layout of each
// kernel from anygpu's record in it.
#pragma once

#include <anygpu/anygpu.h>

#include <string>
#include <vector>

#include "hip_api.h"
#include "shim/code_object/code_object.h"

namespace anygpu::hip {

struct HipModule {
  hipModule_t module = nullptr;
  CodeObjectFormat format = CodeObjectFormat::unknown;
  // The loaded bytes: kept for the module's life (the runtime may read the image after
  // hipModuleLoadData returns) and for layouts.
  std::vector<unsigned char> image;
};

// Loads `code` on the current device.
ag_result load_hip_module(const HipFunctions& hip, const CodeObject& code, HipModule** module);

// The layout of kernel `name` from anygpu's parameter record in the code object. False when it
// records none: HIP has no query for a kernel's parameters.
bool hip_kernel_layout(const HipModule& module, const std::string& name,
                       std::vector<ag_param_info>* layout);

}  // namespace anygpu::hip
