#include "shim/code_object/host_image_check.h"

#include <elf.h>

#include <cinttypes>
#include <map>
#include <set>
#include <vector>

#include "anygpu/kernel_host_abi.h"
#include "shim/code_object/elf_reader.h"
#include "shim/support/string_format.h"

// RELR relocations (glibc 2.36's elf.h names them; older ones do not).
#ifndef DT_RELR
#define DT_RELRSZ 35
#define DT_RELR 36
#define DT_RELRENT 37
#endif

namespace anygpu {
namespace {

// More would make ld.so copy the table to its stack (alloca); real objects have about a dozen.
constexpr uint16_t kMaxProgramHeaders = 64;
// Beyond any real object; keeps every address sum far from overflowing.
constexpr uint64_t kMaxAddress = uint64_t{1} << 40;

const char* segment_name(uint32_t type) {
  switch (type) {
    case PT_LOAD:
      return "PT_LOAD";
    case PT_DYNAMIC:
      return "PT_DYNAMIC";
    case PT_TLS:
      return "PT_TLS";
    case PT_NOTE:
      return "PT_NOTE";
    case PT_GNU_RELRO:
      return "PT_GNU_RELRO";
    case PT_GNU_PROPERTY:
      return "PT_GNU_PROPERTY";
    default:
      return "segment";
  }
}

bool power_of_two_or_zero(uint64_t value) {
  return (value & (value - 1)) == 0;
}

// The relocation types a host code object's dynamic relocations may have.
bool allowed_relocation(uint16_t machine, uint32_t type) {
  if (machine == EM_X86_64) switch (type) {
      case R_X86_64_NONE:
      case R_X86_64_64:
      case R_X86_64_GLOB_DAT:
      case R_X86_64_JUMP_SLOT:
      case R_X86_64_RELATIVE:
      case R_X86_64_DTPMOD64:
      case R_X86_64_DTPOFF64:
      case R_X86_64_TPOFF64:
      case R_X86_64_TLSDESC:
      case R_X86_64_IRELATIVE:
        return true;
      default:
        return false;
    }
  switch (type) {
    case R_AARCH64_NONE:
    case R_AARCH64_ABS64:
    case R_AARCH64_GLOB_DAT:
    case R_AARCH64_JUMP_SLOT:
    case R_AARCH64_RELATIVE:
    case R_AARCH64_TLS_DTPMOD:
    case R_AARCH64_TLS_DTPREL:
    case R_AARCH64_TLS_TPREL:
    case R_AARCH64_TLSDESC:
    case R_AARCH64_IRELATIVE:
      return true;
    default:
      return false;
  }
}

uint32_t relative_type(uint16_t machine) {
  return machine == EM_X86_64 ? R_X86_64_RELATIVE : R_AARCH64_RELATIVE;
}

uint32_t irelative_type(uint16_t machine) {
  return machine == EM_X86_64 ? R_X86_64_IRELATIVE : R_AARCH64_IRELATIVE;
}

// A relocation that writes a symbol's address: its type and symbol index.
struct SymbolWrite {
  uint32_t type;
  uint64_t symbol;
};

class HostImageChecker {
 public:
  HostImageChecker(ByteReader image, uint16_t machine, std::string* error)
      : image_(image), machine_(machine), error_(error) {}

  bool run() {
    return header() && program_headers() && sections() && dynamic_entries() && strings() &&
           hash_tables() && symbols() && versions() && relocations() && init_arrays() && marker();
  }

 private:
  bool fail(std::string message) {
    *error_ = std::move(message);
    return false;
  }

  // The PT_LOAD whose memory holds [address, address + size), or null.
  const Elf64_Phdr* load_holding(uint64_t address, uint64_t size) const {
    for (const Elf64_Phdr& load : loads_)
      if (address >= load.p_vaddr && size <= load.p_memsz &&
          address - load.p_vaddr <= load.p_memsz - size)
        return &load;
    return nullptr;
  }

  // The image bytes mapped at [address, address + size): inside a PT_LOAD's file part.
  bool mapped_bytes(uint64_t address, uint64_t size, ByteReader* bytes) const {
    for (const Elf64_Phdr& load : loads_)
      if (address >= load.p_vaddr && size <= load.p_filesz &&
          address - load.p_vaddr <= load.p_filesz - size) {
        *bytes = image_.slice(load.p_offset + (address - load.p_vaddr), size);
        return true;
      }
    return false;
  }

  bool in_code(uint64_t address) const {
    const Elf64_Phdr* load = load_holding(address, 1);
    return load && (load->p_flags & PF_X);
  }

