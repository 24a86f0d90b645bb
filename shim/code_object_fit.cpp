#include "code_object_fit.h"

#include <elf.h>

#include "ptx_reader.h"
#include "string_format.h"

namespace anygpu {
namespace {

enum Tier { kNoFit = 0, kFits = 1, kPreferred = 2 };

// "x86_64-linux-gnu" -> EM_X86_64.
uint16_t machine_of(const std::string& architecture) {
  const std::string cpu = architecture.substr(0, architecture.find('-'));
  if (cpu == "x86_64") return EM_X86_64;
  if (cpu == "aarch64") return EM_AARCH64;
  return 0;
}

Fit cuda_fit(const DeviceTarget& device, const DeviceArch& arch, const CodeTarget& code) {
  if (code.format == CodeObjectFormat::cuda_cubin && cubin_runs_on(code.cuda, arch.cuda))
    return Fit{kPreferred, code.cuda.sm, 0};
  const bool driver_takes =
      device.max_ptx_version == 0 || code.ptx_version <= device.max_ptx_version;
  if (code.format == CodeObjectFormat::ptx && ptx_runs_on(code.cuda, arch.cuda) && driver_takes)
    return Fit{kFits, code.cuda.sm, code.ptx_version};
  return Fit{};
}

Fit amdgpu_fit(const DeviceArch& arch, const CodeTarget& code) {
  if (code.format != CodeObjectFormat::amdgpu_code_object || code.amdgpu.processor.empty())
    return Fit{};
  const int features = amdgpu_target_fit(code.amdgpu, arch.amdgpu);
  return features < 0 ? Fit{} : Fit{kFits, static_cast<unsigned>(features), 0};
}

Fit host_fit(const DeviceArch& arch, const CodeTarget& code) {
  const bool elf = code.format == CodeObjectFormat::host_shared_object ||
                   code.format == CodeObjectFormat::foreign_elf;
  if (elf && code.elf_type == ET_DYN && code.elf_machine == arch.machine) return Fit{kFits, 0, 0};
  return Fit{};
}

std::string cuda_needs(const DeviceTarget& device, const DeviceArch& arch) {
  const unsigned family = arch.cuda.sm / 10 * 10;
  std::string cubins = "sm_" + std::to_string(arch.cuda.sm);
  if (family != arch.cuda.sm) cubins = "sm_" + std::to_string(family) + " to " + cubins;
  std::string needs =
      strprintf("a cubin for %s, or PTX for sm_%u or older", cubins.c_str(), arch.cuda.sm);
  if (device.max_ptx_version)
    needs += strprintf(" of ISA version %u.%u or older", device.max_ptx_version / 100,
                       device.max_ptx_version % 100);
  return needs;
}

}  // namespace

DeviceArch parse_device_arch(const DeviceTarget& device) {
  DeviceArch arch;
  switch (device.backend) {
    case AG_BACKEND_CUDA:
      arch.valid = parse_cuda_arch(device.architecture, &arch.cuda);
      break;
    case AG_BACKEND_HIP:
      arch.valid = parse_amdgpu_target(device.architecture, &arch.amdgpu);
      break;
    case AG_BACKEND_LEVEL_ZERO:
      arch.valid = true;
      break;
    case AG_BACKEND_CPU:
      arch.machine = machine_of(device.architecture);
      arch.valid = arch.machine != 0;
      break;
  }
  return arch;
}

Fit code_fit(const DeviceTarget& device, const DeviceArch& arch, const CodeTarget& code) {
  if (!arch.valid) return Fit{};
  switch (device.backend) {
    case AG_BACKEND_CUDA:
      return cuda_fit(device, arch, code);
    case AG_BACKEND_HIP:
      return amdgpu_fit(arch, code);
    case AG_BACKEND_LEVEL_ZERO:
      return code.format == CodeObjectFormat::spirv ? Fit{kFits, 0, 0} : Fit{};
    case AG_BACKEND_CPU:
      return host_fit(arch, code);
  }
  return Fit{};
}

std::string device_needs(const DeviceTarget& device, const DeviceArch& arch) {
  if (!arch.valid)
    return strprintf("code for an architecture anygpu cannot read ('%s')",
                     device.architecture.c_str());
  switch (device.backend) {
    case AG_BACKEND_CUDA:
      return cuda_needs(device, arch);
    case AG_BACKEND_HIP:
      return strprintf("an AMD code object for %s (or with xnack/sramecc unstated)",
                       amdgpu_target_name(arch.amdgpu).c_str());
    case AG_BACKEND_LEVEL_ZERO:
      return "a SPIR-V module";
    case AG_BACKEND_CPU:
      break;
  }
  return strprintf("a host code object for %s (an ELF shared object built with anygpu/kernel.h)",
                   device.architecture.substr(0, device.architecture.find('-')).c_str());
}

}  // namespace anygpu
