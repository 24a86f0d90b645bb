#include "code_object.h"

#include <elf.h>

#include <cstdint>
#include <cstring>

namespace anygpu {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
#else
#error "anygpu's CPU backend supports x86-64 and aarch64 hosts"
#endif

constexpr uint16_t kMachineCuda = 190;    // EM_CUDA
constexpr uint16_t kMachineAmdgpu = 224;  // EM_AMDGPU
constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr uint32_t kSpirvMagic = 0x07230203;

bool starts_with(const unsigned char* data, size_t size, const char* prefix) {
  const size_t length = strlen(prefix);
  return size >= length && memcmp(data, prefix, length) == 0;
}

CodeObjectFormat classify_elf(const unsigned char* data, size_t size) {
  if (size < sizeof(Elf64_Ehdr) || data[EI_CLASS] != ELFCLASS64 || data[EI_DATA] != ELFDATA2LSB)
    return CodeObjectFormat::foreign_elf;
  Elf64_Ehdr header;
  memcpy(&header, data, sizeof header);
  if (header.e_machine == kMachineCuda) return CodeObjectFormat::cuda_cubin;
  if (header.e_machine == kMachineAmdgpu) return CodeObjectFormat::amdgpu_code_object;
  if (header.e_machine == kHostMachine && header.e_type == ET_DYN)
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
  uint32_t magic;
  memcpy(&magic, bytes, sizeof magic);
  if (starts_with(bytes, size, ELFMAG))
    code.format = classify_elf(bytes, size);
  else if (starts_with(bytes, size, "__CLANG_OFFLOAD_BUNDLE__"))
    code.format = CodeObjectFormat::clang_offload_bundle;
  else if (magic == kSpirvMagic)
    code.format = CodeObjectFormat::spirv;
  else if (magic == kFatbinMagic)
    code.format = CodeObjectFormat::nvidia_fatbin;
  else if (looks_like_ptx(bytes, size))
    code.format = CodeObjectFormat::ptx;
  return code;
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
  }
  return "unknown format";
}

const char* host_machine_name() {
#if defined(__x86_64__)
  return "x86_64";
#else
  return "aarch64";
#endif
}

}  // namespace anygpu