  bool writable(uint64_t address, uint64_t size) const {
    const Elf64_Phdr* load = load_holding(address, size);
    return load && (load->p_flags & PF_W);
  }

  // The table a dynamic entry points at, which must lie in the image's file bytes.
  bool table(const char* name, uint64_t address, uint64_t size, ByteReader* bytes) {
    if (size > image_.size() || !mapped_bytes(address, size, bytes))
      return fail(strprintf("its %s (%" PRIu64 " bytes at address 0x%" PRIx64
                            ") is not inside the image's %zu bytes",
                            name, size, address, image_.size()));
    return true;
  }

  bool header() {
    ElfHeader header;
    if (!read_elf_header(image_, &header, error_)) return false;
    image_.read(0, &ehdr_);
    if (ehdr_.e_ident[EI_VERSION] != EV_CURRENT || ehdr_.e_version != EV_CURRENT)
      return fail("its ELF version is not 1");
    if (ehdr_.e_type != ET_DYN)
      return fail(strprintf("it is not a shared object (ELF type %u)", ehdr_.e_type));
    if (ehdr_.e_machine != machine_)
      return fail(strprintf("it is for ELF machine %u, not %u", ehdr_.e_machine, machine_));
    if (ehdr_.e_phentsize != sizeof(Elf64_Phdr))
      return fail(strprintf("its program header size is %u, not %zu", ehdr_.e_phentsize,
                            sizeof(Elf64_Phdr)));
    if (ehdr_.e_phnum == 0 || ehdr_.e_phnum > kMaxProgramHeaders)
      return fail(strprintf("it has %u program headers (1 to %u expected)", ehdr_.e_phnum,
                            kMaxProgramHeaders));
    const uint64_t bytes = uint64_t{ehdr_.e_phnum} * sizeof(Elf64_Phdr);
    if (!image_.contains(ehdr_.e_phoff, bytes))
      return fail(strprintf("its program header table (bytes %" PRIu64 "..%" PRIu64
                            ") lies past the image's end (%zu bytes)",
                            ehdr_.e_phoff, ehdr_.e_phoff + bytes, image_.size()));
    return true;
  }

  bool segment(unsigned index, const Elf64_Phdr& ph) {
    const char* name = segment_name(ph.p_type);
    if (!image_.contains(ph.p_offset, ph.p_filesz))
      return fail(strprintf("program header %u (%s) bytes %" PRIu64 "..%" PRIu64
                            " lie past the image's end (%zu bytes)",
                            index, name, ph.p_offset, ph.p_offset + ph.p_filesz, image_.size()));
    if (ph.p_filesz > ph.p_memsz)
      return fail(strprintf("program header %u (%s) has more file bytes (%" PRIu64
                            ") than memory bytes (%" PRIu64 ")",
                            index, name, ph.p_filesz, ph.p_memsz));
    if (ph.p_vaddr > kMaxAddress || ph.p_memsz > kMaxAddress)
      return fail(strprintf("program header %u (%s) is at address 0x%" PRIx64 " with %" PRIu64
                            " bytes, beyond any host code object",
                            index, name, ph.p_vaddr, ph.p_memsz));
    if (!power_of_two_or_zero(ph.p_align) ||
        (ph.p_align > 1 && (ph.p_vaddr - ph.p_offset) % ph.p_align != 0))
      return fail(strprintf("program header %u (%s) has alignment %" PRIu64
                            " that its address 0x%" PRIx64 " and offset %" PRIu64 " do not keep",
                            index, name, ph.p_align, ph.p_vaddr, ph.p_offset));
    return true;
  }

