#include "shim/code_object/bundle_ids.h"

#include <elf.h>

namespace anygpu {
namespace {

constexpr char kNvptxPrefix[] = "hip-nvptx64-nvidia-cuda--";

// NVIDIA spells architectures sm_XY for real ones and compute_XY for virtual ones (PTX).
std::string with_suffix(std::string name, const CudaArch& arch) {
  if (arch.suffix) name += arch.suffix;
  return name;
}

}  // namespace

std::string host_bundle_id(uint16_t elf_machine) {
  if (elf_machine == EM_X86_64) return "host-x86_64-unknown-linux-gnu";
  if (elf_machine == EM_AARCH64) return "host-aarch64-unknown-linux-gnu";
  return "";
}

std::string ptx_bundle_id(const CudaArch& target) {
  return with_suffix(kNvptxPrefix + ("compute_" + std::to_string(target.sm)), target);
}

std::string cubin_bundle_id(const CudaArch& sm) {
  return kNvptxPrefix + cuda_arch_name(sm);
}

std::string amdgpu_bundle_id(const AmdgpuTarget& target) {
  return "hipv4-amdgcn-amd-amdhsa--" + amdgpu_target_name(target);
}

std::string spirv_bundle_id() {
  return "hip-spirv64-unknown-unknown";
}

std::string portable_source_bundle_id(const std::string& family) {
  return family == "amdgcn" ? "hip-amdgcn-amd-amdhsa-anygpusource" : "";
}

}  // namespace anygpu
