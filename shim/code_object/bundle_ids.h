// The entry ids anygpu writes in its bundles (docs/bundle-format.md). clang-offload-bundler
// validates an id's offload kind (host, openmp, hip, hipv4 in clang 15) and triple, so every id
// uses one of those kinds and a triple LLVM knows; the AMD ids are exactly those hipcc writes.
#pragma once

#include <string>

#include "shim/code_object/amdgpu_target.h"
#include "shim/code_object/cuda_arch.h"

namespace anygpu {

// "host-x86_64-unknown-linux-gnu"; "" for a machine other than x86_64 and aarch64.
std::string host_bundle_id(uint16_t elf_machine);
// PTX is NVIDIA's virtual architecture: "hip-nvptx64-nvidia-cuda--compute_80".
std::string ptx_bundle_id(const CudaArch& target);
// A cubin runs on a real one: "hip-nvptx64-nvidia-cuda--sm_80".
std::string cubin_bundle_id(const CudaArch& sm);
// "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", features as the code object's e_flags state them.
std::string amdgpu_bundle_id(const AmdgpuTarget& target);
// "hip-spirv64-unknown-unknown".
std::string spirv_bundle_id();
// A portable source for a target family (portable_source.h): "hip-amdgcn-amd-amdhsa-anygpusource"
// for "amdgcn" (the environment field names it: clang-offload-bundler takes any).
std::string portable_source_bundle_id(const std::string& family);

}  // namespace anygpu
