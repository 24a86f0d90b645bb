#include "shim/kernel_build/kernel_discovery.h"

#include <elf.h>

#include <algorithm>

#include "shim/code_object/elf_reader.h"

namespace anygpu {

namespace {

void add_once(std::vector<std::string>* names, std::string_view name) {
  if (std::find(names->begin(), names->end(), name) == names->end()) names->emplace_back(name);
}

}  // namespace

bool discover_kernels(const unsigned char* bytes, size_t size, const std::string& what,
                      DiscoveredKernels* found, std::string* error) {
  const ByteReader image(bytes, size);
  ElfHeader header;
  std::vector<ElfSection> sections;
  std::vector<ElfSymbol> symbols;
  if (!read_elf_header(image, &header, error) || !read_elf_sections(image, &sections, error) ||
      !read_elf_symbols(image, &symbols, error)) {
    *error = what + ": " + *error;
    return false;
  }
  if (header.type != ET_REL) {
    *error = what + " is not an object file (ELF type " + std::to_string(header.type) + ")";
    return false;
  }
  for (const ElfSymbol& symbol : symbols) {
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

}  // namespace anygpu
