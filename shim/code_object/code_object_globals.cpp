#include "shim/code_object/code_object_globals.h"

#include <elf.h>

#include <set>
#include <string_view>

#include "shim/code_object/elf_reader.h"
#include "shim/code_object/ptx_reader.h"
#include "shim/code_object/spirv_reader.h"

namespace anygpu {
namespace {

// A variable the host can look up: defined data, seen outside the object (hidden and internal
// visibility are not).
bool is_global_variable(const ElfSymbol& symbol) {
  const unsigned visibility = symbol.other & 3;
  return symbol.type == STT_OBJECT && symbol.section != SHN_UNDEF &&
         (symbol.binding == STB_GLOBAL || symbol.binding == STB_WEAK) &&
         (visibility == STV_DEFAULT || visibility == STV_PROTECTED);
}

// An AMD kernel's descriptor (NAME.kd) is a data symbol too, but no variable.
bool is_kernel_descriptor(CodeObjectFormat format, std::string_view name) {
  constexpr std::string_view suffix = ".kd";
  return format == CodeObjectFormat::amdgpu_code_object && name.size() > suffix.size() &&
         name.substr(name.size() - suffix.size()) == suffix;
}

// .symtab and .dynsym often list the same symbol: keep the first of each name.
bool elf_globals(const CodeObject& code, std::vector<std::string>* globals, std::string* error) {
  std::vector<ElfSymbol> symbols;
  if (!read_elf_symbols(ByteReader(code.data, code.size), &symbols, error)) return false;
  std::set<std::string_view> seen;
  for (const ElfSymbol& symbol : symbols)
    if (is_global_variable(symbol) && !is_kernel_descriptor(code.format, symbol.name) &&
        seen.insert(symbol.name).second)
      globals->emplace_back(symbol.name);
  return true;
}

}  // namespace

bool code_object_globals(const CodeObject& code, std::vector<std::string>* globals,
                         std::string* error) {
  globals->clear();
  const ByteReader image(code.data, code.size);
  if (code.format == CodeObjectFormat::ptx) {
    PtxInfo info;
    if (!read_ptx(image, &info, error)) return false;
    *globals = info.globals;
    return true;
  }
  if (code.format == CodeObjectFormat::spirv) {
    SpirvInfo info;
    if (!read_spirv(image, &info, error)) return false;
    *globals = info.exported_variables;
    return true;
  }
  if (is_elf(image) && !is_container(code.format)) return elf_globals(code, globals, error);
  return true;
}

}  // namespace anygpu
