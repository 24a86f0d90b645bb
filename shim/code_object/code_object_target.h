// What one code object (not a container) is built for, read from its own bytes: the SM of a cubin,
// the .target and ISA version of PTX, the target id of an AMD code object, the machine of an ELF
// file. Selection matches this against the device.
#pragma once

#include <string>

#include "shim/code_object/amdgpu_target.h"
#include "shim/code_object/code_object.h"
#include "shim/code_object/cuda_arch.h"

namespace anygpu {

struct CodeTarget {
  CodeObjectFormat format = CodeObjectFormat::unknown;
  CudaArch cuda;             // cubin: its SM; PTX: its .target
  unsigned ptx_version = 0;  // PTX: ptx_version_number(major, minor)
  AmdgpuTarget amdgpu;       // AMD code object (processor empty when unknown)
  uint16_t elf_machine = 0;  // any ELF file
  uint16_t elf_type = 0;
  std::string portable_family;  // portable source: the targets it is for ("amdgcn")
  bool empty = false;           // no bytes at all, as the host entry of a hipcc bundle
  std::string problem;  // why it cannot be loaded (empty, malformed, compressed); "" when it can
};

CodeTarget describe_code_object(const CodeObject& code);

// "PTX 8.5 for sm_80", "cubin for sm_86", "AMD code object for gfx90a:xnack-", "SPIR-V 1.2
// module", "host code object (x86_64)", followed by the problem where there is one.
std::string code_target_text(const CodeTarget& target);

}  // namespace anygpu
