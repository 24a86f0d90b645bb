#include "shim/code_object/kernel_params.h"

#include <elf.h>

#include <cctype>
#include <cinttypes>
#include <cstring>
#include <string_view>

#include "shim/code_object/elf_reader.h"
#include "shim/code_object/fatbin_reader.h"
#include "shim/code_object/ptx_tokens.h"
#include "shim/support/string_format.h"

namespace anygpu {
namespace {

// More bytes than any GPU takes as parameters (CUDA: 32764): a PTX array claiming more is
// corrupt, and no buffer of its size is made.
constexpr uint64_t kMaxRecordBytes = 1 << 20;

// Offsets by C rules. Sizes come from untrusted bytes, so every sum is checked.
bool assign_offsets(std::vector<ag_param_info>* params, std::string* error) {
  uint64_t offset = 0;
  for (ag_param_info& param : *params) {
    const uint64_t alignment = param.alignment ? param.alignment : 1;
    uint64_t end = 0;
    if (!checked_add(offset, alignment - 1, &end) ||
        !checked_add(end / alignment * alignment, param.size, &end)) {
      *error = "its parameters' sizes overflow";
      return false;
    }
    param.struct_size = sizeof(ag_param_info);
    param.offset = static_cast<size_t>(end - param.size);
    offset = end;
  }
  return true;
}

ag_param_info param(ag_param_kind kind, uint64_t size, uint64_t alignment) {
  ag_param_info info{};
  info.kind = kind;
  info.size = static_cast<size_t>(size);
  info.alignment = static_cast<size_t>(alignment);
  return info;
}

bool power_of_two(uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

// ---- PTX ----------------------------------------------------------------------------------------

// A decimal or 0x-hexadecimal PTX integer, at most `limit`.
bool parse_number(std::string_view token, uint64_t limit, uint64_t* value) {
  int base = 10;
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
    base = 16;
    token.remove_prefix(2);
  }
  if (token.empty() || token.size() > 20) return false;
  uint64_t number = 0;
  for (const char c : token) {
    const int digit = isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : base == 16 && isxdigit(static_cast<unsigned char>(c))
                          ? tolower(static_cast<unsigned char>(c)) - 'a' + 10
                          : -1;
    if (digit < 0 || number > (limit - digit) / base) return false;
    number = number * base + digit;
  }
  *value = number;
  return true;
}

// `[N] = {b0, b1, ...}` after the record's name; bytes not listed are zero.
bool read_ptx_record(PtxTokens& tokens, std::vector<unsigned char>* bytes, std::string* error) {
  uint64_t size = 0;
  if (!parse_number(tokens.next(), kMaxRecordBytes, &size) || tokens.next() != "]") {
    *error = "its array size is missing or above 1 MiB";
    return false;
  }
  if (tokens.next() != "=" || tokens.next() != "{") {
    *error = "it has no initializer";
    return false;
  }
  bytes->assign(static_cast<size_t>(size), 0);
  std::string_view token = tokens.next();
  for (size_t count = 0; token != "}"; ++count) {
    uint64_t value = 0;
    if (token.empty()) {
      *error = "its initializer is cut short";
      return false;
    }
    if (count == bytes->size() || !parse_number(token, 255, &value)) {
      *error = count == bytes->size() ? strprintf("it lists more than its %zu bytes", count)
                                      : strprintf("its byte %zu is not 0 to 255", count);
      return false;
    }
    (*bytes)[count] = static_cast<unsigned char>(value);
    token = tokens.next();
    if (token == ",") {
      token = tokens.next();
    } else if (token != "}") {
      *error = strprintf("its initializer is %s after byte %zu",
                         token.empty() ? "cut short" : "malformed", count);
      return false;
    }
  }
  return true;
}

struct PtxType {
  std::string_view name;
  uint64_t size;
  ag_param_kind kind;
};
constexpr PtxType kPtxTypes[] = {
    {".u8", 1, AG_PARAM_INTEGER},  {".s8", 1, AG_PARAM_INTEGER},  {".b8", 1, AG_PARAM_INTEGER},
    {".u16", 2, AG_PARAM_INTEGER}, {".s16", 2, AG_PARAM_INTEGER}, {".b16", 2, AG_PARAM_INTEGER},
    {".u32", 4, AG_PARAM_INTEGER}, {".s32", 4, AG_PARAM_INTEGER}, {".b32", 4, AG_PARAM_INTEGER},
    {".u64", 8, AG_PARAM_INTEGER}, {".s64", 8, AG_PARAM_INTEGER}, {".b64", 8, AG_PARAM_INTEGER},
    {".f16", 2, AG_PARAM_FLOAT},   {".f32", 4, AG_PARAM_FLOAT},   {".f64", 8, AG_PARAM_FLOAT},
};

// One `.param ...` of an .entry, up to its `,` or `)` (in `*end`).
bool read_ptx_param(PtxTokens& tokens, ag_param_info* info, std::string_view* end,
                    std::string* error) {
  const PtxType* type = nullptr;
  uint64_t alignment = 0, elements = 1;
  bool pointer = false, array = false;
  std::string_view token = tokens.next();
  if (token != ".param") {
    *error = "a parameter does not start with .param";
    return false;
  }
  for (token = tokens.next(); token != "," && token != ")"; token = tokens.next()) {
    uint64_t number = 0;
    if (token.empty()) {
      *error = "its parameter list does not end";
      return false;
    } else if (token == ".align") {
      // After .ptr, .align is the alignment of what the pointer points at.
      if (!parse_number(tokens.next(), 1u << 16, &number) || !power_of_two(number)) {
        *error = "a parameter's .align is not a power of two";
        return false;
      }
      if (!pointer) alignment = number;
    } else if (token == ".ptr") {
      pointer = true;
    } else if (token == "[") {
      if (!parse_number(tokens.next(), kMaxRecordBytes, &number) || number == 0 ||
          tokens.next() != "]") {
        *error = "a parameter's array size is missing, 0 or above 1 MiB";
        return false;
      }
      elements = number;
      array = true;
    } else {
      for (const PtxType& candidate : kPtxTypes)
        if (token == candidate.name) type = &candidate;
    }
  }
  if (!type) {
    *error = "a parameter has no type anygpu knows";
    return false;
  }
  *end = token;
  if (array)
    *info = param(AG_PARAM_STRUCT, type->size * elements, alignment ? alignment : type->size);
  else
    *info = param(pointer ? AG_PARAM_POINTER : type->kind, type->size, type->size);
  return true;
}

// The `.param` list of `.entry <kernel>(`; false with an empty `error` when there is no such entry.
bool read_ptx_entry(std::string_view text, const std::string& kernel,
                    std::vector<ag_param_info>* params, std::string* error) {
  PtxTokens tokens(text);
  for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
    if (token != ".entry" || tokens.next() != kernel) continue;
    if (tokens.next() != "(") {
      *error = strprintf(".entry %s has no parameter list", kernel.c_str());
      return false;
    }
    PtxTokens ahead = tokens;
    if (ahead.next() == ")") return true;
    for (std::string_view end; end != ")";) {
      ag_param_info info;
      if (!read_ptx_param(tokens, &info, &end, error)) {
        *error = strprintf(".entry %s: %s", kernel.c_str(), error->c_str());
        return false;
      }
      params->push_back(info);
    }
    return true;
  }
  error->clear();
  return false;
}

// `*from_record`: the layout came from the record, not from the .param list.
bool read_ptx_params(ByteReader image, const std::string& kernel,
                     std::vector<ag_param_info>* params, std::string* error, bool* from_record) {
  const std::string_view text = ptx_text(image);
  const std::string symbol = kParamRecordPrefix + kernel;
  *from_record = true;
  PtxTokens tokens(text);
  std::string_view previous;
  for (std::string_view token = tokens.next(); !token.empty(); token = tokens.next()) {
    if (token == symbol) {
      PtxTokens ahead = tokens;
      if (ahead.next() != "[") continue;  // a use, not the definition
      tokens = ahead;
      std::vector<unsigned char> bytes;
      if (previous != ".b8" && previous != ".u8") {
        *error = "it is not a byte array (.b8)";
      } else if (read_ptx_record(tokens, &bytes, error) &&
                 decode_param_record(ByteReader(bytes.data(), bytes.size()), params, error)) {
        return true;
      }
      *error = strprintf("%s: %s", symbol.c_str(), error->c_str());
      return false;
    }
    previous = token;
  }
  *from_record = false;
  if (read_ptx_entry(text, kernel, params, error)) return true;
  if (error->empty())
    *error = strprintf("it has neither %s nor .entry %s", symbol.c_str(), kernel.c_str());
  return false;
}

// ---- ELF (cubin, AMD code object) --------------------------------------------------------------

// The bytes of symbol `name` (from .symtab, else .dynsym), read with the ELF reader; the symbol's
// value and size come from the file, so both are checked against its section.
bool elf_symbol_bytes(ByteReader image, const std::string& name, ByteReader* bytes,
                      std::string* error) {
  ElfHeader header;
  std::vector<ElfSection> sections;  // read_elf_sections checks each section's bytes
  std::vector<ElfSymbol> symbols;
  if (!read_elf_header(image, &header, error) || !read_elf_sections(image, &sections, error) ||
      !read_elf_symbols(image, &symbols, error))
    return false;
  const ElfSymbol* found = nullptr;
  for (const bool dynamic : {false, true}) {
    for (const ElfSymbol& symbol : symbols) {
      if (symbol.dynamic == dynamic && symbol.section != SHN_UNDEF && symbol.name == name) {
        found = &symbol;
        break;
      }
    }
    if (found) break;
  }
  if (!found) {
    *error = strprintf("it has no symbol %s (not built with anygpu/kernel.h)", name.c_str());
    return false;
  }
  if (found->section >= sections.size() || sections[found->section].type == SHT_NOBITS) {
    *error = strprintf("symbol %s is not defined in a section with bytes", name.c_str());
    return false;
  }
  const ElfSection& section = sections[found->section];
  // st_value is an address (AMD) or an offset in the section (cubin, relocatable files).
  const uint64_t base = header.type == ET_REL ? 0 : section.address;
  const uint64_t start = found->value - base;
  if (found->value < base || start > section.size || found->size > section.size - start) {
    *error = strprintf("symbol %s's %" PRIu64 " bytes at %#" PRIx64 " run past its section",
                       name.c_str(), found->size, found->value);
    return false;
  }
  *bytes = image.slice(section.offset + start, found->size);
  return true;
}

bool read_elf_params(ByteReader image, const std::string& kernel,
                     std::vector<ag_param_info>* params, std::string* error) {
  ByteReader record;
  const std::string symbol = kParamRecordPrefix + kernel;
  if (!elf_symbol_bytes(image, symbol, &record, error)) return false;
  if (decode_param_record(record, params, error)) return true;
  *error = strprintf("%s: %s", symbol.c_str(), error->c_str());
  return false;
}

// ---- NVIDIA fatbin -----------------------------------------------------------------------------

// Its uncompressed entries in order; a record in any of them wins over a PTX .param list.
bool read_fatbin_params(ByteReader image, const std::string& kernel,
                        std::vector<ag_param_info>* params, std::string* error) {
  std::vector<FatbinEntry> entries;
  if (!read_fatbin(image, &entries, error)) return false;
  bool have_fallback = false;
  std::string first_error;
  for (const FatbinEntry& entry : entries) {
    if (entry.compression || entry.kind == FatbinEntryKind::other) continue;
    const ByteReader payload(entry.data, entry.size);
    std::vector<ag_param_info> found;
    std::string entry_error;
    bool from_record = true;
    const bool read = entry.kind == FatbinEntryKind::elf
                          ? read_elf_params(payload, kernel, &found, &entry_error)
                          : read_ptx_params(payload, kernel, &found, &entry_error, &from_record);
    if (read && (from_record || !have_fallback)) params->swap(found);
    if (read && from_record) return true;
    have_fallback = have_fallback || read;
    if (!read && first_error.empty()) first_error = entry_error;
  }
  if (have_fallback) return true;
  *error = first_error.empty() ? "it has no uncompressed PTX or cubin entry"
                               : "its first entry that fails: " + first_error;
  return false;
}

}  // namespace

