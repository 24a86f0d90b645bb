// The dynamic section and the tables it names: strings, hash tables, symbols, symbol versions.
#include <cinttypes>

#include "shim/code_object/host_image_checker.h"

namespace anygpu::host_image {

bool HostImageChecker::dynamic_entries() {
  const uint64_t count = dynamic_bytes_.size() / sizeof(Elf64_Dyn);
  for (uint64_t i = 0; i < count; ++i) {
    Elf64_Dyn entry{};
    dynamic_bytes_.read(i * sizeof entry, &entry);
    if (entry.d_tag == DT_NULL) return check_tags();
    if (entry.d_tag == DT_NEEDED)
      needed_.push_back(entry.d_un.d_val);
    else
      tags_[entry.d_tag] = entry.d_un.d_val;  // ld.so keeps the last of each
  }
  return fail("its dynamic section has no DT_NULL entry inside PT_DYNAMIC");
}

// ld.so asserts on or dereferences the entries a present tag implies.
bool HostImageChecker::check_tags() {
  static const struct {
    int64_t tag;
    const char* name;
  } kRequired[] = {{DT_STRTAB, "DT_STRTAB"}, {DT_SYMTAB, "DT_SYMTAB"}, {DT_STRSZ, "DT_STRSZ"}};
  for (const auto& required : kRequired)
    if (!has(required.tag)) return fail(strprintf("its dynamic section has no %s", required.name));
  if (!has(DT_HASH) && !has(DT_GNU_HASH))
    return fail("its dynamic section has neither DT_HASH nor DT_GNU_HASH");
  if (tag(DT_FLAGS_1) & DF_1_PIE)
    return fail("it is a position-independent executable, not a shared object");
  if (has(DT_SYMENT) && tag(DT_SYMENT) != sizeof(Elf64_Sym))
    return fail("its DT_SYMENT is not the size of an ELF64 symbol");
  if (has(DT_REL) || has(DT_RELSZ) || has(DT_RELENT))
    return fail("it has DT_REL relocations, which x86-64 and aarch64 objects never have");
  if (has(DT_TEXTREL) || (tag(DT_FLAGS) & DF_TEXTREL))
    return fail("it has text relocations (build it with -fPIC)");
  if (has(DT_PREINIT_ARRAY)) return fail("it has a DT_PREINIT_ARRAY, which no shared object has");
  if (has(DT_RELA) && (!has(DT_RELASZ) || tag(DT_RELAENT) != sizeof(Elf64_Rela)))
    return fail("its DT_RELA comes without DT_RELASZ or with a DT_RELAENT other than 24");
  if (has(DT_JMPREL) && (!has(DT_PLTRELSZ) || tag(DT_PLTREL) != DT_RELA))
    return fail("its DT_JMPREL comes without DT_PLTRELSZ or with a DT_PLTREL other than RELA");
  // Without its table, PLT slots keep the linker's stubs, and the first call through one jumps
  // to an unrelocated address; without DT_VERSYM, ld.so misreads the version tables.
  if (has(DT_JMPREL) != has(DT_PLTRELSZ) || has(DT_JMPREL) != has(DT_PLTREL))
    return fail("its DT_JMPREL, DT_PLTRELSZ and DT_PLTREL are not all present or all absent");
  if ((has(DT_VERNEED) || has(DT_VERDEF)) != has(DT_VERSYM))
    return fail("its version tables (DT_VERNEED, DT_VERDEF) and DT_VERSYM do not come together");
  if (has(DT_RELR) && (!has(DT_RELRSZ) || tag(DT_RELRENT) != sizeof(uint64_t)))
    return fail("its DT_RELR comes without DT_RELRSZ or with a DT_RELRENT other than 8");
  if (has(DT_INIT_ARRAY) != has(DT_INIT_ARRAYSZ) || has(DT_FINI_ARRAY) != has(DT_FINI_ARRAYSZ))
    return fail("its DT_INIT_ARRAY or DT_FINI_ARRAY comes without its size, or the reverse");
  if ((has(DT_INIT) && !in_code(tag(DT_INIT))) || (has(DT_FINI) && !in_code(tag(DT_FINI))))
    return fail("its DT_INIT or DT_FINI is not an address in its code");
  if (has(DT_PLTGOT) && !writable(tag(DT_PLTGOT), 3 * sizeof(uint64_t)))
    return fail("its DT_PLTGOT is not inside a writable PT_LOAD");
  return true;
}

bool HostImageChecker::strings() {
  if (!table("dynamic string table", tag(DT_STRTAB), tag(DT_STRSZ), &strings_)) return false;
  std::string_view text;
  for (uint64_t offset : needed_)
    if (!string_at(offset, &text)) return fail("a DT_NEEDED name is outside its string table");
  for (int64_t name : {DT_SONAME, DT_RPATH, DT_RUNPATH, DT_AUXILIARY, DT_FILTER})
    if (has(name) && !string_at(tag(name), &text))
      return fail(
          strprintf("its dynamic entry %" PRId64 " names a string outside its table", name));
  return true;
}

// The GNU hash table, as ld.so reads it in a lookup; sets the symbol count (the end of the
// chain that starts last).
bool HostImageChecker::gnu_hash() {
  ByteReader head;
  if (!table("DT_GNU_HASH header", tag(DT_GNU_HASH), 16, &head)) return false;
  uint32_t buckets = 0, bias = 0, bloom_words = 0, shift = 0;
  head.read(0, &buckets);
  head.read(4, &bias);
  head.read(8, &bloom_words);
  head.read(12, &shift);
  if (buckets == 0 || bloom_words == 0 || !power_of_two_or_zero(bloom_words))
    return fail(
        strprintf("its DT_GNU_HASH has %u buckets and %u bloom words (at least 1 "
                  "bucket and a power of two of words needed)",
                  buckets, bloom_words));
  const uint64_t fixed = 16 + uint64_t{bloom_words} * 8 + uint64_t{buckets} * 4;
  ByteReader fixed_bytes;
  if (!table("DT_GNU_HASH buckets", tag(DT_GNU_HASH), fixed, &fixed_bytes)) return false;
  const uint64_t bucket_offset = fixed - uint64_t{buckets} * 4;
  uint32_t last = 0;
  for (uint32_t b = 0; b < buckets; ++b) {
    uint32_t first = 0;
    fixed_bytes.read(bucket_offset + uint64_t{b} * 4, &first);
    if (first != 0 && first < bias)
      return fail(
          strprintf("its DT_GNU_HASH bucket %u starts at symbol %u, below the "
                    "first hashed symbol %u",
                    b, first, bias));
    if (first > last) last = first;
  }
  symbol_count_ = bias;
  if (last == 0) return true;
  // Every chain ends at or before the end of the chain from the highest bucket start.
  const uint64_t chains = tag(DT_GNU_HASH) + fixed;
  for (uint64_t index = last;; ++index) {
    ByteReader word;
    if (index - bias > image_.size() / 4 || !mapped_bytes(chains + (index - bias) * 4, 4, &word))
      return fail("its DT_GNU_HASH chains run past the image's end");
    uint32_t value = 0;
    word.read(0, &value);
    if (value & 1) {
      symbol_count_ = index + 1;
      return true;
    }
  }
}

// The SysV hash table; every chain must end (a cycle would hang each lookup).
bool HostImageChecker::sysv_hash() {
  ByteReader head, all;
  if (!table("DT_HASH header", tag(DT_HASH), 8, &head)) return false;
  uint32_t buckets = 0, chains = 0;
  head.read(0, &buckets);
  head.read(4, &chains);
  if (buckets == 0) return fail("its DT_HASH has no buckets");
  if (!table("DT_HASH table", tag(DT_HASH), 8 + (uint64_t{buckets} + chains) * 4, &all))
    return false;
  std::vector<bool> seen(chains, false);
  for (uint32_t b = 0; b < buckets; ++b) {
    uint32_t index = 0;
    u32(all, 2 + b, &index);
    while (index != STN_UNDEF) {
      if (index >= chains || seen[index])
        return fail(
            strprintf("its DT_HASH bucket %u leads to symbol %u, outside its %u "
                      "chains or in a cycle",
                      b, index, chains));
      seen[index] = true;
      u32(all, 2 + uint64_t{buckets} + index, &index);
    }
  }
  if (!has(DT_GNU_HASH)) symbol_count_ = chains;
  return true;
}

// The symbols a relocation table names count too: a GNU hash table does not count symbols
// that it does not hash (those only relocations name).
bool HostImageChecker::count_relocation_symbols(const char* name, int64_t address_tag,
                                                int64_t size_tag) {
  if (!has(address_tag)) return true;
  ByteReader bytes;
  if (!table(name, tag(address_tag), tag(size_tag), &bytes)) return false;
  for (uint64_t i = 0; i < bytes.size() / sizeof(Elf64_Rela); ++i) {
    Elf64_Rela rela{};
    bytes.read(i * sizeof rela, &rela);
    const uint64_t symbol = ELF64_R_SYM(rela.r_info);
    if (symbol >= symbol_count_) symbol_count_ = symbol + 1;
  }
  return true;
}

bool HostImageChecker::hash_tables() {
  if (has(DT_GNU_HASH) && !gnu_hash()) return false;
  if (has(DT_HASH) && !sysv_hash()) return false;
  if (!count_relocation_symbols("DT_RELA", DT_RELA, DT_RELASZ) ||
      !count_relocation_symbols("DT_JMPREL", DT_JMPREL, DT_PLTRELSZ))
    return false;
  if (symbol_count_ > image_.size() / sizeof(Elf64_Sym))
    return fail(strprintf("its hash table counts %" PRIu64 " symbols, more than the image holds",
                          symbol_count_));
  return true;
}

// Where a defined symbol's value must lie, so that what ld.so or anygpu does with it (call a
// function, run an IFUNC resolver, read a variable) stays inside the mapped image.
bool HostImageChecker::symbol_ok(const Elf64_Sym& symbol) const {
  const uint8_t type = ELF64_ST_TYPE(symbol.st_info);
  // An undefined symbol that binds locally resolves to the object's own base address (a call
  // through it runs the ELF header): only the null symbol may be one.
  if (symbol.st_shndx == SHN_UNDEF)
    return (ELF64_ST_BIND(symbol.st_info) == STB_GLOBAL ||
            ELF64_ST_BIND(symbol.st_info) == STB_WEAK) &&
           ELF64_ST_VISIBILITY(symbol.st_other) == STV_DEFAULT;
  if (type == STT_FUNC || type == STT_GNU_IFUNC)
    return symbol.st_shndx < SHN_LORESERVE && in_code(symbol.st_value);
  if (type == STT_OBJECT)
    return symbol.st_shndx == SHN_ABS || load_holding(symbol.st_value, 0) != nullptr;
  if (type == STT_TLS) return tls_.p_type == PT_TLS && symbol.st_value <= tls_.p_memsz;
  return true;
}

bool HostImageChecker::symbols() {
  if (!table("dynamic symbol table", tag(DT_SYMTAB), symbol_count_ * sizeof(Elf64_Sym),
             &symbol_bytes_))
    return false;
  std::string_view name;
  for (uint64_t i = 0; i < symbol_count_; ++i) {
    Elf64_Sym symbol{};
    symbol_bytes_.read(i * sizeof symbol, &symbol);
    if (i == 0) {  // relocations of TLS offsets read the null symbol: it must be null
      static const Elf64_Sym kNull{};
      if (memcmp(&symbol, &kNull, sizeof symbol) != 0)
        return fail("its dynamic symbol 0 is not the null symbol");
      continue;
    }
    if (!string_at(symbol.st_name, &name))
      return fail(strprintf("dynamic symbol %" PRIu64 "'s name is outside its string table", i));
    if (!symbol_ok(symbol))
      return fail(strprintf("dynamic symbol %" PRIu64 " ('%.*s') has a value (0x%" PRIx64
                            "), binding or visibility that its kind cannot have",
                            i, static_cast<int>(name.size()), name.data(), symbol.st_value));
  }
  return true;
}

// A version requirement's (verneed) or definition's (verdef) chain, followed as ld.so does:
// by each entry's next offset until it is 0.
bool HostImageChecker::version_needs() {
  uint64_t address = tag(DT_VERNEED);
  for (uint64_t n = 0;; ++n) {
    ByteReader bytes;
    Elf64_Verneed need{};
    if (n > image_.size() / sizeof need ||
        !table("version requirement", address, sizeof need, &bytes))
      return false;
    bytes.read(0, &need);
    std::string_view file;
    if (!string_at(need.vn_file, &file))
      return fail("a version requirement's file name is outside its string table");
    bool needed = false;
    std::string_view other;
    for (uint64_t offset : needed_) needed |= string_at(offset, &other) && other == file;
    // ld.so asserts that each file a version is required from is one it loaded for DT_NEEDED.
    if (!needed)
      return fail(strprintf("it requires versions from '%.*s', which is not in its DT_NEEDED",
                            static_cast<int>(file.size()), file.data()));
    uint64_t aux = address + need.vn_aux;
    for (uint64_t a = 0;; ++a) {
      Elf64_Vernaux entry{};
      if (a > image_.size() / sizeof entry ||
          !table("version requirement entry", aux, sizeof entry, &bytes))
        return false;
      bytes.read(0, &entry);
      std::string_view name;
      if (!string_at(entry.vna_name, &name))
        return fail("a required version's name is outside its string table");
      version_indices_.insert(entry.vna_other & 0x7fff);
      if (entry.vna_next == 0) break;
      aux += entry.vna_next;
    }
    if (need.vn_next == 0) return true;
    address += need.vn_next;
  }
}

bool HostImageChecker::version_definitions() {
  uint64_t address = tag(DT_VERDEF);
  for (uint64_t n = 0;; ++n) {
    ByteReader bytes;
    Elf64_Verdef definition{};
    Elf64_Verdaux aux{};
    if (n > image_.size() / sizeof definition ||
        !table("version definition", address, sizeof definition, &bytes))
      return false;
    bytes.read(0, &definition);
    if (definition.vd_cnt > 0) {
      if (!table("version definition name", address + definition.vd_aux, sizeof aux, &bytes))
        return false;
      bytes.read(0, &aux);
      std::string_view name;
      if (!string_at(aux.vda_name, &name))
        return fail("a version definition's name is outside its string table");
    }
    version_indices_.insert(definition.vd_ndx & 0x7fff);
    if (definition.vd_next == 0) return true;
    address += definition.vd_next;
  }
}

bool HostImageChecker::versions() {
  if (has(DT_VERNEED) && !version_needs()) return false;
  if (has(DT_VERDEF) && !version_definitions()) return false;
  if (!has(DT_VERSYM)) return true;
  if (!has(DT_VERNEED) && !has(DT_VERDEF))
    return fail("it has symbol versions (DT_VERSYM) but no version table");
  if (!table("symbol version table", tag(DT_VERSYM), symbol_count_ * 2, &versym_)) return false;
  for (uint64_t i = 0; i < symbol_count_; ++i) {
    uint16_t version = 0;
    versym_.read(i * 2, &version);
    version &= 0x7fff;
    // ld.so indexes its table of the versions this object names with each symbol's version.
    if (version > 1 && version_indices_.count(version) == 0)
      return fail(strprintf("dynamic symbol %" PRIu64 " has version index %u, which its version "
                            "tables do not define",
                            i, version));
  }
  return true;
}

}  // namespace anygpu::host_image
