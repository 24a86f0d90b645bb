// Modules (SPIR-V, read for its entry points), their build logs, and kernels: a kernel runs the
// host build of the test kernel of its name.
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "driver_api.h"
#include "driver_objects.h"

namespace anygpu::level_zero_test_driver {

namespace {

// As a real compiler does: a kernel's required sub-group size must be one the device offers.
std::string unavailable_subgroup_size(const SpirvInfo& info) {
  const std::vector<uint32_t> offered = subgroup_sizes();
  for (const SpirvEntryPoint& entry : info.entry_points) {
    const uint32_t lanes = entry.required_subgroup_size;
    if (lanes && std::find(offered.begin(), offered.end(), lanes) == offered.end())
      return "error: kernel " + entry.name + " requires sub-group size " + std::to_string(lanes) +
             ", which the device does not support";
  }
  return "";
}

}  // namespace

ze_result_t zeModuleCreate(ze_context_handle_t context, ze_device_handle_t device,
                           const ze_module_desc_t* desc, ze_module_handle_t* module,
                           ze_module_build_log_handle_t* log) {
  if (uint32_t injected = calls().enter(fn_zeModuleCreate)) {
    // An injected build failure comes with a build log, as a real compiler's does.
    if (log && injected == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE) {
      auto* l = new Log;
      l->text = "error: injected build failure (anygpu Level Zero test driver)";
      *log = reinterpret_cast<ze_module_build_log_handle_t>(static_cast<Object*>(l));
    }
    return injected;
  }
  if (!as<Context>(context, Kind::context) || !is_device(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !module || !desc->pInputModule) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->format == ZE_MODULE_FORMAT_NATIVE) return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  std::string text;
  auto created = std::make_unique<Module>();
  const ByteReader bytes(desc->pInputModule, desc->inputSize);
  std::string error;
  if (!is_spirv(bytes))
    text = "error: the input is not a SPIR-V module (no SPIR-V magic number)";
  else if (!read_spirv(bytes, &created->info, &error))
    text = "error: invalid SPIR-V: " + error;
  else if (!host_module())
    text = "error: ANYGPU_L0_TEST_KERNELS names no host build of the kernels to run";
  else
    text = unavailable_subgroup_size(created->info);
  if (log) {
    auto* l = new Log;
    l->text = text;
    *log = reinterpret_cast<ze_module_build_log_handle_t>(static_cast<Object*>(l));
  }
  if (!text.empty()) return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  *module = reinterpret_cast<ze_module_handle_t>(static_cast<Object*>(created.release()));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleDestroy(ze_module_handle_t module) {
  DRIVER_ENTRY(zeModuleDestroy);
  Module* m = as<Module>(module, Kind::module);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete m;
  return ZE_RESULT_SUCCESS;
}

// A variable the SPIR-V exports (as a real driver finds it) is the host build's variable of that
// name: the kernels that run read and write that one.
ze_result_t zeModuleGetGlobalPointer(ze_module_handle_t module, const char* name, size_t* bytes,
                                     void** pointer) {
  DRIVER_ENTRY(zeModuleGetGlobalPointer);
  Module* m = as<Module>(module, Kind::module);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!name) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const std::vector<std::string>& exported = m->info.exported_variables;
  if (std::find(exported.begin(), exported.end(), name) == exported.end())
    return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  void* address = nullptr;
  size_t size = 0;
  if (cpu().module_get_global(host_module(), name, &address, &size) != AG_SUCCESS)
    return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  if (bytes) *bytes = size;
  if (pointer) *pointer = address;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t log, size_t* size, char* text) {
  DRIVER_ENTRY(zeModuleBuildLogGetString);
  Log* l = as<Log>(log, Kind::log);
  if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!text) {
    *size = l->text.size() + 1;
    return ZE_RESULT_SUCCESS;
  }
  const size_t n = std::min(*size, l->text.size() + 1);
  if (n) {
    memcpy(text, l->text.c_str(), n);
    text[n - 1] = '\0';
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t log) {
  DRIVER_ENTRY(zeModuleBuildLogDestroy);
  Log* l = as<Log>(log, Kind::log);
  if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete l;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelCreate(ze_module_handle_t module, const ze_kernel_desc_t* desc,
                           ze_kernel_handle_t* kernel) {
  DRIVER_ENTRY(zeKernelCreate);
  Module* m = as<Module>(module, Kind::module);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !desc->pKernelName || !kernel) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const SpirvEntryPoint* entry = nullptr;
  for (const SpirvEntryPoint& e : m->info.entry_points)
    if (e.name == desc->pKernelName && e.execution_model == kSpirvExecutionModelKernel) entry = &e;
  if (!entry) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  auto created = std::make_unique<Kernel>();
  bool known = false;
  if (cpu().module_get_function(host_module(), desc->pKernelName, &created->native, created->layout,
                                known) != AG_SUCCESS)
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  created->spirv = entry->params;
  // The host kernel takes the user's parameters; an AG_KERNEL entry one more, the __local buffer,
  // while a CUDA-syntax kernel's (HIP-mode SPIR-V) has its extern __shared__ arrays sized in the
  // module and takes the user's parameters alone.
  const bool local_buffer = !created->spirv.empty() && created->spirv.back().workgroup_pointer;
  if (created->spirv.size() != created->layout.size() + (local_buffer ? 1 : 0))
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  created->values.resize(created->spirv.size());
  created->set.assign(created->spirv.size(), false);
  *kernel = reinterpret_cast<ze_kernel_handle_t>(static_cast<Object*>(created.release()));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelDestroy(ze_kernel_handle_t kernel) {
  DRIVER_ENTRY(zeKernelDestroy);
  Kernel* k = as<Kernel>(kernel, Kind::kernel);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete k;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t kernel, uint32_t x, uint32_t y, uint32_t z) {
  DRIVER_ENTRY(zeKernelSetGroupSize);
  Kernel* k = as<Kernel>(kernel, Kind::kernel);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const uint32_t size[3] = {x, y, z};
  uint64_t total = 1;
  for (int i = 0; i < 3; ++i) {
    if (size[i] == 0 || size[i] > kMaxGroupSizeDim[i])
      return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    total *= size[i];
  }
  if (total > kMaxGroupSize) return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  std::lock_guard<std::mutex> lock(k->mutex);
  std::copy(size, size + 3, k->group);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSetArgumentValue(ze_kernel_handle_t kernel, uint32_t index, size_t size,
                                     const void* value) {
  DRIVER_ENTRY(zeKernelSetArgumentValue);
  Kernel* k = as<Kernel>(kernel, Kind::kernel);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (index >= k->spirv.size()) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  const SpirvParam& p = k->spirv[index];
  std::lock_guard<std::mutex> lock(k->mutex);
  if (p.workgroup_pointer) {
    // A __local parameter: its size in bytes, and no value.
    if (value) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (size == 0 || size > kSharedLocalMemory) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    k->local_bytes = size;
    k->set[index] = true;
    return ZE_RESULT_SUCCESS;
  }
  // The SPIR-V's size, which must also be the host kernel's.
  if (size != p.size || size != k->layout[index].size)
    return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
  if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto* bytes = static_cast<const unsigned char*>(value);
  k->values[index].assign(bytes, bytes + size);
  k->set[index] = true;
  return ZE_RESULT_SUCCESS;
}

// What a kernel of the host build needs: its SPIR-V parameters (the trailing __local one
// included, as a real driver counts it), sub-groups of the device's largest size, and no static
// local, private or spill memory. Like the driver's other queries, the caller's stype and pNext
// are kept and not checked.
ze_result_t zeKernelGetProperties(ze_kernel_handle_t kernel, ze_kernel_properties_t* properties) {
  DRIVER_ENTRY(zeKernelGetProperties);
  Kernel* k = as<Kernel>(kernel, Kind::kernel);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!properties) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  void* next = properties->pNext;
  const ze_structure_type_t stype = properties->stype;
  memset(properties, 0, sizeof *properties);
  properties->stype = stype;
  properties->pNext = next;
  properties->numKernelArgs = static_cast<uint32_t>(k->spirv.size());
  properties->maxSubgroupSize = kMaxSubgroupSize;
  properties->maxNumSubgroups = kMaxGroupSize / kMaxSubgroupSize;
  return ZE_RESULT_SUCCESS;
}

}  // namespace anygpu::level_zero_test_driver
