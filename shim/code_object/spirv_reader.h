// SPIR-V modules: their entry points and, for each OpenCL kernel entry point, the size, alignment
// and kind of each parameter as the Level Zero backend sets them (zeKernelSetArgumentValue).
#pragma once

#include <anygpu/anygpu.h>

#include <string>
#include <utility>
#include <vector>

#include "shim/code_object/byte_reader.h"

namespace anygpu {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr uint32_t kSpirvExecutionModelKernel = 6;

struct SpirvParam {
  ag_param_kind kind = AG_PARAM_INTEGER;
  size_t size = 0;
  size_t alignment = 0;
  bool workgroup_pointer = false;  // a `local` pointer: Level Zero takes its size in bytes instead
};

struct SpirvEntryPoint {
  std::string name;
  uint32_t execution_model = 0;
  std::vector<SpirvParam> params;  // kernels only
  // The sub-group size the kernel requires (OpExecutionMode SubgroupSize); 0 where it has none.
  uint32_t required_subgroup_size = 0;
};

struct SpirvInfo {
  unsigned version_major = 0, version_minor = 0;
  std::vector<SpirvEntryPoint> entry_points;
  // Module-scope variables a driver can hand the host (zeModuleGetGlobalPointer): those in
  // CrossWorkgroup or UniformConstant storage with Export linkage, by their linkage name.
  std::vector<std::string> exported_variables;
};

bool is_spirv(ByteReader image);

// False with `error` when an instruction runs past the end, a kernel's parameter type cannot be
// laid out, or an entry point names no function.
bool read_spirv(ByteReader image, SpirvInfo* info, std::string* error);

// The entry points that require a sub-group size, with it: read without laying out parameters,
// so that a kernel whose parameters the reader cannot lay out does not hide the others' sizes.
bool read_spirv_subgroup_sizes(ByteReader image,
                               std::vector<std::pair<std::string, uint32_t>>* sizes,
                               std::string* error);

}  // namespace anygpu
