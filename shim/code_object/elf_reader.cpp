#include "shim/code_object/elf_reader.h"

#include <elf.h>

#include <cinttypes>

#include "shim/support/string_format.h"

namespace anygpu {
namespace {

struct SectionTable {
  uint64_t offset = 0;
  uint64_t entry_size = 0;
  uint64_t count = 0;
};

bool read_section(ByteReader image, const SectionTable& table, uint64_t index, Elf64_Shdr* section,
                  std::string* error) {
  if (index >= table.count || !image.read(table.offset + index * table.entry_size, section)) {
    *error = strprintf("section %" PRIu64 " is outside the section table", index);
    return false;
  }
  return true;
}

bool read_section_table(ByteReader image, SectionTable* table, std::string* error) {
  Elf64_Ehdr header;
  image.read(0, &header);  // the caller checked the header
  table->offset = header.e_shoff;
  table->entry_size = header.e_shentsize;
  table->count = header.e_shnum;
  if (table->offset == 0) {
    table->count = 0;
    return true;
  }
  if (table->entry_size < sizeof(Elf64_Shdr)) {
    *error = strprintf("its section header size %" PRIu64 " is below %zu", table->entry_size,
                       sizeof(Elf64_Shdr));
    return false;
  }
  if (table->count == 0) {  // more than SHN_LORESERVE sections: the count is in section 0
    Elf64_Shdr first;
    table->count = 1;
    if (!read_section(image, *table, 0, &first, error)) return false;
    table->count = first.sh_size;
  }
  if (table->count > image.size() / table->entry_size ||
      !image.contains(table->offset, table->count * table->entry_size)) {
    *error = strprintf("its %" PRIu64 " section headers at offset %" PRIu64
                       " run past the end of its %zu bytes",
                       table->count, table->offset, image.size());
    return false;
  }
  return true;
}

// The string at `offset` in a string table, which must end inside the table.
bool table_string(ByteReader strings, uint64_t offset, std::string_view* text) {
  if (offset >= strings.size()) return false;
  const auto* start = reinterpret_cast<const char*>(strings.data() + offset);
  const void* end = memchr(start, 0, strings.size() - offset);
  if (!end) return false;
  *text = std::string_view(start, static_cast<const char*>(end) - start);
  return true;
}

// The section-name string table (empty when the file has none).
bool section_names(ByteReader image, const SectionTable& table, ByteReader* names,
                   std::string* error) {
  Elf64_Ehdr header;
  image.read(0, &header);  // the caller checked the header
  *names = ByteReader();
  uint64_t index = header.e_shstrndx;
  if (table.count == 0 || index == SHN_UNDEF) return true;
  Elf64_Shdr section;
  if (index == SHN_XINDEX) {  // the index is in section 0's sh_link
    if (!read_section(image, table, 0, &section, error)) return false;
    index = section.sh_link;
  }
  if (!read_section(image, table, index, &section, error)) return false;
  if (!image.contains(section.sh_offset, section.sh_size)) {
    *error = "its section-name table lies outside the file";
    return false;
  }
  *names = image.slice(section.sh_offset, section.sh_size);
  return true;
}

bool read_symbol_table(ByteReader image, const SectionTable& table, const Elf64_Shdr& symtab,
                       std::vector<ElfSymbol>* symbols, std::string* error) {
  Elf64_Shdr strtab;
  if (!read_section(image, table, symtab.sh_link, &strtab, error)) return false;
  const ByteReader entries = image.slice(symtab.sh_offset, symtab.sh_size);
  const ByteReader strings = image.slice(strtab.sh_offset, strtab.sh_size);
  if (!image.contains(symtab.sh_offset, symtab.sh_size) ||
      !image.contains(strtab.sh_offset, strtab.sh_size) || symtab.sh_entsize < sizeof(Elf64_Sym)) {
    *error = "a symbol table or its string table lies outside the file or has a bad entry size";
    return false;
  }
  const uint64_t count = entries.size() / symtab.sh_entsize;
  // Tables that overlap could list the same bytes many times over: allow no more symbols in all
  // than the file could hold once.
  if (symbols->size() + count > image.size() / sizeof(Elf64_Sym)) {
    *error = "its symbol tables hold more symbols than the file can (they overlap)";
    return false;
  }
  for (uint64_t i = 1; i < count; ++i) {
    Elf64_Sym raw{};  // zeros if a read could fail (the checks above say it cannot)
    entries.read(i * symtab.sh_entsize, &raw);
    ElfSymbol symbol;
    if (!table_string(strings, raw.st_name, &symbol.name)) {
      *error = strprintf("symbol %" PRIu64 "'s name is outside its string table", i);
      return false;
    }
    symbol.type = ELF64_ST_TYPE(raw.st_info);
    symbol.binding = ELF64_ST_BIND(raw.st_info);
    symbol.other = raw.st_other;
    symbol.section = raw.st_shndx;
    symbol.value = raw.st_value;
    symbol.size = raw.st_size;
    symbol.dynamic = symtab.sh_type == SHT_DYNSYM;
    symbols->push_back(symbol);
  }
  return true;
}

// The sections, each checked to lie inside the image where `check_bytes`.
bool read_sections(ByteReader image, std::vector<ElfSection>* sections, std::string* error,
                   bool check_bytes) {
  sections->clear();
  ElfHeader header;
  SectionTable table;
  ByteReader names;
  if (!read_elf_header(image, &header, error) || !read_section_table(image, &table, error) ||
      !section_names(image, table, &names, error))
    return false;
  for (uint64_t i = 0; i < table.count; ++i) {
    Elf64_Shdr raw{};
    read_section(image, table, i, &raw, error);
    ElfSection section;
    section.type = raw.sh_type;
    section.offset = raw.sh_offset;
    section.size = raw.sh_size;
    section.address = raw.sh_addr;
    section.flags = raw.sh_flags;
    const bool named = names.size() == 0 || table_string(names, raw.sh_name, &section.name);
    const bool inside = raw.sh_type == SHT_NOBITS || image.contains(raw.sh_offset, raw.sh_size);
    if (!named || (check_bytes && !inside)) {
      *error = strprintf("section %" PRIu64 "'s name or bytes lie outside the file", i);
      return false;
    }
    sections->push_back(section);
  }
  return true;
}

}  // namespace

bool is_elf(ByteReader image) {
  return image.starts_with(ELFMAG, SELFMAG);
}

bool read_elf_header(ByteReader image, ElfHeader* header, std::string* error) {
  Elf64_Ehdr raw;
  if (!is_elf(image)) {
    *error = "it does not start with the ELF magic";
    return false;
  }
  if (!image.read(0, &raw)) {
    *error = strprintf("its %zu bytes are shorter than an ELF64 header", image.size());
    return false;
  }
  if (raw.e_ident[EI_CLASS] != ELFCLASS64 || raw.e_ident[EI_DATA] != ELFDATA2LSB) {
    *error = "it is not a 64-bit little-endian ELF file";
    return false;
  }
  header->type = raw.e_type;
  header->machine = raw.e_machine;
  header->flags = raw.e_flags;
  header->os_abi = raw.e_ident[EI_OSABI];
  header->abi_version = raw.e_ident[EI_ABIVERSION];
  return true;
}

bool read_elf_sections(ByteReader image, std::vector<ElfSection>* sections, std::string* error) {
  return read_sections(image, sections, error, true);
}

bool read_elf_section_headers(ByteReader image, std::vector<ElfSection>* sections,
                              std::string* error) {
  return read_sections(image, sections, error, false);
}

bool read_elf_symbols(ByteReader image, std::vector<ElfSymbol>* symbols, std::string* error) {
  symbols->clear();
  ElfHeader header;
  SectionTable table;
  if (!read_elf_header(image, &header, error) || !read_section_table(image, &table, error))
    return false;
  for (uint64_t i = 0; i < table.count; ++i) {
    Elf64_Shdr section{};
    read_section(image, table, i, &section, error);
    if (section.sh_type != SHT_SYMTAB && section.sh_type != SHT_DYNSYM) continue;
    if (!read_symbol_table(image, table, section, symbols, error)) return false;
  }
  return true;
}

}  // namespace anygpu