  bool program_headers() {
    std::vector<Elf64_Phdr> others;
    for (unsigned i = 0; i < ehdr_.e_phnum; ++i) {
      Elf64_Phdr ph{};
      image_.read(ehdr_.e_phoff + uint64_t{i} * sizeof ph, &ph);  // header() checked the table
      if (!segment(i, ph)) return false;
      if (ph.p_type == PT_LOAD) {
        // ld.so maps the span from the first PT_LOAD to the last: they must ascend, apart.
        if (!loads_.empty() && ph.p_vaddr < loads_.back().p_vaddr + loads_.back().p_memsz)
          return fail(strprintf("program header %u (PT_LOAD) at 0x%" PRIx64
                                " overlaps or precedes the PT_LOAD before it",
                                i, ph.p_vaddr));
        if (!(ph.p_flags & PF_R))
          return fail(strprintf("program header %u (PT_LOAD) is not readable", i));
        if (!loads_.empty() && ph.p_filesz != 0 &&
            ph.p_offset < loads_.back().p_offset + loads_.back().p_filesz)
          return fail(strprintf("program header %u (PT_LOAD) maps file bytes from %" PRIu64
                                ", inside the PT_LOAD before it",
                                i, ph.p_offset));
        loads_.push_back(ph);
      } else if (ph.p_type == PT_DYNAMIC || ph.p_type == PT_TLS) {
        Elf64_Phdr& slot = ph.p_type == PT_DYNAMIC ? dynamic_ : tls_;
        if (slot.p_type != PT_NULL)
          return fail(strprintf("program header %u is a second %s", i, segment_name(ph.p_type)));
        slot = ph;
      }
      if (ph.p_type == PT_NOTE || ph.p_type == PT_GNU_PROPERTY || ph.p_type == PT_GNU_RELRO)
        others.push_back(ph);
    }
    if (loads_.empty()) return fail("it has no PT_LOAD program header");
    if (dynamic_.p_type == PT_NULL) return fail("it has no PT_DYNAMIC program header");
    // ld.so reads these from the mapped image (notes, TLS template) or protects them (RELRO).
    ByteReader bytes;
    for (const Elf64_Phdr& ph : others) {
      const bool ok = ph.p_type == PT_GNU_RELRO ? writable(ph.p_vaddr, ph.p_memsz)
                                                : mapped_bytes(ph.p_vaddr, ph.p_filesz, &bytes);
      if (!ok)
        return fail(strprintf("its %s at address 0x%" PRIx64 " is not inside a (writable) PT_LOAD",
                              segment_name(ph.p_type), ph.p_vaddr));
    }
    if (tls_.p_type == PT_TLS &&
        (!mapped_bytes(tls_.p_vaddr, tls_.p_filesz, &bytes) || tls_.p_align > 4096))
      return fail("its PT_TLS template is not inside a PT_LOAD or is aligned beyond 4096");
    if (!table("PT_DYNAMIC", dynamic_.p_vaddr, dynamic_.p_filesz, &dynamic_bytes_)) return false;
    return true;
  }

  // ld.so does not read sections, but a section table or a section that lies past the end says
  // the image was cut short (the linker writes the section table last).
  // Each allocated section must also be where the PT_LOADs map it: a program header whose
  // offset, address or size disagrees with the sections would map other bytes as code.
  bool sections() {
    std::vector<ElfSection> all;
    std::string problem;
    if (!read_elf_sections(image_, &all, &problem))
      return fail("it is cut short or corrupt: " + problem);
    for (size_t i = 0; i < all.size(); ++i) {
      const ElfSection& section = all[i];
      if (!(section.flags & SHF_ALLOC) || section.size == 0 || (section.flags & SHF_TLS)) continue;
      const bool nobits = section.type == SHT_NOBITS;
      ByteReader mapped;
      const bool ok = nobits ? load_holding(section.address, section.size) != nullptr
                             : mapped_bytes(section.address, section.size, &mapped) &&
                                   mapped.data() == image_.data() + section.offset;
      if (!ok)
        return fail(strprintf("its section %zu ('%.*s', %" PRIu64 " bytes at 0x%" PRIx64
                              ") is not where its program headers map it",
                              i, static_cast<int>(section.name.size()), section.name.data(),
                              section.size, section.address));
    }
    return true;
  }

