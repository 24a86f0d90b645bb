#include "level_zero_module.h"

#include <algorithm>

#include "level_zero_result.h"
#include "shim/code_object/spirv_reader.h"
#include "shim/core/error.h"
#include "shim/kernel_build/spirv_subgroup_size.h"

namespace anygpu::level_zero {
namespace {

constexpr size_t kMaxLogBytes = size_t{64} * 1024;

std::string build_log(const LevelZeroFunctions& ze, ze_module_build_log_handle_t log) {
  if (!log) return "";
  std::string text;
  size_t size = 0;
  if (ze.zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS && size > 0) {
    size = std::min(size, kMaxLogBytes);
    std::vector<char> buffer(size + 1, 0);
    if (ze.zeModuleBuildLogGetString(log, &size, buffer.data()) == ZE_RESULT_SUCCESS)
      text.assign(buffer.data(), strnlen(buffer.data(), buffer.size()));
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// The user's parameters of `entry` by C rules, and where the dynamic shared memory goes.
void lay_out(const SpirvEntryPoint& entry, ZeFunction* function) {
  size_t count = entry.params.size();
  if (count > 0 && entry.params.back().workgroup_pointer) {
    function->dynamic_shared = true;
    function->dynamic_shared_index = static_cast<uint32_t>(count - 1);
    --count;
  }
  size_t offset = 0;
  for (size_t i = 0; i < count; ++i) {
    const SpirvParam& p = entry.params[i];
    ag_param_info info{};
    info.struct_size = sizeof info;
    info.kind = p.kind;
    info.size = p.size;
    info.alignment = p.alignment ? p.alignment : 1;
    offset = (offset + info.alignment - 1) / info.alignment * info.alignment;
    info.offset = offset;
    offset += info.size;
    function->layout.push_back(info);
  }
  function->layout_known = true;
}

// The sizes as "8, 16", or "none".
std::string size_list(const std::vector<uint32_t>& sizes) {
  std::string text;
  for (uint32_t size : sizes) text += (text.empty() ? "" : ", ") + std::to_string(size);
  return text.empty() ? "none" : text;
}

// AG_ERROR_NO_BINARY_FOR_DEVICE naming the first kernel of `code` whose required sub-group size
// the device does not offer. A module the reader cannot read, or a device that lists no sizes, is
// left to the driver to judge.
ag_result check_subgroup_sizes(const CodeObject& code, const std::vector<uint32_t>& offered) {
  std::vector<std::pair<std::string, uint32_t>> required;
  std::string error;
  if (offered.empty() ||
      !read_spirv_subgroup_sizes(ByteReader(code.data, code.size), &required, &error))
    return AG_SUCCESS;
  for (const auto& [kernel, lanes] : required) {
    if (std::count(offered.begin(), offered.end(), lanes) > 0) continue;
    const char* why =
        lanes == kSpirvWarpLanes ? " (its warp functions assume CUDA's warp width)" : "";
    return fail(AG_ERROR_NO_BINARY_FOR_DEVICE,
                "kernel '%s' of this SPIR-V image requires sub-groups of %u lanes%s, but the "
                "device offers sub-group sizes %s; run it on a device with %u-lane sub-groups, or "
                "on the CPU device",
                kernel.c_str(), lanes, why, size_list(offered).c_str(), lanes);
  }
  return AG_SUCCESS;
}

}  // namespace

ag_result load_ze_module(const LevelZeroFunctions& ze, ze_context_handle_t context,
                         ze_device_handle_t device, const std::vector<uint32_t>& subgroup_sizes,
                         const CodeObject& code, ZeModule** module) {
  if (code.format != CodeObjectFormat::spirv)
    return fail(AG_ERROR_NO_BINARY_FOR_DEVICE, "a Level Zero device cannot load a %s",
                format_name(code.format));
  if (ag_result r = check_subgroup_sizes(code, subgroup_sizes)) return r;
  auto loaded = std::make_unique<ZeModule>();
  loaded->image.assign(code.data, code.data + code.size);
  ze_module_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = loaded->image.size();
  desc.pInputModule = loaded->image.data();
  desc.pBuildFlags = "";
  ze_module_build_log_handle_t log = nullptr;
  const ze_result_t r = ze.zeModuleCreate(context, device, &desc, &loaded->module, &log);
  const std::string text = r != ZE_RESULT_SUCCESS ? build_log(ze, log) : std::string();
  if (log) ze.zeModuleBuildLogDestroy(log);
  if (r != ZE_RESULT_SUCCESS) {
    const std::string extra =
        "building a SPIR-V module" + (text.empty() ? std::string() : "; build log: " + text);
    return ze_fail(r, "zeModuleCreate", extra.c_str());
  }
  *module = loaded.release();
  return AG_SUCCESS;
}

ag_result unload_ze_module(const LevelZeroFunctions& ze, ZeModule* module) {
  {
    std::lock_guard<std::mutex> lock(module->mutex);
    for (auto& [name, function] : module->functions)
      if (function->kernel) ze.zeKernelDestroy(function->kernel);
    module->functions.clear();
  }
  if (ze_result_t r = ze.zeModuleDestroy(module->module)) {
    delete module;  // its kernels are gone: the handle cannot be used again either way
    return ze_fail(r, "zeModuleDestroy");
  }
  delete module;
  return AG_SUCCESS;
}

ag_result get_ze_global(const LevelZeroFunctions& ze, ZeModule* module, const char* name,
                        void** pointer, size_t* bytes) {
  ze_result_t r = ze.zeModuleGetGlobalPointer(module->module, name, bytes, pointer);
  if (r == ZE_RESULT_SUCCESS) return AG_SUCCESS;
  std::string extra = std::string("global ") + name;
  SpirvInfo info;
  std::string error;
  if (r == ZE_RESULT_ERROR_INVALID_GLOBAL_NAME &&
      read_spirv(ByteReader(module->image.data(), module->image.size()), &info, &error)) {
    extra += "; the module's SPIR-V exports ";
    if (info.exported_variables.empty()) extra += "no variables";
    for (size_t i = 0; i < info.exported_variables.size(); ++i)
      extra += (i ? ", " : "") + info.exported_variables[i];
  }
  return ze_fail(r, "zeModuleGetGlobalPointer", extra.c_str());
}

ag_result get_ze_function(const LevelZeroFunctions& ze, ZeModule* module, const char* name,
                          ZeFunction** function) {
  std::lock_guard<std::mutex> lock(module->mutex);
  auto known = module->functions.find(name);
  if (known != module->functions.end()) {
    *function = known->second.get();
    return AG_SUCCESS;
  }
  auto created = std::make_unique<ZeFunction>();
  ze_kernel_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
  desc.pKernelName = name;
  if (ze_result_t r = ze.zeKernelCreate(module->module, &desc, &created->kernel))
    return ze_fail(r, "zeKernelCreate", ("kernel " + std::string(name)).c_str());
  // Read before the kernel is kept, so that a failure leaves the module as it was.
  created->properties.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  if (ze_result_t r = ze.zeKernelGetProperties(created->kernel, &created->properties)) {
    ze.zeKernelDestroy(created->kernel);
    return ze_fail(r, "zeKernelGetProperties", ("kernel " + std::string(name)).c_str());
  }
  SpirvInfo info;
  std::string error;
  if (read_spirv(ByteReader(module->image.data(), module->image.size()), &info, &error)) {
    for (const SpirvEntryPoint& entry : info.entry_points)
      if (entry.name == name && entry.execution_model == kSpirvExecutionModelKernel) {
        lay_out(entry, created.get());
        break;
      }
  }
  *function = created.get();
  module->functions.emplace(name, std::move(created));
  return AG_SUCCESS;
}

ag_result append_ze_launch(const LevelZeroFunctions& ze, ZeFunction* f, const LaunchConfig& c,
                           void** params, ze_command_list_handle_t list) {
  // A CUDA-syntax kernel (no __local parameter) has its extern __shared__ arrays sized in the
  // module: a launch may not ask for more.
  if (!f->dynamic_shared && c.shared_memory_bytes > kSpirvExternSharedBytes)
    return fail(AG_ERROR_INVALID_VALUE,
                "the launch asks for %u bytes of dynamic shared memory, but this CUDA-syntax "
                "kernel's SPIR-V holds its extern __shared__ arrays in %zu bytes "
                "(ANYGPU_SPIRV_DYNAMIC_SHARED_BYTES of anygpu_add_kernels)",
                c.shared_memory_bytes, kSpirvExternSharedBytes);
  if (!f->layout_known)
    return fail(AG_ERROR_NOT_SUPPORTED,
                "the SPIR-V module gives no parameter layout for this kernel, so its arguments "
                "cannot be set");
  std::lock_guard<std::mutex> lock(f->mutex);
  if (f->group[0] != c.block[0] || f->group[1] != c.block[1] || f->group[2] != c.block[2]) {
    if (ze_result_t r = ze.zeKernelSetGroupSize(f->kernel, c.block[0], c.block[1], c.block[2]))
      return ze_fail(r, "zeKernelSetGroupSize");
    f->group[0] = c.block[0];
    f->group[1] = c.block[1];
    f->group[2] = c.block[2];
  }
  for (size_t i = 0; i < f->layout.size(); ++i)
    if (ze_result_t r = ze.zeKernelSetArgumentValue(f->kernel, static_cast<uint32_t>(i),
                                                    f->layout[i].size, params[i]))
      return ze_fail(r, "zeKernelSetArgumentValue");
  if (f->dynamic_shared) {
    // A __local argument takes its size and no value; never 0 bytes, which drivers refuse.
    const size_t bytes = c.shared_memory_bytes ? c.shared_memory_bytes : 1;
    if (ze_result_t r =
            ze.zeKernelSetArgumentValue(f->kernel, f->dynamic_shared_index, bytes, nullptr))
      return ze_fail(r, "zeKernelSetArgumentValue");
  }
  const ze_group_count_t groups{c.grid[0], c.grid[1], c.grid[2]};
  return ze_fail(ze.zeCommandListAppendLaunchKernel(list, f->kernel, &groups, nullptr, 0, nullptr),
                 "zeCommandListAppendLaunchKernel");
}

}  // namespace anygpu::level_zero