bool decode_param_record(ByteReader record, std::vector<ag_param_info>* layout,
                         std::string* error) {
  uint32_t magic = 0, version = 0, count = 0;
  if (!record.read(0, &magic) || !record.read(4, &version) || !record.read(8, &count)) {
    *error = strprintf("its %zu bytes are shorter than a record's header", record.size());
    return false;
  }
  if (magic != kParamRecordMagic || version != kParamRecordVersion) {
    *error = strprintf("its magic %#x or version %u is not 0x%x version %u", magic, version,
                       kParamRecordMagic, kParamRecordVersion);
    return false;
  }
  if (count > (record.size() - 12) / 12) {
    *error = strprintf("its %u parameters do not fit in its %zu bytes", count, record.size());
    return false;
  }
  std::vector<ag_param_info> params;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t fields[3];  // size, alignment, kind
    record.read(12 + 12 * uint64_t{i}, &fields);
    if (fields[0] == 0 || !power_of_two(fields[1]) || fields[2] < AG_PARAM_INTEGER ||
        fields[2] > AG_PARAM_STRUCT) {
      *error = strprintf("parameter %u has size %u, alignment %u, kind %u", i, fields[0], fields[1],
                         fields[2]);
      return false;
    }
    params.push_back(param(static_cast<ag_param_kind>(fields[2]), fields[0], fields[1]));
  }
  if (!assign_offsets(&params, error)) return false;
  layout->swap(params);
  return true;
}

