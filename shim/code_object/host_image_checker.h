// The host-image check's state and its small helpers, shared by the files that check each part
// of the image (host_image_check.cpp: headers and segments; host_image_tables.cpp: the dynamic
// section and its tables; host_image_relocations.cpp: relocations, constructors, the marker).
// Internal to the code-object library; the entry point is host_image_check.h.
#pragma once

#include <elf.h>

#include <cinttypes>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "shim/code_object/byte_reader.h"
#include "shim/support/string_format.h"

// RELR relocations (glibc 2.36's elf.h names them; older ones do not).
#ifndef DT_RELR
#define DT_RELRSZ 35
#define DT_RELR 36
#define DT_RELRENT 37
#endif

namespace anygpu::host_image {

inline bool power_of_two_or_zero(uint64_t value) {
  return (value & (value - 1)) == 0;
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

  bool run();

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

  bool has(int64_t tag) const { return tags_.count(tag) != 0; }

  uint64_t tag(int64_t tag) const {
    auto found = tags_.find(tag);
    return found == tags_.end() ? 0 : found->second;
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

  bool u32(ByteReader bytes, uint64_t index, uint32_t* value) const {
    return index <= bytes.size() / 4 && bytes.read(index * 4, value);
  }

  // host_image_check.cpp
  bool header();

  bool segment(unsigned index, const Elf64_Phdr& ph);

  bool program_headers();

  // ld.so does not read sections, but a section table or a section that lies past the end says
  // the image was cut short (the linker writes the section table last).
  // Each allocated section must also be where the PT_LOADs map it: a program header whose
  // offset, address or size disagrees with the sections would map other bytes as code.
  bool sections();

  // host_image_notes.cpp: a PT_NOTE or PT_GNU_PROPERTY segment, whose notes ld.so walks and
  // trusts (the GNU property note's entries too).
  bool notes(const Elf64_Phdr& ph, ByteReader bytes);

  // host_image_tables.cpp

  bool dynamic_entries();

  // ld.so asserts on or dereferences the entries a present tag implies.
  bool check_tags();

  bool strings();

  // The GNU hash table, as ld.so reads it in a lookup; sets the symbol count (the end of the
  // chain that starts last).
  bool gnu_hash();

  // The SysV hash table; every chain must end (a cycle would hang each lookup).
  bool sysv_hash();

  // The symbols a relocation table names count too: a GNU hash table does not count symbols
  // that it does not hash (those only relocations name).
  bool count_relocation_symbols(const char* name, int64_t address_tag, int64_t size_tag);

  bool hash_tables();

  // Where a defined symbol's value must lie, so that what ld.so or anygpu does with it (call a
  // function, run an IFUNC resolver, read a variable) stays inside the mapped image.
  bool symbol_ok(const Elf64_Sym& symbol) const;

  bool symbols();

  // A version requirement's (verneed) or definition's (verdef) chain, followed as ld.so does:
  // by each entry's next offset until it is 0.
  bool version_needs();

  bool version_definitions();

  bool versions();

  // host_image_relocations.cpp

  bool relocation_table(const char* name, uint64_t address, uint64_t size, uint64_t relative);

  bool relr_table();

  bool relocations();

  // An absolute relocation against a function this object defines (an exported constructor).
  bool callable_if_defined(uint64_t index) const;
  bool defined_function(const SymbolWrite& write) const;

  // ld.so calls each constructor and destructor pointer: each must be relocated to code.
  bool function_array(const char* name, uint64_t address, uint64_t size);

  bool init_arrays();

  // The marker, and the kernel entries anygpu calls: defined, visible functions.
  bool marker();

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

}  // namespace anygpu::host_image