  bool dynamic_entries() {
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

  bool has(int64_t tag) const { return tags_.count(tag) != 0; }
  uint64_t tag(int64_t tag) const {
    auto found = tags_.find(tag);
    return found == tags_.end() ? 0 : found->second;
  }

  // ld.so asserts on or dereferences the entries a present tag implies.
  bool check_tags() {
    static const struct {
      int64_t tag;
      const char* name;
    } kRequired[] = {{DT_STRTAB, "DT_STRTAB"}, {DT_SYMTAB, "DT_SYMTAB"}, {DT_STRSZ, "DT_STRSZ"}};
    for (const auto& required : kRequired)
      if (!has(required.tag))
        return fail(strprintf("its dynamic section has no %s", required.name));
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

  // The NUL-terminated string at `offset` of the dynamic string table.
  bool string_at(uint64_t offset, std::string_view* text) const {
    if (offset >= strings_.size()) return false;
    const auto* start = reinterpret_cast<const char*>(strings_.data() + offset);
    const void* end = memchr(start, 0, strings_.size() - offset);
    if (!end) return false;
    *text = std::string_view(start, static_cast<const char*>(end) - start);
    return true;
  }

  bool strings() {
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

  bool u32(ByteReader bytes, uint64_t index, uint32_t* value) const {
    return index <= bytes.size() / 4 && bytes.read(index * 4, value);
  }

  // The GNU hash table, as ld.so reads it in a lookup; sets the symbol count (the end of the
  // chain that starts last).
  bool gnu_hash() {
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
  bool sysv_hash() {
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
  bool count_relocation_symbols(const char* name, int64_t address_tag, int64_t size_tag) {
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

  bool hash_tables() {
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
  bool symbol_ok(const Elf64_Sym& symbol) const {
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

  bool symbols() {
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
  bool version_needs() {
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

  bool version_definitions() {
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

  bool versions() {
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

  bool relocation_table(const char* name, uint64_t address, uint64_t size, uint64_t relative) {
    ByteReader bytes;
    if (size % sizeof(Elf64_Rela) != 0)
      return fail(strprintf("its %s size %" PRIu64 " is not a multiple of 24", name, size));
    if (!table(name, address, size, &bytes)) return false;
    for (uint64_t i = 0; i < size / sizeof(Elf64_Rela); ++i) {
      Elf64_Rela rela{};
      bytes.read(i * sizeof rela, &rela);
      const uint32_t type = ELF64_R_TYPE(rela.r_info);
      const uint64_t symbol = ELF64_R_SYM(rela.r_info);
      // ld.so applies the first DT_RELACOUNT relocations as relative, whatever their type.
      if (i < relative && type != relative_type(machine_))
        return fail(strprintf("%s relocation %" PRIu64 " is within DT_RELACOUNT but not relative",
                              name, i));
      if (!allowed_relocation(machine_, type))
        return fail(strprintf("%s relocation %" PRIu64 " has type %u, which a host code object "
                              "does not use",
                              name, i, type));
      if (symbol >= symbol_count_)
        return fail(strprintf("%s relocation %" PRIu64 " names symbol %" PRIu64 " of %" PRIu64,
                              name, i, symbol, symbol_count_));
      if (!writable(rela.r_offset, sizeof(uint64_t)))
        return fail(strprintf("%s relocation %" PRIu64 " writes to 0x%" PRIx64
                              ", outside the writable PT_LOADs",
                              name, i, rela.r_offset));
      // A GOT or PLT slot bound to the null symbol would hold the object's base address.
      const bool slot = type == (machine_ == EM_X86_64 ? R_X86_64_GLOB_DAT : R_AARCH64_GLOB_DAT) ||
                        type == (machine_ == EM_X86_64 ? R_X86_64_JUMP_SLOT : R_AARCH64_JUMP_SLOT);
      if (slot && symbol == 0)
        return fail(
            strprintf("%s relocation %" PRIu64 " binds a GOT or PLT slot to no symbol", name, i));
      // ld.so calls an IRELATIVE relocation's resolver while it loads the object.
      if (type == irelative_type(machine_) && !in_code(static_cast<uint64_t>(rela.r_addend)))
        return fail(
            strprintf("%s relocation %" PRIu64 " runs a resolver outside its code", name, i));
      if (type == relative_type(machine_))
        relative_targets_[rela.r_offset] = static_cast<uint64_t>(rela.r_addend);
      else
        relocated_[rela.r_offset] = SymbolWrite{type, symbol};
    }
    return true;
  }

  bool relr_table() {
    ByteReader bytes;
    if (tag(DT_RELRSZ) % 8 != 0 || !table("DT_RELR", tag(DT_RELR), tag(DT_RELRSZ), &bytes))
      return fail("its DT_RELR table is not inside the image");
    uint64_t base = 0;
    for (uint64_t i = 0; i < bytes.size() / 8; ++i) {
      uint64_t entry = 0;
      bytes.read(i * 8, &entry);
      std::vector<uint64_t> targets;
      if ((entry & 1) == 0) {
        targets.push_back(entry);
        base = entry + 8;
      } else {
        for (uint64_t bit = 1; bit < 64; ++bit)
          if (entry >> bit & 1) targets.push_back(base + (bit - 1) * uint64_t{8});
        base += uint64_t{63} * 8;
      }
      for (uint64_t target : targets) {
        if (!writable(target, 8))
          return fail(strprintf("its DT_RELR relocation %" PRIu64 " writes to 0x%" PRIx64
                                ", outside the writable PT_LOADs",
                                i, target));
        ByteReader word;
        uint64_t value = 0;
        if (mapped_bytes(target, 8, &word)) word.read(0, &value);
        relative_targets_[target] = value;
      }
    }
    return true;
  }

  bool relocations() {
    if (has(DT_RELA) &&
        !relocation_table("DT_RELA", tag(DT_RELA), tag(DT_RELASZ), tag(DT_RELACOUNT)))
      return false;
    if (has(DT_JMPREL) && !relocation_table("DT_JMPREL", tag(DT_JMPREL), tag(DT_PLTRELSZ), 0))
      return false;
    if (has(DT_RELR) && !relr_table()) return false;
    return true;
  }

  // An absolute relocation against a function this object defines (an exported constructor).
  bool defined_function(const SymbolWrite& write) const {
    const uint32_t absolute = machine_ == EM_X86_64 ? R_X86_64_64 : R_AARCH64_ABS64;
    Elf64_Sym symbol{};
    symbol_bytes_.read(write.symbol * sizeof symbol, &symbol);
    return write.type == absolute && symbol.st_shndx != SHN_UNDEF &&
           ELF64_ST_TYPE(symbol.st_info) == STT_FUNC && in_code(symbol.st_value);
  }

  // ld.so calls each constructor and destructor pointer: each must be relocated to code.
  bool function_array(const char* name, uint64_t address, uint64_t size) {
    if (size % 8 != 0 || !writable(address, size))
      return fail(strprintf("its %s (%" PRIu64 " bytes at 0x%" PRIx64
                            ") is not inside a writable PT_LOAD",
                            name, size, address));
    for (uint64_t slot = address; slot < address + size; slot += 8) {
      const auto target = relative_targets_.find(slot);
      const auto write = relocated_.find(slot);
      const bool ok = write != relocated_.end()
                          ? defined_function(write->second)
                          : target != relative_targets_.end() && in_code(target->second);
      if (!ok)
        return fail(
            strprintf("its %s entry at 0x%" PRIx64 " does not point into its code", name, slot));
    }
    return true;
  }

  bool init_arrays() {
    if (has(DT_INIT_ARRAY) &&
        !function_array("DT_INIT_ARRAY", tag(DT_INIT_ARRAY), tag(DT_INIT_ARRAYSZ)))
      return false;
    if (has(DT_FINI_ARRAY) &&
        !function_array("DT_FINI_ARRAY", tag(DT_FINI_ARRAY), tag(DT_FINI_ARRAYSZ)))
      return false;
    return true;
  }

  // The marker, and the kernel entries anygpu calls: defined, visible functions.
  bool marker() {
    const std::string_view marker = AGK_HOST_ABI_SYMBOL, prefix = AGK_KERNEL_SYMBOL_PREFIX;
    bool found = false;
    std::string_view name;
    for (uint64_t i = 1; i < symbol_count_; ++i) {
      Elf64_Sym symbol{};
      symbol_bytes_.read(i * sizeof symbol, &symbol);
      string_at(symbol.st_name, &name);  // symbols() checked every name
      const bool is_marker = name == marker;
      if (!is_marker && name.substr(0, prefix.size()) != prefix) continue;
      const uint8_t binding = ELF64_ST_BIND(symbol.st_info);
      const uint8_t visibility = ELF64_ST_VISIBILITY(symbol.st_other);
      if (symbol.st_shndx == SHN_UNDEF) continue;
      if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC ||
          (binding != STB_GLOBAL && binding != STB_WEAK) ||
          (visibility != STV_DEFAULT && visibility != STV_PROTECTED))
        return fail(strprintf("its symbol '%.*s' is not an exported function",
                              static_cast<int>(name.size()), name.data()));
      found |= is_marker;
    }
    if (!found)
      return fail(
          strprintf("it exports no %s(), which every host code object built with "
                    "anygpu/kernel.h has",
                    AGK_HOST_ABI_SYMBOL));
    return true;
  }

  const ByteReader image_;
  const uint16_t machine_;
  std::string* const error_;
  Elf64_Ehdr ehdr_{};
  std::vector<Elf64_Phdr> loads_;
  Elf64_Phdr dynamic_{}, tls_{};  // p_type PT_NULL (0) where absent
  ByteReader dynamic_bytes_, strings_, symbol_bytes_, versym_;
  std::map<int64_t, uint64_t> tags_;
  std::vector<uint64_t> needed_;
  uint64_t symbol_count_ = 0;
  std::set<uint16_t> version_indices_;
  std::map<uint64_t, uint64_t> relative_targets_;  // address -> value after relative relocation
  std::map<uint64_t, SymbolWrite> relocated_;      // address -> the last symbol relocation there
};

}  // namespace

bool check_host_image(ByteReader image, uint16_t machine, std::string* error) {
  if (machine != EM_X86_64 && machine != EM_AARCH64) {
    *error = strprintf("ELF machine %u is not a host anygpu runs on", machine);
    return false;
  }
  return HostImageChecker(image, machine, error).run();
}

}  // namespace anygpu