bool read_kernel_params(const CodeObject& code, const std::string& kernel,
                        std::vector<ag_param_info>* layout, std::string* error) {
  const ByteReader image(code.data, code.size);
  std::vector<ag_param_info> params;
  const char* what;
  bool found = false;
  bool from_record = false;
  switch (code.format) {
    case CodeObjectFormat::ptx:
      what = "PTX";
      found = read_ptx_params(image, kernel, &params, error, &from_record);
      break;
    case CodeObjectFormat::cuda_cubin:
    case CodeObjectFormat::amdgpu_code_object:
      what = code.format == CodeObjectFormat::cuda_cubin ? "cubin" : "AMD code object";
      found = read_elf_params(image, kernel, &params, error);
      break;
    case CodeObjectFormat::nvidia_fatbin:
      what = "fatbin";
      found = read_fatbin_params(image, kernel, &params, error);
      break;
    default:
      *error = strprintf(
          "kernel %s: only PTX, cubins, AMD code objects and fatbins hold the "
          "parameter record anygpu reads",
          kernel.c_str());
      return false;
  }
  if (found && assign_offsets(&params, error)) {
    layout->swap(params);
    return true;
  }
  *error = strprintf("no parameter layout for kernel %s in the %s: %s", kernel.c_str(), what,
                     error->c_str());
  return false;
}

}  // namespace anygpu
