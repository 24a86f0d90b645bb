// Relocations (each writes inside the image's writable segments), the constructor and destructor
// arrays (each entry relocated into code), and the anygpu marker.
#include <algorithm>
#include <cinttypes>
#include <iterator>

#include "anygpu/kernel_host_abi.h"
#include "shim/code_object/host_image_checker.h"

namespace anygpu::host_image {
namespace {

// The relocation types a host code object's dynamic relocations may have.
bool allowed_relocation(uint16_t machine, uint32_t type) {
  static const uint32_t kX86_64[] = {R_X86_64_NONE,      R_X86_64_64,       R_X86_64_GLOB_DAT,
                                     R_X86_64_JUMP_SLOT, R_X86_64_RELATIVE, R_X86_64_DTPMOD64,
                                     R_X86_64_DTPOFF64,  R_X86_64_TPOFF64,  R_X86_64_TLSDESC,
                                     R_X86_64_IRELATIVE};
  static const uint32_t kAarch64[] = {
      R_AARCH64_NONE,     R_AARCH64_ABS64,      R_AARCH64_GLOB_DAT,   R_AARCH64_JUMP_SLOT,
      R_AARCH64_RELATIVE, R_AARCH64_TLS_DTPMOD, R_AARCH64_TLS_DTPREL, R_AARCH64_TLS_TPREL,
      R_AARCH64_TLSDESC,  R_AARCH64_IRELATIVE};
  if (machine == EM_X86_64)
    return std::find(std::begin(kX86_64), std::end(kX86_64), type) != std::end(kX86_64);
  return std::find(std::begin(kAarch64), std::end(kAarch64), type) != std::end(kAarch64);
}

uint32_t relative_type(uint16_t machine) {
  return machine == EM_X86_64 ? R_X86_64_RELATIVE : R_AARCH64_RELATIVE;
}

uint32_t irelative_type(uint16_t machine) {
  return machine == EM_X86_64 ? R_X86_64_IRELATIVE : R_AARCH64_IRELATIVE;
}

}  // namespace

bool HostImageChecker::relocation_table(const char* name, uint64_t address, uint64_t size,
                                        uint64_t relative) {
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
      return fail(
          strprintf("%s relocation %" PRIu64 " is within DT_RELACOUNT but not relative", name, i));
    if (!allowed_relocation(machine_, type))
      return fail(strprintf("%s relocation %" PRIu64 " has type %u, which a host code object "
                            "does not use",
                            name, i, type));
    if (symbol >= symbol_count_)
      return fail(strprintf("%s relocation %" PRIu64 " names symbol %" PRIu64 " of %" PRIu64, name,
                            i, symbol, symbol_count_));
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
    // A PLT slot bound to a symbol this object defines is called: the symbol must be code (a
    // defined NOTYPE symbol at 0 would send the call to the ELF header).
    if (type == (machine_ == EM_X86_64 ? R_X86_64_JUMP_SLOT : R_AARCH64_JUMP_SLOT) &&
        !callable_if_defined(symbol))
      return fail(strprintf("%s relocation %" PRIu64 " binds a PLT slot to symbol %" PRIu64
                            ", which this object defines outside its code",
                            name, i, symbol));
    // ld.so calls an IRELATIVE relocation's resolver while it loads the object.
    if (type == irelative_type(machine_) && !in_code(static_cast<uint64_t>(rela.r_addend)))
      return fail(strprintf("%s relocation %" PRIu64 " runs a resolver outside its code", name, i));
    if (type == relative_type(machine_))
      relative_targets_[rela.r_offset] = static_cast<uint64_t>(rela.r_addend);
    else
      relocated_[rela.r_offset] = SymbolWrite{type, symbol};
  }
  return true;
}

bool HostImageChecker::relr_table() {
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

bool HostImageChecker::relocations() {
  if (has(DT_RELA) && !relocation_table("DT_RELA", tag(DT_RELA), tag(DT_RELASZ), tag(DT_RELACOUNT)))
    return false;
  if (has(DT_JMPREL) && !relocation_table("DT_JMPREL", tag(DT_JMPREL), tag(DT_PLTRELSZ), 0))
    return false;
  if (has(DT_RELR) && !relr_table()) return false;
  return true;
}

// Undefined (resolved elsewhere), or a function in this object's code.
bool HostImageChecker::callable_if_defined(uint64_t index) const {
  Elf64_Sym symbol{};
  symbol_bytes_.read(index * sizeof symbol, &symbol);
  if (symbol.st_shndx == SHN_UNDEF) return true;
  const uint8_t type = ELF64_ST_TYPE(symbol.st_info);
  return (type == STT_FUNC || type == STT_GNU_IFUNC) && symbol.st_shndx < SHN_LORESERVE &&
         in_code(symbol.st_value);
}

// An absolute relocation against a function this object defines (an exported constructor).
bool HostImageChecker::defined_function(const SymbolWrite& write) const {
  const uint32_t absolute = machine_ == EM_X86_64 ? R_X86_64_64 : R_AARCH64_ABS64;
  Elf64_Sym symbol{};
  symbol_bytes_.read(write.symbol * sizeof symbol, &symbol);
  return write.type == absolute && symbol.st_shndx != SHN_UNDEF &&
         ELF64_ST_TYPE(symbol.st_info) == STT_FUNC && in_code(symbol.st_value);
}

// ld.so calls each constructor and destructor pointer: each must be relocated to code.
bool HostImageChecker::function_array(const char* name, uint64_t address, uint64_t size) {
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

bool HostImageChecker::init_arrays() {
  if (has(DT_INIT_ARRAY) &&
      !function_array("DT_INIT_ARRAY", tag(DT_INIT_ARRAY), tag(DT_INIT_ARRAYSZ)))
    return false;
  if (has(DT_FINI_ARRAY) &&
      !function_array("DT_FINI_ARRAY", tag(DT_FINI_ARRAY), tag(DT_FINI_ARRAYSZ)))
    return false;
  return true;
}

// The marker, and the kernel entries anygpu calls: defined, visible functions.
bool HostImageChecker::marker() {
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

}  // namespace anygpu::host_image
