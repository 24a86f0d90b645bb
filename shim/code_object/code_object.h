// Code-object format detection: what an image is, from its first bytes alone (its magic number,
// or the ELF header). Every read is bounds-checked. What a code object is built for is read by
// describe_code_object (code_object_target.h); a container's entries by list_code_entries
// (code_object_entries.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace anygpu {

enum class CodeObjectFormat {
  unknown,
  host_shared_object,         // ELF shared object for this machine, built with anygpu/kernel.h
  foreign_elf,                // ELF for another CPU or not a shared object
  cuda_cubin,                 // ELF, EM_CUDA
  amdgpu_code_object,         // ELF, EM_AMDGPU
  ptx,                        // PTX text
  spirv,                      // SPIR-V binary
  clang_offload_bundle,       // __CLANG_OFFLOAD_BUNDLE__
  nvidia_fatbin,              // fatbin container
  compressed_offload_bundle,  // CCOB: clang -offload-compress, not supported
  // ELF file with __CLANG_OFFLOAD_BUNDLE__<id> sections (clang-offload-bundler -type=o): the
  // object-file form of a clang offload bundle
  clang_offload_bundle_object,
  // anygpu's portable source (portable_source.h): no device runs it; a missing code object is
  // built from it at load time
  portable_source,
};

bool is_container(CodeObjectFormat format);

struct CodeObject {
  CodeObjectFormat format;
  const unsigned char* data;
  size_t size;
};

CodeObject detect_code_object(const void* data, size_t size);
// What an ELF file is from its header alone, bundle sections aside: the host entry of an
// object-file bundle is the file itself, read as what it was before it was bundled.
CodeObjectFormat detect_elf_format(const void* data, size_t size);
const char* format_name(CodeObjectFormat format);
// The ELF machine name this build's host code objects need ("x86_64", "aarch64").
const char* host_machine_name();
// Its e_machine (EM_X86_64, EM_AARCH64).
uint16_t host_elf_machine();

}  // namespace anygpu
