#include "shim/code_object/code_object.h"

#include <elf.h>

#include <cstdint>
#include <cstring>

#include "shim/code_object/elf_reader.h"
#include "shim/code_object/fatbin_reader.h"
#include "shim/code_object/offload_bundle.h"
#include "shim/code_object/portable_source.h"
#include "shim/code_object/spirv_reader.h"

namespace anygpu {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
#error "anygpu's CPU backend supports x86-64 and aarch64 hosts"
#endif

CodeObjectFormat classify_elf(ByteReader image) {
  ElfHeader header;
  std::string error;
  if (!read_elf_header(image, &header, &error)) return CodeObjectFormat::foreign_elf;
  if (header.machine == kElfMachineCuda) return CodeObjectFormat::cuda_cubin;
  if (header.machine == kElfMachineAmdgpu) return CodeObjectFormat::amdgpu_code_object;
  if (header.machine == kHostMachine && header.type == ET_DYN)
    return CodeObjectFormat::host_shared_object;
  return CodeObjectFormat::foreign_elf;
}

bool looks_like_ptx(const unsigned char* data, size_t size) {
  // PTX is text with a ".version" directive near the top (after comments).
  const size_t window = size < 4096 ? size : 4096;
  for (size_t i = 0; i + 8 <= window; ++i) {
    if (data[i] == 0) return false;
    if (memcmp(data + i, ".version", 8) == 0) return true;
  }
  return false;
}

}  // namespace

CodeObject detect_code_object(const void* data, size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  CodeObject code{CodeObjectFormat::unknown, bytes, size};
  if (!bytes || size < 4) return code;
  const ByteReader image(bytes, size);
  if (is_elf(image))
    code.format = has_offload_bundle_sections(image) ? CodeObjectFormat::clang_offload_bundle_object
                                                     : classify_elf(image);
  else if (is_offload_bundle(image))
    code.format = CodeObjectFormat::clang_offload_bundle;
  else if (is_compressed_offload_bundle(image))
    code.format = CodeObjectFormat::compressed_offload_bundle;
  else if (is_spirv(image))
    code.format = CodeObjectFormat::spirv;
  else if (is_fatbin(image))
    code.format = CodeObjectFormat::nvidia_fatbin;
  else if (is_portable_source(image))
    code.format = CodeObjectFormat::portable_source;
  else if (looks_like_ptx(bytes, size))
    code.format = CodeObjectFormat::ptx;
  return code;
}

CodeObjectFormat detect_elf_format(const void* data, size_t size) {
  const ByteReader image(data, size);
  return is_elf(image) ? classify_elf(image) : CodeObjectFormat::unknown;
}

const char* format_name(CodeObjectFormat format) {
  switch (format) {
    case CodeObjectFormat::unknown:
      return "unknown format";
    case CodeObjectFormat::host_shared_object:
      return "host code object";
    case CodeObjectFormat::foreign_elf:
      return "ELF file that is not a host code object";
    case CodeObjectFormat::cuda_cubin:
      return "CUDA cubin";
    case CodeObjectFormat::amdgpu_code_object:
      return "AMD GPU code object";
    case CodeObjectFormat::ptx:
      return "PTX text";
    case CodeObjectFormat::spirv:
      return "SPIR-V module";
    case CodeObjectFormat::clang_offload_bundle:
      return "clang offload bundle";
    case CodeObjectFormat::nvidia_fatbin:
      return "NVIDIA fatbin";
    case CodeObjectFormat::compressed_offload_bundle:
      return "compressed clang offload bundle";
    case CodeObjectFormat::clang_offload_bundle_object:
      return "clang offload bundle in an object file";
    case CodeObjectFormat::portable_source:
      return "anygpu portable source";
  }
  return "unknown format";
}

bool is_container(CodeObjectFormat format) {
  return format == CodeObjectFormat::clang_offload_bundle ||
         format == CodeObjectFormat::clang_offload_bundle_object ||
         format == CodeObjectFormat::nvidia_fatbin;
}

const char* host_machine_name() {
#if defined(__x86_64__)
  return "x86_64";
#else
  return "aarch64";
#endif
}

uint16_t host_elf_machine() {
  return kHostMachine;
}

}  // namespace anygpu
