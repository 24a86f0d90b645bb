// AMD GPU target ids ("gfx90a:sramecc+:xnack-", LLVM AMDGPUUsage "Target ID"): read from a code
// object's ELF header, parsed from a device's architecture string, and matched.
#pragma once

#include <string>
#include <string_view>

#include "shim/code_object/elf_reader.h"

namespace anygpu {

// A target feature as a target id states it: '+', '-', or absent (the code runs either way, or
// the processor lacks the feature).
enum class FeatureSetting : uint8_t { any, on, off };

struct AmdgpuTarget {
  std::string processor;  // "gfx90a"
  FeatureSetting sramecc = FeatureSetting::any;
  FeatureSetting xnack = FeatureSetting::any;
};

// From EF_AMDGPU_MACH and the feature bits of e_flags (code objects v2 to v6). False with `error`
// for a processor number this build does not know.
bool amdgpu_target_from_elf(const ElfHeader& header, AmdgpuTarget* target, std::string* error);

// "gfx90a", "gfx90a:xnack-", "gfx90a:sramecc+:xnack-", also with an "amdgcn-amd-amdhsa--"
// prefix. False for anything else, unknown features included.
bool parse_amdgpu_target(std::string_view text, AmdgpuTarget* target);

// The canonical target id, features in alphabetical order as ROCm writes them.
std::string amdgpu_target_name(const AmdgpuTarget& target);

// -1 when code built for `code` cannot run on a device that is `device`; otherwise the number of
// features both state, so that an exact match ranks above one that relies on "any".
int amdgpu_target_fit(const AmdgpuTarget& code, const AmdgpuTarget& device);
// The generic target whose code objects run on `processor` (LLVM's AMDGPUUsage, "Generic
// processors": "gfx11-generic" for gfx1101); "" for a processor of no generic family.
std::string amdgpu_generic_processor(const std::string& processor);

}  // namespace anygpu
