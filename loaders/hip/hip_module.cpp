#include "hip_module.h"

#include "hip_result.h"
#include "shim/code_object/kernel_params.h"
#include "shim/core/error.h"

namespace anygpu::hip {

ag_result load_hip_module(const HipFunctions& hip, const CodeObject& code, HipModule** module) {
  // Selection gives an AMD code object for a HIP device; anything else reaching here is a
  // single-image module of another kind.
  if (code.format != CodeObjectFormat::amdgpu_code_object)
    return fail(AG_ERROR_NO_BINARY_FOR_DEVICE, "a HIP device cannot load a %s",
                format_name(code.format));
  auto* loaded = new HipModule;
  loaded->format = code.format;
  loaded->image.assign(code.data, code.data + code.size);
  const hipError_t result = hip.hipModuleLoadData(&loaded->module, loaded->image.data());
  if (result != hipSuccess) {
    delete loaded;
    return hip_fail(result, "hipModuleLoadData",
                    (std::string("loading a ") + format_name(code.format)).c_str());
  }
  *module = loaded;
  return AG_SUCCESS;
}

bool hip_kernel_layout(const HipModule& module, const std::string& name,
                       std::vector<ag_param_info>* layout) {
  std::string error;
  const CodeObject code{module.format, module.image.data(), module.image.size()};
  layout->clear();
  if (read_kernel_params(code, name, layout, &error)) return true;
  layout->clear();
  return false;
}

}  // namespace anygpu::hip
