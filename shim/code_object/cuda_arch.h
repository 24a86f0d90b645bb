// NVIDIA architectures: "sm_86" for a device or a cubin, PTX ".target sm_80"; which code runs
// where.
#pragma once

#include <string>
#include <string_view>

#include "shim/code_object/elf_reader.h"

namespace anygpu {

struct CudaArch {
  unsigned sm = 0;  // major * 10 + minor: 86 for sm_86, 100 for sm_100
  char suffix = 0;  // 'a' (sm_90a: that exact architecture only), 'f' (its family), or 0
};

// "sm_86", "sm_90a", "sm_100f", "compute_80". False for anything else.
bool parse_cuda_arch(std::string_view text, CudaArch* arch);
std::string cuda_arch_name(const CudaArch& arch);  // "sm_86"

// The SM a cubin was built for, from e_flags: the low byte up to CUDA 12 (ELF ABI version 7),
// bits 8-15 from CUDA 13 (ABI version 8). 0 when the flags name none.
unsigned cubin_sm(const ElfHeader& header);

// A cubin runs on the same major architecture with an equal or higher minor one.
bool cubin_runs_on(const CudaArch& cubin, const CudaArch& device);
// The driver compiles PTX for any equal or newer architecture.
bool ptx_runs_on(const CudaArch& target, const CudaArch& device);

}  // namespace anygpu
