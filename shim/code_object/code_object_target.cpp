#include "shim/code_object/code_object_target.h"

#include <elf.h>

#include "shim/code_object/carried_device_code.h"
#include "shim/code_object/portable_source.h"
#include "shim/code_object/ptx_reader.h"
#include "shim/code_object/spirv_reader.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

void describe_elf(ByteReader image, CodeTarget* target) {
  ElfHeader header;
  if (!read_elf_header(image, &header, &target->problem)) return;
  target->elf_machine = header.machine;
  target->elf_type = header.type;
  if (header.machine == kElfMachineCuda) {
    target->cuda.sm = cubin_sm(header);
    if (target->cuda.sm == 0) target->problem = "its e_flags name no SM architecture";
  } else if (header.machine == kElfMachineAmdgpu) {
    amdgpu_target_from_elf(header, &target->amdgpu, &target->problem);
  } else if (target->format == CodeObjectFormat::foreign_elf) {
    // An nvcc or hipcc object or program: the refusal names the device code it carries.
    target->problem = carried_device_code(image);
  }
}

void describe_portable_source(ByteReader image, CodeTarget* target) {
  PortableSource source;
  std::string error;
  if (read_portable_source(image, &source, &error))
    target->portable_family = source.family;
  else
    target->problem = "malformed: " + error;
}

void describe_ptx(ByteReader image, CodeTarget* target) {
  PtxInfo info;
  if (!read_ptx(image, &info, &target->problem)) return;
  target->cuda = info.target;
  target->ptx_version = ptx_version_number(info.version_major, info.version_minor);
}

const char* elf_machine_name(uint16_t machine) {
  switch (machine) {
    case EM_X86_64:
      return "x86_64";
    case EM_AARCH64:
      return "aarch64";
    case EM_RISCV:
      return "riscv";
    case EM_PPC64:
      return "ppc64";
    default:
      return nullptr;
  }
}

std::string elf_text(const CodeTarget& target) {
  const char* machine = elf_machine_name(target.elf_machine);
  const std::string what = machine ? machine : strprintf("e_machine %u", target.elf_machine);
  const char* kind = target.elf_type == ET_DYN    ? "shared object"
                     : target.elf_type == ET_REL  ? "relocatable object"
                     : target.elf_type == ET_EXEC ? "executable"
                                                  : "file";
  return strprintf("ELF %s for %s", kind, what.c_str());
}

std::string target_text(const CodeTarget& target) {
  switch (target.format) {
    case CodeObjectFormat::cuda_cubin:
      return target.cuda.sm ? "cubin for " + cuda_arch_name(target.cuda) : "cubin";
    case CodeObjectFormat::ptx:
      if (!target.cuda.sm) return "PTX";
      return strprintf("PTX %u.%u for %s", target.ptx_version / 100, target.ptx_version % 100,
                       cuda_arch_name(target.cuda).c_str());
    case CodeObjectFormat::amdgpu_code_object:
      if (target.amdgpu.processor.empty()) return "AMD code object";
      return "AMD code object for " + amdgpu_target_name(target.amdgpu);
    case CodeObjectFormat::host_shared_object:
      return strprintf("host code object (%s)", host_machine_name());
    case CodeObjectFormat::portable_source:
      return target.portable_family.empty()
                 ? "anygpu portable source"
                 : "anygpu portable source for " + target.portable_family + " (built at load time)";
    case CodeObjectFormat::foreign_elf:
      return elf_text(target);
    default:
      return format_name(target.format);
  }
}

}  // namespace

CodeTarget describe_code_object(const CodeObject& code) {
  CodeTarget target;
  target.format = code.format;
  const ByteReader image(code.data, code.size);
  if (code.size == 0) {
    target.empty = true;
    target.problem = "it is empty";
  } else if (is_elf(image)) {
    describe_elf(image, &target);
  } else if (code.format == CodeObjectFormat::ptx) {
    describe_ptx(image, &target);
  } else if (code.format == CodeObjectFormat::portable_source) {
    describe_portable_source(image, &target);
  } else if (code.format == CodeObjectFormat::unknown) {
    target.problem = "its format is unknown";
  }
  return target;
}

std::string code_target_text(const CodeTarget& target) {
  if (target.empty) return "empty";
  std::string text = target_text(target);
  if (!target.problem.empty()) text += ": " + target.problem;
  return text;
}

}  // namespace anygpu
