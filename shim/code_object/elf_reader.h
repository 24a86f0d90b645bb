// ELF, as far as anygpu needs it: the header of a cubin, an AMD code object or a host code object,
// and the symbols of their symbol tables. ELF64 little-endian only: every GPU code object and
// both supported hosts use it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shim/code_object/byte_reader.h"

namespace anygpu {

constexpr uint16_t kElfMachineCuda = 190;    // EM_CUDA
constexpr uint16_t kElfMachineAmdgpu = 224;  // EM_AMDGPU

struct ElfHeader {
  uint16_t type = 0;
  uint16_t machine = 0;
  uint32_t flags = 0;
  uint8_t os_abi = 0;
  uint8_t abi_version = 0;
};

struct ElfSymbol {
  std::string_view name;  // points into the image read
  uint8_t type = 0;       // STT_*
  uint8_t binding = 0;    // STB_*
  uint8_t other = 0;      // st_other: visibility, and on CUDA STO_CUDA_ENTRY for kernels
  uint16_t section = 0;
  uint64_t value = 0, size = 0;  // st_value (an address, or an offset in ET_REL), st_size
  bool dynamic = false;          // from .dynsym, not .symtab
};

struct ElfSection {
  std::string_view name;          // points into the image read
  uint32_t type = 0;              // SHT_*
  uint64_t offset = 0, size = 0;  // inside the image unless the type is SHT_NOBITS
  uint64_t address = 0;           // sh_addr
  uint64_t flags = 0;             // sh_flags: SHF_ALLOC, SHF_WRITE, SHF_EXECINSTR...
};

bool is_elf(ByteReader image);

// False with `error` when the image is not a complete ELF64 little-endian header.
bool read_elf_header(ByteReader image, ElfHeader* header, std::string* error);

// The sections, in table order. False with `error` when the section table, the section-name
// table, a name or a section's bytes lie outside the image.
bool read_elf_sections(ByteReader image, std::vector<ElfSection>* sections, std::string* error);

// The same, without checking that each section's bytes lie inside the image (the section table
// and the names still are checked): for a reader that checks the sections it uses, and says
// which one does not fit. Index i of `sections` is section i.
bool read_elf_section_headers(ByteReader image, std::vector<ElfSection>* sections,
                              std::string* error);

// The symbols of .symtab and .dynsym (either may be absent), in table order, without the null
// symbol. False with `error` when a table, its string table or a name lies outside the image.
bool read_elf_symbols(ByteReader image, std::vector<ElfSymbol>* symbols, std::string* error);

}  // namespace anygpu
