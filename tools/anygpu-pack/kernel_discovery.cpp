#include "kernel_discovery.h"

#include <elf.h>

#include <algorithm>

#include "pack.h"
#include "shim/code_object/elf_reader.h"

namespace anygpu_pack {

namespace {

void add_once(std::vector<std::string>* names, std::string_view name) {
  if (std::find(names->begin(), names->end(), name) == names->end()) names->emplace_back(name);
}

}  // namespace

bool discover_kernels(const std::string& path, DiscoveredKernels* found, std::string* error) {
  std::vector<unsigned char> bytes;
  if (!read_file(path, &bytes, error)) return false;
  const anygpu::ByteReader image(bytes.data(), bytes.size());
  anygpu::ElfHeader header;
  std::vector<anygpu::ElfSection> sections;
  std::vector<anygpu::ElfSymbol> symbols;
  if (!anygpu::read_elf_header(image, &header, error) ||
      !anygpu::read_elf_sections(image, &sections, error) ||
      !anygpu::read_elf_symbols(image, &symbols, error)) {
    *error = path + ": " + *error;
    return false;
  }
  if (header.type != ET_REL) {
    *error = path + " is not an object file (ELF type " + std::to_string(header.type) + ")";
    return false;
  }
  for (const anygpu::ElfSymbol& symbol : symbols) {
    if (symbol.type == STT_TLS && symbol.section == SHN_UNDEF) {
      add_once(&found->extern_shared, symbol.name);
      continue;
    }
    if (symbol.type != STT_FUNC || symbol.section == SHN_UNDEF || symbol.section >= sections.size())
      continue;
    if (sections[symbol.section].name == "anygpu_kernels") add_once(&found->kernels, symbol.name);
  }
  return true;
}

}  // namespace anygpu_pack
