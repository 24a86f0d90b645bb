// Level Zero modules from SPIR-V, with the build log kept for the error detail; kernels with the
// parameter layout read from the SPIR-V itself; and launches that set a kernel's arguments and
// group size and append it, one thread at a time per kernel.
#pragma once

#include <anygpu/anygpu.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "level_zero_api.h"
#include "shim/code_object/code_object.h"
#include "shim/core/backend.h"

namespace anygpu::level_zero {

// The size anygpu_add_kernels gives each extern __shared__ array of a CUDA-syntax kernel's SPIR-V
// (ANYGPU_SPIRV_DYNAMIC_SHARED_BYTES in cmake/AnygpuKernels.cmake): SPIR-V has no unsized ones.
constexpr size_t kSpirvExternSharedBytes = 49152;

struct ZeFunction {
  ze_kernel_handle_t kernel = nullptr;
  std::vector<ag_param_info> layout;  // the user's parameters
  bool layout_known = false;
  // AG_KERNEL's SPIR-V kernels take the dynamic shared memory as one more, trailing, __local
  // pointer; CUDA-syntax kernels (HIP-mode SPIR-V) do not.
  bool dynamic_shared = false;
  uint32_t dynamic_shared_index = 0;
  // The kernel object holds arguments and group size until the launch is appended: a launch
  // holds this lock from its first setting to the append.
  std::mutex mutex;
  uint32_t group[3] = {0, 0, 0};        // the group size last set
  ze_kernel_properties_t properties{};  // read once, when the kernel is created
};

struct ZeModule {
  ze_module_handle_t module = nullptr;
  std::vector<unsigned char> image;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<ZeFunction>> functions;
};

// Refuses, before the driver sees it, a module with a kernel that requires a sub-group size not in
// `subgroup_sizes` (the device's).
ag_result load_ze_module(const LevelZeroFunctions& ze, ze_context_handle_t context,
                         ze_device_handle_t device, const std::vector<uint32_t>& subgroup_sizes,
                         const CodeObject& code, ZeModule** module);
// Destroys the module's kernels, then the module.
ag_result unload_ze_module(const LevelZeroFunctions& ze, ZeModule* module);
// The module's kernel `name`, created on first use and kept until the module is unloaded.
ag_result get_ze_function(const LevelZeroFunctions& ze, ZeModule* module, const char* name,
                          ZeFunction** function);
// The module's exported variable `name` (zeModuleGetGlobalPointer); an unknown name's detail
// lists the variables the SPIR-V exports.
ag_result get_ze_global(const LevelZeroFunctions& ze, ZeModule* module, const char* name,
                        void** pointer, size_t* bytes);
ag_result append_ze_launch(const LevelZeroFunctions& ze, ZeFunction* function,
                           const LaunchConfig& config, void** params,
                           ze_command_list_handle_t list);

}  // namespace anygpu::level_zero
